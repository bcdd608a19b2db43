/**
 * Following one job of the backend on the solver runner: the model is submitted, then the
 * runner's event stream is read in the background. Runner events become the job's status and
 * progress (`lib/backend/job_progress.ts`) and its log lines; `done` completes the job and
 * `error` fails it (`job_finisher.ts`). A stream that dies is followed again while the runner
 * answers the job's status; a runner that cannot be reached, or does not answer within
 * `reconnectMs`, fails the job with a message that says so.
 */
import type { BackendStore } from "../../../lib/backend/backend_store.ts";
import { type RunnerClient, RunnerHttpError } from "../../../lib/backend/runner_client.ts";
import type { RunEvent } from "../../runner/job_events.ts";
import { abortableDelay } from "../../../lib/concurrency/abortable_delay.ts";
import { type ActiveJob, emitProgress, message } from "./active_job.ts";
import type { JobFinisher } from "./job_finisher.ts";
import type { JobLogWriter } from "./job_log_writer.ts";
import { CANCELLED } from "./job_view.ts";

/** What following jobs takes. */
export interface JobFollowerDeps {
  store: BackendStore;
  runner: RunnerClient;
  /** The current time, ISO 8601. */
  now: () => string;
  logs: JobLogWriter;
  finisher: JobFinisher;
  /** How long a job keeps trying to reach the runner after its stream ended early, ms. */
  reconnectMs: number;
}

/** Submits jobs to the runner and follows them until they end. */
export class JobFollower {
  readonly #store: BackendStore;
  readonly #runner: RunnerClient;
  readonly #now: () => string;
  readonly #logs: JobLogWriter;
  readonly #finisher: JobFinisher;
  readonly #reconnectMs: number;

  constructor(deps: JobFollowerDeps) {
    this.#store = deps.store;
    this.#runner = deps.runner;
    this.#now = deps.now;
    this.#logs = deps.logs;
    this.#finisher = deps.finisher;
    this.#reconnectMs = deps.reconnectMs;
  }

  /** Submits the job's model to the runner, then follows the job until it ends. */
  async run(job: ActiveJob): Promise<void> {
    const signal = job.controller.signal;
    let runnerId: string;
    try {
      // Not aborted by a cancel: a cancel during the upload would leave a job the runner may
      // already have accepted running unwatched. The submit is bounded by its own timeout, and a
      // job cancelled meanwhile is cancelled on the runner right after (below).
      runnerId = await this.#runner.submit(job.model);
    } catch (error) {
      if (signal.aborted) return;
      await this.#finisher.fail(
        job,
        error instanceof RunnerHttpError
          ? `The runner refused the model (HTTP ${error.status}): ${error.message}`
          : message(error),
      );
      return;
    }
    job.model = undefined;
    job.row.runner_job_id = runnerId;
    await this.#store.updateJob(job.row.id, { runner_job_id: runnerId });
    if (signal.aborted) {
      await this.#runner.cancel(runnerId).catch(() => false);
      return;
    }
    await this.#follow(job, runnerId);
  }

  async #follow(job: ActiveJob, runnerId: string): Promise<void> {
    const signal = job.controller.signal;
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
          if (await this.#onEvent(job, runnerId, event)) return;
        }
        lost = "the runner closed the event stream before the job ended";
      } catch (error) {
        if (signal.aborted) return;
        if (await this.#failIfUnknown(job, runnerId, error)) return;
        lost = message(error);
      }
      if (signal.aborted || job.finalizing) return;
      deadline ??= performance.now() + this.#reconnectMs;
      // Is the runner still there, and the job? Then follow it again.
      try {
        const status = await this.#runner.status(runnerId);
        if (status.status === "completed") {
          await this.#finisher.complete(job, runnerId, undefined);
          return;
        }
        if (status.status === "failed" || status.status === "cancelled") {
          await this.#finisher.fail(
            job,
            status.error ?? `The runner reports the job ${status.status}`,
          );
          return;
        }
      } catch (error) {
        if (signal.aborted) return;
        if (await this.#failIfUnknown(job, runnerId, error)) return;
        if (performance.now() >= deadline) {
          await this.#finisher.fail(
            job,
            `The connection to the runner at ${this.#runner.baseUrl} was lost during the run ` +
              `and it does not answer: ${lost}; ${message(error)}`,
          );
          return;
        }
      }
      await abortableDelay(500, signal);
    }
  }

  /** Fails the job when `error` says the runner no longer knows it (404); true when it did. */
  async #failIfUnknown(job: ActiveJob, runnerId: string, error: unknown): Promise<boolean> {
    if (!(error instanceof RunnerHttpError && error.status === 404)) return false;
    await this.#finisher.fail(
      job,
      `The runner at ${this.#runner.baseUrl} no longer knows job ${runnerId} ` +
        "(it may have restarted)",
    );
    return true;
  }

  /** Handles one runner event; true when it ended the job. */
  async #onEvent(
    job: ActiveJob,
    runnerId: string,
    event: Record<string, unknown>,
  ): Promise<boolean> {
    switch (event["type"]) {
      case "log": {
        this.#logs.add(job, String(event["line"] ?? ""));
        job.progress.onLog();
        emitProgress(job);
        return false;
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
        return false;
      }
      case "stats":
        job.events.append(event as unknown as RunEvent);
        emitProgress(job);
        return false;
      case "done":
        await this.#finisher.complete(job, runnerId, event);
        return true;
      case "error": {
        const error = String(event["error"] ?? "The run failed");
        await this.#finisher.fail(
          job,
          error === CANCELLED ? "The runner cancelled the job" : error,
        );
        return true;
      }
      default:
        return false;
    }
  }
}
