/**
 * One job of the simulation services: its record as the job manager keeps it, and the view the
 * service shows of it.
 */
import type { FinalFrame, Framed, FrameListener, ProgressFrame } from "./simulation_frames.ts";
import type { SimulationRun } from "./simulation_model.ts";

/** The statuses of a job, exactly as the client reads them (plus `cancelled`). */
export type SimulationJobStatus = "queued" | "running" | "done" | "error" | "cancelled";

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

/** A job as the manager keeps it. */
export interface JobRecord<Payload> {
  id: string;
  /** The checked payload until its run starts (released then: a profile can weigh MBs). */
  payload?: Payload;
  status: SimulationJobStatus;
  run?: SimulationRun;
  progressPct: number;
  error: string | null;
  result?: Record<string, unknown>;
  resultDropped?: true;
  latest?: Framed<ProgressFrame>;
  final?: Framed<FinalFrame>;
  listeners: Set<FrameListener>;
  finishedAt?: number;
  /** Bytes this finished job holds, counted against `maxHeldBytes`. */
  heldBytes: number;
  /** Settles when the job's run ended (done, error or cancelled). */
  settled: Promise<void>;
  settle: () => void;
}

/** A queued job of `payload`. */
export function newJobRecord<Payload>(id: string, payload: Payload): JobRecord<Payload> {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => settle = resolve);
  return {
    id,
    payload,
    status: "queued",
    progressPct: 0,
    error: null,
    listeners: new Set(),
    heldBytes: 0,
    settled,
    settle,
  };
}

/** The view of a job. */
export function jobView(job: JobRecord<unknown>): SimulationJobView {
  return {
    job_id: job.id,
    status: job.status,
    progress_pct: job.progressPct,
    error: job.error,
    ...(job.status === "done" && job.result ? { result: job.result } : {}),
    ...(job.resultDropped ? { result_dropped: true as const } : {}),
  };
}
