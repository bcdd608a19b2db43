/**
 * One request of a download under the service's stop and two deadlines: one for the server's
 * answer (status and headers), one re-armed while the body is read. A deadline that passes
 * aborts the request with a DownloadError that names it; the extract and its `.md5` are both
 * fetched this way.
 */
import { DownloadError } from "./download_record.ts";

/** Seconds as the deadline messages write them: one decimal, no trailing zero. */
export function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/**
 * A deadline that can be re-armed: its signal aborts with a DownloadError carrying the
 * message of the deadline that passed.
 */
class Deadline {
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly signal = this.#controller.signal;

  arm(ms: number, message: () => string): void {
    this.clear();
    this.#timer = setTimeout(() => this.#controller.abort(new DownloadError(message())), ms);
  }

  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The DownloadError of the deadline that passed, or undefined. */
  get passed(): DownloadError | undefined {
    return this.signal.aborted ? this.signal.reason as DownloadError : undefined;
  }
}

/** What a request under deadlines is made with. */
export interface DeadlineFetchOptions {
  /** Reaches the download server (tests: a local fake). */
  readonly fetch: typeof fetch;
  /** The service's stop: its error is rethrown as it is. */
  readonly stop: AbortSignal;
  /** Longest wait for the server's answer (status and headers), ms. */
  readonly firstByteMs: number;
}

/** An answered request, while its deadlines still hold. */
export interface Transfer {
  readonly response: Response;
  /** Replaces the running deadline (the first byte's, or a previous one) with this one. */
  arm(ms: number, message: () => string): void;
  /**
   * What to throw for `error`: the stop's error as it is, a deadline that passed by its own
   * message, anything else as a DownloadError `${message}: ${error.message}`.
   */
  failure(error: unknown, message: string): unknown;
}

/**
 * Fetches `url` with the first-byte deadline armed, then hands the answer to `use`; the
 * deadlines end when `use` does. A request that fails before an answer throws
 * `failure(error, unreachable)`.
 */
export async function fetchWithDeadlines<T>(
  url: string,
  unreachable: string,
  options: DeadlineFetchOptions,
  use: (transfer: Transfer) => Promise<T>,
): Promise<T> {
  const { stop, firstByteMs } = options;
  const deadline = new Deadline();
  const signal = AbortSignal.any([stop, deadline.signal]);
  // A deadline that passed names itself; the stop is rethrown as it is.
  const failure = (error: unknown, message: string) => {
    if (stop.aborted) return error;
    return deadline.passed ?? new DownloadError(`${message}: ${(error as Error)?.message}`);
  };
  try {
    deadline.arm(
      firstByteMs,
      () => `No answer from ${url} within ${seconds(firstByteMs)} s (OSM_DOWNLOAD_FIRST_BYTE_S)`,
    );
    let response: Response;
    try {
      response = await options.fetch(url, { signal });
    } catch (error) {
      throw failure(error, unreachable);
    }
    return await use({ response, arm: (ms, message) => deadline.arm(ms, message), failure });
  } finally {
    deadline.clear();
  }
}
