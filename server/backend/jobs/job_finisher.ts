/**
 * How a job of the backend ends: `completed` (the full result fetched from the runner and
 * stored), `failed` (message kept) or `cancelled`. The row in the store is written first, then
 * the run record of a completed or failed job, and only then is the end visible (the job's row
 * and its last event): whoever sees the job finished finds both. A job of a model being deleted
 * writes nothing more and gets no run record (issue 18).
 */
import type { BackendStore, JobRow, JobUpdate } from "../../../lib/backend/backend_store.ts";
import type { RunnerClient } from "../../../lib/backend/runner_client.ts";
import type { RunResult } from "../../../lib/runner/model_runner.ts";
import type { RunEvent } from "../../runner/job_events.ts";
import { type ActiveJob, emitProgress, message } from "./active_job.ts";
import type { JobLogWriter } from "./job_log_writer.ts";
import { CANCELLED, doneEvent, INTERRUPTED, runRecord } from "./job_view.ts";

/** What ending jobs takes. */
export interface JobFinisherDeps {
  store: BackendStore;
  runner: RunnerClient;
  /** The current time, ISO 8601. */
  now: () => string;
  log: (message: string) => void;
  logs: JobLogWriter;
  /** The unfinished jobs: an ended job leaves it. */
  active: Map<string, ActiveJob>;
}

/** Ends the jobs of one backend. */
export class JobFinisher {
  readonly #deps: JobFinisherDeps;

  constructor(deps: JobFinisherDeps) {
    this.#deps = deps;
  }

  /** Fetches and stores the full result, then ends the job `completed`. */
  async complete(
    job: ActiveJob,
    runnerId: string,
    done: Record<string, unknown> | undefined,
  ): Promise<void> {
    if (job.finalizing) return;
    job.finalizing = true;
    let result: RunResult;
    try {
      result = await this.#deps.runner.result(runnerId, job.controller.signal) as RunResult;
    } catch (error) {
      if (job.discarded) return this.#drop(job);
      job.finalizing = false;
      await this.fail(job, `The run ended but its result could not be read: ${message(error)}`);
      return;
    }
    if (job.discarded) return this.#drop(job);
    await this.#deps.logs.flush();
    await this.#deps.store.saveJobResult(job.row.id, JSON.stringify(result));
    job.progress.onDone();
    const finishedAt = this.#deps.now();
    await this.#settle(job, {
      status: "completed",
      progress: 100,
      finished_at: finishedAt,
      ...(job.row.started_at === null ? { started_at: finishedAt } : {}),
    }, result);
    emitProgress(job);
    // The result is stored before `done` goes out: a client reads /results as soon as it sees it.
    this.#leave(job, done ? done as unknown as RunEvent : doneEvent(result));
  }

  /** Ends the job `failed` with `error`, unless something ended it first. */
  async fail(job: ActiveJob, error: string): Promise<void> {
    if (job.finalizing) return;
    await this.#end(job, "failed", error, false);
  }

  /** Ends the job `cancelled`, on the runner too. */
  cancel(job: ActiveJob): Promise<void> {
    return this.#end(job, "cancelled", CANCELLED, true);
  }

  /** Ends the job `failed` as interrupted by a stop of the backend, on the runner too. */
  interrupt(job: ActiveJob): Promise<void> {
    return this.#end(job, "failed", INTERRUPTED, true);
  }

  /**
   * Ends the job with a final status: stops following it (and cancels it on the runner when
   * `cancelRunner`), stores the status, saves a record of a failed run, and ends its events.
   */
  #end(
    job: ActiveJob,
    status: "failed" | "cancelled",
    error: string,
    cancelRunner: boolean,
  ): Promise<void> {
    job.finalizing = true;
    const ending = this.#endNow(job, status, error, cancelRunner);
    job.ending = ending.catch(() => {});
    return ending;
  }

  async #endNow(
    job: ActiveJob,
    status: "failed" | "cancelled",
    error: string,
    cancelRunner: boolean,
  ): Promise<void> {
    job.controller.abort();
    const runnerId = job.row.runner_job_id;
    if (cancelRunner && runnerId !== null) {
      await this.#deps.runner.cancel(runnerId).catch(() => false);
    }
    await this.#deps.logs.flush();
    const finishedAt = this.#deps.now();
    const progress = job.progress.value(Date.now());
    const ended = { status, error, finished_at: finishedAt, progress };
    await this.#settle(job, ended, status === "failed" ? { error } : undefined);
    this.#leave(job, { type: "error", error });
  }

  /**
   * Stores the job's final fields, saves its run record when given the run's `result`, then
   * sets them on the job's row.
   */
  async #settle(
    job: ActiveJob,
    ended: JobUpdate,
    result: Record<string, unknown> | undefined,
  ): Promise<void> {
    await this.#deps.store.updateJob(job.row.id, ended);
    // The record is saved before the job shows as finished: whoever sees it finished finds it.
    if (result) await this.#saveRecord(job, { ...job.row, ...ended }, result);
    Object.assign(job.row, ended);
  }

  /** Forgets a job of a deleted model without writing anything more of it. */
  #drop(job: ActiveJob): void {
    this.#leave(job, { type: "error", error: CANCELLED });
  }

  /** Sends the job's last event and forgets it. */
  #leave(job: ActiveJob, last: RunEvent): void {
    job.events.append(last);
    this.#deps.active.delete(job.row.id);
  }

  /** The run-history record of a finished job, in the frontend's form (and the spec's keys). */
  async #saveRecord(
    job: ActiveJob,
    row: JobRow,
    result: Record<string, unknown>,
  ): Promise<void> {
    // A job of a model being deleted leaves no history.
    if (job.discarded) return;
    const record = runRecord(row, job.modelName, result, job.lines);
    try {
      await this.#deps.store.upsertCompletedRun({
        id: row.id,
        model_id: row.model_id,
        model_name: job.modelName,
        status: row.status,
        completed_at: row.finished_at,
        body: JSON.stringify(record),
      }, this.#deps.now());
    } catch (error) {
      this.#deps.log(`job ${row.id}: the run record was not saved: ${message(error)}`);
    }
  }
}
