/**
 * A job of the backend while it runs: its engine job (`lib/jobs/`: state, signal, events, end),
 * its row as stored, its progress and log lines, and whether its model is being deleted.
 */
import type { JobRow } from "../../../lib/backend/backend_store.ts";
import { JobProgress } from "../../../lib/backend/job_progress.ts";
import type { Job } from "../../../lib/jobs/job.ts";
import { isFinalState } from "../../../lib/jobs/job_states.ts";
import type { RunResult } from "../../../lib/runner/model_runner.ts";
import type { JobEventLog, RunEvent } from "../../../lib/runner/run_events.ts";
import { isFinished, type JobSubmission, type JobView, rowView } from "./job_view.ts";

/** What a job's work brings back: the run's full result, and the runner's `done` if it saw it. */
export interface Completion {
  readonly result: RunResult;
  readonly done: RunEvent | undefined;
}

/** A backend job on the engine: its submission in, its completion out, the runner's events. */
export type BackendEngineJob = Job<JobSubmission, Completion, RunEvent>;

/** A job being submitted, followed or ended. */
export class ActiveJob {
  readonly modelName: string;
  model: Record<string, unknown> | undefined;
  readonly progress = new JobProgress();
  readonly lines: string[] = [];
  /** Set when its model is being deleted: the job writes no run record and no result. */
  discarded = false;
  lastProgress = 0;
  /** An ending begun outside its work (a cancel, a stop, a deletion). */
  ending: Promise<void> | undefined;

  constructor(readonly job: BackendEngineJob, readonly row: JobRow, submission: JobSubmission) {
    this.modelName = submission.modelName;
    this.model = submission.model;
  }

  get events(): JobEventLog {
    return this.job.events as JobEventLog;
  }

  /** Aborted when the job ends early (a cancel, a stop, a deletion). */
  get signal(): AbortSignal {
    return this.job.signal;
  }

  /** Whether whoever ends the job has begun to. */
  get finalizing(): boolean {
    return this.job.ending || isFinalState(this.job.state);
  }
}

/** The job's view, with its progress now while it is unfinished. */
export function activeView(job: ActiveJob): JobView {
  return {
    ...rowView(job.row),
    progress: isFinished(job.row.status) ? job.row.progress : job.progress.value(Date.now()),
  };
}

/** Appends a progress event when the integer changed. */
export function emitProgress(job: ActiveJob): void {
  const value = job.progress.value(Date.now());
  if (value === job.lastProgress) return;
  job.lastProgress = value;
  const phase = job.progress.phase === "build" || job.progress.phase === "waiting"
    ? "build"
    : "solve";
  job.events.append({ type: "progress", phase, pct: value });
}
