/**
 * What every job engine offers, whatever keeps its queue: the in-process one (`job_queue.ts`)
 * today, one across machines next. A service's work function, its events and its status words
 * stay the same whichever runs them.
 */
import type { Job } from "./job.ts";

/** What the work of a job can do besides computing its result. */
export interface WorkContext<Event> {
  readonly id: string;
  /** Aborted when the job is cancelled or the service stops. */
  readonly signal: AbortSignal;
  /** Whether the job still runs: false once it was cancelled or is ending. */
  live(): boolean;
  /** Appends an event to the job's log while it runs (ignored after). */
  emit(event: Event): void;
  /** Names the step the job is at, for the service's status word. */
  stage(name: string): void;
}

/** The work of one job: its result, or a throw that fails the job. */
export type JobWork<Input, Result, Event> = (
  input: Input,
  context: WorkContext<Event>,
) => Promise<Result>;

/** Why a job was not taken. */
export type JobRefusal = "closed" | "full" | "weight";

/** A submission refused: the engine stops, or the queue is full (by count or by weight). */
export class JobRefusedError extends Error {
  constructor(readonly reason: JobRefusal) {
    super(
      reason === "closed"
        ? "The service is stopping: no new jobs are taken"
        : `The job queue is full (${reason === "full" ? "jobs" : "weight"} waiting)`,
    );
    this.name = "JobRefusedError";
  }
}

/** The failure of a job failed by its service's stop. */
export class JobStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JobStoppedError";
  }
}

/** What a cancel did. */
export type JobCancelOutcome<J> =
  | { readonly outcome: "cancelled"; readonly job: J; readonly ended: Promise<void> }
  | { readonly outcome: "finished"; readonly job: J }
  | { readonly outcome: "unknown" };

/** How `close` ends the jobs still there. */
export interface CloseOptions {
  /** Queued jobs: cancelled (default), or failed with `error`. */
  readonly queued?: "cancel" | "fail";
  /**
   * Running jobs: cancelled (default); failed at once with `error` and aborted (`fail`: their
   * failure is a JobStoppedError); their signal aborted so that the work fails by itself
   * (`abort`); or left to finish (`finish`), aborted only after `graceMs`.
   */
  readonly running?: "cancel" | "fail" | "abort" | "finish";
  /** The error of the jobs failed by the stop. */
  readonly error?: string;
  /** With `running: "finish"`, how long to wait before aborting them, ms (default no limit). */
  readonly graceMs?: number;
}

/** The methods every job engine offers (the in-process one, or one across machines). */
export interface JobEngine<Input, Result, Event> {
  refusal(weight?: number): JobRefusal | undefined;
  submit(
    input: Input,
    accepted?: (job: Job<Input, Result, Event>) => void,
  ): Job<Input, Result, Event>;
  get(id: string): Job<Input, Result, Event> | undefined;
  cancel(id: string): JobCancelOutcome<Job<Input, Result, Event>>;
  counts(): { queued: number; running: number };
  recover(): Promise<number>;
  close(options?: CloseOptions): Promise<void>;
}

/** Reads `.message` of anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
