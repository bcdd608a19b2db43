/**
 * The backend's HTTP client of the solver runner (`RUNNER_URL`): submit a model (`POST /run`),
 * read its event stream (`GET /run/{id}/stream`) frame by frame as it arrives, read its status
 * and full result, cancel it. Every call has a timeout; a runner that cannot be reached, or
 * that does not answer in time, is a `RunnerUnreachableError`, so the caller can say so.
 */

/** Answers of the runner in time, or not at all. */
export class RunnerUnreachableError extends Error {
  override readonly name = "RunnerUnreachableError";
}

/** The runner answered with an error status. */
export class RunnerHttpError extends Error {
  override readonly name = "RunnerHttpError";
  constructor(
    readonly status: number,
    message: string,
    /** `details` of the runner's error body, e.g. the problems of a refused model. */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** The runner's status record of a job (`GET /run/{id}`). */
export interface RunnerJobStatus {
  id: string;
  status: string;
  error: string | null;
  [key: string]: unknown;
}

/** Timeouts of the calls, ms. */
export interface RunnerClientTimeouts {
  /** `POST /run`, body upload and validation included (default 9 s). */
  submitMs: number;
  /** `GET /run/{id}`, `DELETE /run/{id}` and `/health` (default 2 s). */
  shortMs: number;
  /** Until the stream's headers arrive (default 5 s). */
  streamOpenMs: number;
  /** Longest silence on an open stream: the runner sends a keepalive every 15 s (default 40 s). */
  streamIdleMs: number;
  /** `GET /run/{id}/result` (default 120 s, as the frontend waits). */
  resultMs: number;
}

/** Defaults of the timeouts. */
export const RUNNER_CLIENT_TIMEOUTS: RunnerClientTimeouts = {
  submitMs: 9000,
  shortMs: 2000,
  streamOpenMs: 5000,
  streamIdleMs: 40_000,
  resultMs: 120_000,
};

/** What the client is built from. */
export interface RunnerClientOptions {
  /** Base URL, e.g. `http://localhost:5000`. */
  baseUrl: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  timeouts?: Partial<RunnerClientTimeouts>;
}

/** The runner as the backend calls it. */
export interface RunnerClient {
  readonly baseUrl: string;
  /** Submits a model; the runner's job id. */
  submit(model: unknown, signal?: AbortSignal): Promise<string>;
  /**
   * The job's events, each `data:` frame parsed as JSON, as they arrive; comments skipped. Ends
   * when the runner closes the stream; throws RunnerUnreachableError when it cannot be opened
   * or goes silent, RunnerHttpError for an error answer (404 unknown job).
   */
  stream(id: string, signal?: AbortSignal): AsyncGenerator<Record<string, unknown>>;
  /** The job's status record. */
  status(id: string): Promise<RunnerJobStatus>;
  /** The job's full result; `signal` stops the download (it then throws the abort reason). */
  result(id: string, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /** Cancels the job; false when the runner says it is unknown or finished. */
  cancel(id: string): Promise<boolean>;
  /** Whether `GET /health` answers `status: "ok"` in time. */
  healthy(): Promise<boolean>;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A client of the runner at `options.baseUrl`. */
export function createRunnerClient(options: RunnerClientOptions): RunnerClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const t = { ...RUNNER_CLIENT_TIMEOUTS, ...options.timeouts };

  /** One call with a timeout; network faults and timeouts become RunnerUnreachableError. */
  const call = async (
    path: string,
    init: RequestInit,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await doFetch(`${base}${path}`, { ...init, signal: combined });
    } catch (error) {
      if (signal?.aborted) throw error;
      if (timeout.aborted) {
        throw new RunnerUnreachableError(
          `The runner at ${base} did not answer ${init.method ?? "GET"} ${path} within ` +
            `${timeoutMs / 1000} s`,
        );
      }
      throw new RunnerUnreachableError(`The runner at ${base} is unreachable: ${describe(error)}`);
    }
  };

  /** The JSON of an answer, or RunnerHttpError with its `{error, details}`. */
  const json = async <T>(res: Response, what: string): Promise<T> => {
    let body: unknown;
    try {
      body = await res.json();
    } catch (error) {
      if (res.ok) {
        throw new RunnerUnreachableError(
          `The runner's answer to ${what} was cut: ${describe(error)}`,
        );
      }
      body = undefined;
    }
    if (!res.ok) {
      const record = (body ?? {}) as { error?: unknown; details?: unknown };
      const message = typeof record.error === "string" ? record.error : `HTTP ${res.status}`;
      throw new RunnerHttpError(res.status, message, record.details);
    }
    return body as T;
  };

  return {
    baseUrl: base,

    async submit(model, signal) {
      const res = await call(
        "/run",
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(model),
        },
        t.submitMs,
        signal,
      );
      const body = await json<{ job_id?: unknown }>(res, "POST /run");
      if (typeof body.job_id !== "string") {
        throw new RunnerHttpError(res.status, "The runner's answer to POST /run has no job_id");
      }
      return body.job_id;
    },

    async *stream(id, signal) {
      const path = `/run/${encodeURIComponent(id)}/stream`;
      // The open timeout covers the headers only; the body is watched for silence below.
      const opening = new AbortController();
      const openTimer = setTimeout(() => opening.abort(), t.streamOpenMs);
      const stop = new AbortController();
      const onAbort = () => stop.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      let res: Response;
      try {
        res = await doFetch(`${base}${path}`, {
          headers: { Accept: "text/event-stream" },
          signal: AbortSignal.any([stop.signal, opening.signal]),
        });
      } catch (error) {
        signal?.removeEventListener("abort", onAbort);
        if (signal?.aborted) throw error;
        throw new RunnerUnreachableError(
          opening.signal.aborted
            ? `The runner at ${base} did not open the event stream within ${
              t.streamOpenMs / 1000
            } s`
            : `The runner at ${base} is unreachable: ${describe(error)}`,
        );
      } finally {
        clearTimeout(openTimer);
      }
      if (!res.ok || res.body === null) {
        signal?.removeEventListener("abort", onAbort);
        await json(res, `GET ${path}`);
        throw new RunnerHttpError(res.status, "The runner sent no event stream");
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      let idle: ReturnType<typeof setTimeout> | undefined;
      let silent = false;
      const arm = () => {
        clearTimeout(idle);
        idle = setTimeout(() => {
          silent = true;
          void reader.cancel().catch(() => {});
        }, t.streamIdleMs);
      };
      try {
        arm();
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await reader.read();
          } catch (error) {
            if (signal?.aborted) return;
            throw new RunnerUnreachableError(
              `The connection to the runner at ${base} was lost: ${describe(error)}`,
            );
          }
          if (silent) {
            throw new RunnerUnreachableError(
              `The runner at ${base} sent nothing for ${t.streamIdleMs / 1000} s`,
            );
          }
          if (chunk.done) return;
          arm();
          buffer += decoder.decode(chunk.value, { stream: true });
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.split("\n").filter((l) => l.startsWith("data:"))
              .map((l) => l.slice(l.startsWith("data: ") ? 6 : 5)).join("\n");
            if (data === "") continue;
            let event: unknown;
            try {
              event = JSON.parse(data);
            } catch {
              continue; // as the frontend does: a frame that is not JSON is dropped
            }
            if (event !== null && typeof event === "object" && !Array.isArray(event)) {
              yield event as Record<string, unknown>;
            }
          }
        }
      } finally {
        clearTimeout(idle);
        signal?.removeEventListener("abort", onAbort);
        await reader.cancel().catch(() => {});
      }
    },

    async status(id) {
      const path = `/run/${encodeURIComponent(id)}`;
      return json<RunnerJobStatus>(await call(path, {}, t.shortMs), `GET ${path}`);
    },

    async result(id, signal) {
      const path = `/run/${encodeURIComponent(id)}/result`;
      return json<Record<string, unknown>>(
        await call(path, {}, t.resultMs, signal),
        `GET ${path}`,
      );
    },

    async cancel(id) {
      const path = `/run/${encodeURIComponent(id)}`;
      const res = await call(path, { method: "DELETE" }, t.shortMs);
      await res.body?.cancel();
      return res.ok;
    },

    async healthy() {
      try {
        const res = await call("/health", {}, t.shortMs);
        const body = await res.json().catch(() => undefined) as { status?: unknown } | undefined;
        return res.ok && body?.status === "ok";
      } catch {
        return false;
      }
    },
  };
}
