/**
 * Where the backend keeps its jobs: the job engine's store (`lib/jobs/job_store.ts`) over the
 * backend's DuckDB state. A job is recorded `pending`; it shows `running` once the runner has
 * started it (the follower writes that); it ends `completed` (the full result stored first),
 * `failed` (message kept) or `cancelled`, on the runner too when it was cancelled or the backend
 * stops. The row is written first, then the run record of a completed or failed job, and only
 * then is the end visible (the job's row and its last event): whoever sees the job finished
 * finds both. A job of a model being deleted writes nothing more and gets no run record.
 */
import type { BackendStore, JobRow, JobUpdate } from "../../../lib/backend/backend_store.ts";
import type { RunnerClient } from "../../../lib/backend/runner_client.ts";
import type { JobMovePatch, JobStore, RestartRule } from "../../../lib/jobs/job_store.ts";
import type { RunEvent } from "../../../lib/runner/run_events.ts";
import { type ActiveJob, type Completion, emitProgress } from "./active_job.ts";
import { errorMessage, JobStoppedError } from "../../../lib/jobs/job_engine.ts";
import type { JobLogWriter } from "./job_log_writer.ts";
import { type JobSubmission, runRecord } from "./job_view.ts";

/** What the rows are written with. */
export interface JobRowsDeps {
  store: BackendStore;
  runner: RunnerClient;
  /** The current time, ISO 8601. */
  now: () => string;
  log: (message: string) => void;
  logs: JobLogWriter;
  /** The active job of an engine job id. */
  active: (id: string) => ActiveJob | undefined;
}

/** The backend's job store. */
export function jobRows(deps: JobRowsDeps): JobStore<JobSubmission, Completion, RunEvent> {
  const { store } = deps;

  /** Stores the final fields, saves the run record given the run's `result`, sets the row. */
  const settle = async (
    job: ActiveJob,
    ended: JobUpdate,
    result: Record<string, unknown> | undefined,
  ) => {
    await store.updateJob(job.row.id, ended);
    // The record is saved before the job shows as finished: whoever sees it finished finds it.
    if (result) await saveRecord(job, { ...job.row, ...ended }, result);
    Object.assign(job.row, ended);
  };

  /** The run-history record of a finished job, in the frontend's form (and the spec's keys). */
  const saveRecord = async (job: ActiveJob, row: JobRow, result: Record<string, unknown>) => {
    // A job of a model being deleted leaves no history.
    if (job.discarded) return;
    const record = runRecord(row, job.modelName, result, job.lines);
    try {
      await store.upsertCompletedRun({
        id: row.id,
        model_id: row.model_id,
        model_name: job.modelName,
        status: row.status,
        completed_at: row.finished_at,
        body: JSON.stringify(record),
      }, deps.now());
    } catch (error) {
      deps.log(`job ${row.id}: the run record was not saved: ${errorMessage(error)}`);
    }
  };

  const complete = async (job: ActiveJob, { result }: Completion) => {
    if (job.discarded) return;
    await deps.logs.flush();
    await store.saveJobResult(job.row.id, JSON.stringify(result));
    job.progress.onDone();
    const finishedAt = deps.now();
    await settle(job, {
      status: "completed",
      progress: 100,
      finished_at: finishedAt,
      ...(job.row.started_at === null ? { started_at: finishedAt } : {}),
    }, result);
    emitProgress(job);
  };

  const end = async (
    job: ActiveJob,
    status: "failed" | "cancelled",
    patch: JobMovePatch<Completion>,
  ) => {
    const error = patch.error ?? status;
    const runnerId = job.row.runner_job_id;
    const onRunnerToo = status === "cancelled" || patch.failure instanceof JobStoppedError;
    if (onRunnerToo && runnerId !== null) await deps.runner.cancel(runnerId).catch(() => false);
    await deps.logs.flush();
    const ended = {
      status,
      error,
      finished_at: deps.now(),
      progress: job.progress.value(Date.now()),
    };
    await settle(job, ended, status === "failed" ? { error } : undefined);
  };

  return {
    insert: (job) => store.insertJob(deps.active(job.id)!.row),
    move: (job, to, patch) => {
      const active = deps.active(job.id);
      // `running` is the runner's to say (the follower writes it when the run starts).
      if (!active || to === "running" || to === "queued") return undefined;
      if (to === "succeeded") return complete(active, patch.result!);
      return end(active, to, patch);
    },
    async recover(rule: RestartRule): Promise<number> {
      const left = await store.jobsWithStatus(["pending", "running"]);
      const now = deps.now();
      for (const row of left) {
        await store.updateJob(row.id, { status: rule.state, error: rule.error, finished_at: now });
      }
      // Best effort, so that an orphan does not hold a runner's worker.
      await Promise.allSettled(
        left.filter((r) => r.runner_job_id !== null).map((r) =>
          deps.runner.cancel(r.runner_job_id!)
        ),
      );
      return left.length;
    },
  };
}
