/**
 * The result JSON of a run, as `readResults` makes it; the runner's seam returns it and the
 * services keep and serve it.
 */
import type { Termination } from "../solver/solve_types.ts";

/**
 * The result JSON of a run (issue 9 section 5): columnar tables plus the keys the frontend's
 * result views read. Only the members the service itself reads are typed here.
 */
export interface RunResult {
  readonly success: boolean;
  readonly termination: Termination;
  readonly termination_condition: string;
  /** Σ cost over every cost class, without the unmet-demand penalty; null without a solution. */
  readonly objective: number | null;
  readonly [key: string]: unknown;
}
