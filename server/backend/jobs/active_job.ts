/**
 * A job of the backend while it runs: its row as stored, its live events (`JobEventLog` of the
 * runner service, so a late stream client gets everything first), its progress and log lines,
 * and the flags that tell the parts of the job manager who ends it.
 */
import type { JobRow } from "../../../lib/backend/backend_store.ts";
import { JobProgress } from "../../../lib/backend/job_progress.ts";
import { JobEventLog } from "../../runner/job_events.ts";
import { isFinished, type JobSubmission, type JobView, rowView } from "./job_view.ts";

/** A job being submitted, followed or ended. */
export interface ActiveJob {
  row: JobRow;
  modelName: string;
  model: Record<string, unknown> | undefined;
  readonly events: JobEventLog;
  readonly progress: JobProgress;
  readonly controller: AbortController;
  readonly lines: string[];
  /** Set by whoever ends the job first (the follower, a cancel, a stop). */
  finalizing: boolean;
  /** Set when its model is being deleted: the job writes no run record and no result. */
  discarded: boolean;
  lastProgress: number;
  /** The background work: submit, follow, complete or fail. */
  settled: Promise<void>;
  /** An ending begun outside the background work (a cancel, a stop, a deletion). */
  ending: Promise<void> | undefined;
}

/** The active job of a newly recorded row, before anything of it ran. */
export function activeJob(row: JobRow, submission: JobSubmission): ActiveJob {
  return {
    row,
    modelName: submission.modelName,
    model: submission.model,
    events: new JobEventLog(),
    progress: new JobProgress(),
    controller: new AbortController(),
    lines: [],
    finalizing: false,
    discarded: false,
    lastProgress: 0,
    settled: Promise.resolve(),
    ending: undefined,
  };
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

/** The message of any thrown value. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
