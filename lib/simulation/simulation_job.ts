/**
 * One job of the simulation services: the engine's record (`lib/jobs/`) named in the services'
 * words, what a job holds besides it, and the view the service shows of it.
 */
import type { Job } from "../jobs/job.ts";
import type { StatusWords } from "../jobs/job_states.ts";
import type { DoneResult, Framed, SimulationFrame } from "./simulation_frames.ts";

/** The statuses of a job, exactly as the client reads them (plus `cancelled`). */
export type SimulationJobStatus = "queued" | "running" | "done" | "error" | "cancelled";

/** The simulations' word for each state of the engine. */
export const SIMULATION_STATUS: StatusWords<SimulationJobStatus> = {
  queued: "queued",
  running: "running",
  succeeded: "done",
  failed: "error",
  cancelled: "cancelled",
};

/** What the service shows of a job. */
export interface SimulationJobView {
  job_id: string;
  status: SimulationJobStatus;
  progress_pct: number;
  error: string | null;
  /** Present once `status` is `done`, unless the result was dropped. */
  result?: Record<string, unknown>;
  /** Set when the job is done but its result was dropped to bound the memory results hold. */
  result_dropped?: true;
}

/** A job of the simulations on the engine: its payload in, its result and frames out. */
export type SimulationJob<Payload> = Job<Payload, DoneResult, Framed<SimulationFrame>>;

/** What a job holds besides its engine record. */
export interface SimulationNote {
  progressPct: number;
  /** Set when its result was dropped to bound the memory finished jobs hold. */
  resultDropped?: true;
}

/** The view of a job. */
export function jobView(job: SimulationJob<unknown>, note: SimulationNote): SimulationJobView {
  const status = SIMULATION_STATUS[job.state];
  return {
    job_id: job.id,
    status,
    progress_pct: note.progressPct,
    error: job.error,
    ...(status === "done" && job.result ? { result: job.result.result } : {}),
    ...(note.resultDropped ? { result_dropped: true as const } : {}),
  };
}
