/**
 * Where a service keeps its jobs beyond the engine's memory: nothing (the runner, the
 * simulations), or its own DuckDB state (the backend, the extraction). The engine writes every
 * acceptance and every move through it, in order, before the move is visible anywhere else; a
 * store that answers at once (no promise) keeps the engine synchronous.
 */
import type { Job } from "./job.ts";
import type { JobState } from "./job_states.ts";

/** What became of a job a stopped process left queued or running. */
export interface RestartRule {
  readonly state: "failed" | "cancelled";
  readonly error: string;
}

/** A job's persistence. */
export interface JobStore<Input, Result, Event> {
  /** Records a job just accepted (its state `queued`). */
  insert(job: Job<Input, Result, Event>): void | Promise<void>;
  /**
   * Records the move of `job` to `to`; the job still shows its previous state, and `patch` holds
   * what the move sets (times, result, error).
   */
  move(
    job: Job<Input, Result, Event>,
    to: JobState,
    patch: JobMovePatch<Result>,
  ): void | Promise<void>;
  /**
   * Ends, by `rule`, the jobs a previous process left queued or running (they will never run);
   * answers how many.
   */
  recover?(rule: RestartRule): Promise<number>;
}

/** What a move sets. */
export interface JobMovePatch<Result> {
  readonly at: number;
  readonly result?: Result;
  readonly error?: string;
  readonly failure?: unknown;
}

/** The store of a service whose jobs live in memory only: writes nothing, answers at once. */
export function memoryJobStore<Input, Result, Event>(): JobStore<Input, Result, Event> {
  return { insert() {}, move() {} };
}
