/**
 * Following one job of the backend on the solver runner: the model is submitted, then the
 * runner's event stream is read in the background: the work of the job on the job engine.
 * Runner events become the job's status and progress (`lib/backend/job_progress.ts`) and its
 * log lines; `done` brings the full result (the engine then completes the job, `job_rows.ts`
 * writing it) and `error` fails it. A stream that dies is followed again while the runner
 * answers the job's status; a runner that cannot be reached, or does not answer within
 * `reconnectMs`, fails the job with a message that says so.
 */
import type { BackendStore } from "../../../lib/backend/backend_store.ts";
import { type RunnerClient, RunnerHttpError } from "../../../lib/backend/runner_client.ts";
import type { RunEvent } from "../../../lib/runner/run_events.ts";
import { abortableDelay } from "../../../lib/concurrency/abortable_delay.ts";
import type { RunResult } from "../../../lib/runner/model_runner.ts";
import { type ActiveJob, type Completion, emitProgress } from "./active_job.ts";
import { errorMessage } from "../../../lib/jobs/job_engine.ts";
import type { JobLogWriter } from "./job_log_writer.ts";
import { CANCELLED } from "./job_view.ts";

/** What following jobs takes. */
export interface JobFollowerDeps {
  store: BackendStore;
  runner: RunnerClient;
  /** The current time, ISO 8601. */
  now: () => string;
  logs: JobLogWriter;
  /** How long a job keeps trying to reach the runner after its stream ended early, ms. */
  reconnectMs: number;
}

/** Submits jobs to the runner and follows them until they end. */
export class JobFollower {
  readonly #store: BackendStore;
  readonly #runner: RunnerClient;
  readonly #now: () => string;
  readonly #logs: JobLogWriter;
  readonly #reconnectMs: number;

  constructor(deps: JobFollowerDeps) {
    this.#store = deps.store;
    this.#runner = deps.runner;
    this.#now = deps.now;
    this.#logs = deps.logs;
    this.#reconnectMs = deps.reconnectMs;
  }

  /**
   * Submits the job's model to the runner, then follows the job until it ends: answers its
   * completion, or throws why it failed (or, once it was ended early, the abort).
   */
  async run(job: ActiveJob): Promise<Completion> {
    const signal = job.signal;
    let runnerId: string;
    try {
      // Not aborted by a cancel: a cancel during the upload would leave a job the runner may
      // already have accepted running unwatched. The submit is bounded by its own timeout, and a
      // job cancelled meanwhile is cancelled on the runner right after (below).
      runnerId = await this.#runner.submit(job.model);
    } catch (error) {
      signal.throwIfAborted();
      throw new Error(
        error instanceof RunnerHttpError
          ? `The runner refused the model (HTTP ${error.status}): ${error.message}`
          : errorMessage(error),
      );
    }
    job.model = undefined;
    job.row.runner_job_id = runnerId;
    await this.#store.updateJob(job.row.id, { runner_job_id: runnerId });
    if (signal.aborted) {
      await this.#runner.cancel(runnerId).catch(() => false);
      signal.throwIfAborted();
    }
    return await this.#follow(job, runnerId);
  }

  async #follow(job: ActiveJob, runnerId: string): Promise<Completion> {
    const signal = job.signal;
    let seen = 0;
    let deadline: number | undefined;
    for (;;) {
      let lost: string;
      try {
        let index = 0;
        for await (const event of this.#runner.stream(runnerId, signal)) {
          // A reconnected stream replays the runner's history: skip what was handled.
          if (index++ < seen) continue;
          seen++;
          deadline = undefined;
          const completion = await this.#onEvent(job, runnerId, event);
          if (completion) return completion;
        }
        lost = "the runner closed the event stream before the job ended";
      } catch (error) {
        signal.throwIfAborted();
        this.#throwIfUnknown(runnerId, error);
        lost = errorMessage(error);
      }
      signal.throwIfAborted();
      deadline ??= performance.now() + this.#reconnectMs;
      // Is the runner still there, and the job? Then follow it again.
      let status;
      try {
        status = await this.#runner.status(runnerId);
      } catch (error) {
        signal.throwIfAborted();
        this.#throwIfUnknown(runnerId, error);
        if (performance.now() >= deadline) {
          throw new Error(
            `The connection to the runner at ${this.#runner.baseUrl} was lost during the run ` +
              `and it does not answer: ${lost}; ${errorMessage(error)}`,
          );
        }
      }
      if (status?.status === "completed") return await this.#complete(job, runnerId, undefined);
      if (status?.status === "failed" || status?.status === "cancelled") {
        throw new Error(status.error ?? `The runner reports the job ${status.status}`);
      }
      await abortableDelay(500, signal);
      signal.throwIfAborted();
    }
  }

  /** The full result of a run that ended, fetched from the runner. */
  async #complete(
    job: ActiveJob,
    runnerId: string,
    done: RunEvent | undefined,
  ): Promise<Completion> {
    let result: RunResult;
    try {
      result = await this.#runner.result(runnerId, job.signal) as RunResult;
    } catch (error) {
      job.signal.throwIfAborted();
      throw new Error(`The run ended but its result could not be read: ${errorMessage(error)}`);
    }
    return { result, done };
  }

  /** Throws when `error` says the runner no longer knows the job (404). */
  #throwIfUnknown(runnerId: string, error: unknown): void {
    if (!(error instanceof RunnerHttpError && error.status === 404)) return;
    throw new Error(
      `The runner at ${this.#runner.baseUrl} no longer knows job ${runnerId} ` +
        "(it may have restarted)",
    );
  }

  /** Handles one runner event; the completion when it ended the job. */
  async #onEvent(
    job: ActiveJob,
    runnerId: string,
    event: Record<string, unknown>,
  ): Promise<Completion | undefined> {
    switch (event["type"]) {
      case "log": {
        this.#logs.add(job, String(event["line"] ?? ""));
        job.progress.onLog();
        emitProgress(job);
        return undefined;
      }
      case "progress": {
        if (job.row.status === "pending" && !job.finalizing) {
          const startedAt = this.#now();
          await this.#store.updateJob(job.row.id, { status: "running", started_at: startedAt });
          // Ended meanwhile (a cancel, a deletion): its final status stands.
          if (!job.finalizing) {
            job.row.status = "running";
            job.row.started_at = startedAt;
          }
        }
        job.progress.onProgress(String(event["phase"]), Number(event["pct"]), Date.now());
        emitProgress(job);
        return undefined;
      }
      case "stats":
        job.events.append(event as unknown as RunEvent);
        emitProgress(job);
        return undefined;
      case "done":
        return await this.#complete(job, runnerId, event as unknown as RunEvent);
      case "error": {
        const error = String(event["error"] ?? "The run failed");
        throw new Error(error === CANCELLED ? "The runner cancelled the job" : error);
      }
      default:
        return undefined;
    }
  }
}
