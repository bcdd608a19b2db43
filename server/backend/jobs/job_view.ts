/**
 * What the backend's jobs look like from outside: the view the routes show, the final statuses,
 * the `done` event the backend's stream sends, and the run-history record of a finished job.
 */
import type { JobRow } from "../../../lib/backend/backend_store.ts";
import type { RunResult } from "../../../lib/runner/model_runner.ts";
import type { RunEvent } from "../../../lib/runner/run_events.ts";
import { summarizeResult } from "../../../lib/runner/result_summary.ts";

/** A job as the routes show it. */
export interface JobView {
  id: string;
  model_id: string;
  status: JobRow["status"];
  progress: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

/** The error of jobs that were running when the backend stopped. */
export const INTERRUPTED = "interrupted by restart";

/** The error of a cancelled job. */
export const CANCELLED = "cancelled";

/** Whether a status is final. */
export function isFinished(status: JobRow["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** What a cancel did. */
export type CancelOutcome =
  | { outcome: "cancelled"; job: JobView }
  | { outcome: "finished"; status: JobRow["status"] }
  | { outcome: "unknown" };

/** What a job submission carries. */
export interface JobSubmission {
  modelId: string;
  modelName: string;
  /** The model to submit (already checked). */
  model: Record<string, unknown>;
  /** Lines for the job's log before the runner's (how the model was read). */
  notes?: readonly string[];
}

/** `12.3s` or `1m 5s`, as the frontend writes a run's duration. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "N/A";
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m ${Math.round(seconds % 60)}s`;
}

/** The `done` event of a job: the result's summary and its headline figures. */
export function doneEvent(result: RunResult): RunEvent {
  return {
    type: "done",
    result: summarizeResult(result),
    objective: typeof result.objective === "number" ? result.objective : null,
    termination: String(result.termination ?? result.termination_condition ?? ""),
    success: result.success !== false,
  };
}

/** The view of a job row. */
export function rowView(row: JobRow): JobView {
  return {
    id: row.id,
    model_id: row.model_id,
    status: row.status,
    progress: row.progress,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    error: row.error,
  };
}

/** The run-history record of a finished job, in the frontend's form (and the spec's keys). */
export function runRecord(
  row: JobRow,
  modelName: string,
  result: Record<string, unknown>,
  logs: readonly string[],
): Record<string, unknown> {
  const started = Date.parse(row.started_at ?? row.created_at);
  const finished = Date.parse(row.finished_at ?? row.created_at);
  return {
    id: row.id,
    job_id: row.id,
    model_id: row.model_id,
    model_name: modelName,
    modelName,
    framework: "calliope",
    // The solver that ran, as the runner's result names it ("HiGHS 1.15.3 (wasm)", "CBC ...").
    solver: typeof result["solver"] === "string" ? result["solver"] : "highs",
    status: row.status,
    completedAt: row.finished_at,
    duration: formatDuration(finished - started),
    objective: typeof result["objective"] === "number" ? result["objective"] : null,
    terminationCondition: result["termination_condition"] ?? null,
    result,
    logs,
  };
}
