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
  /**
   * The objective that was optimised, as Calliope's `objective_function_value`: cost classes
   * weighted by `objective_options.cost_class`, plus the bigM penalty on unmet demand (minus it
   * when maximising); 1 for check_feasibility. Null without a solution. The unweighted Σ cost
   * is `cost_sum_unweighted`.
   */
  readonly objective: number | null;
  readonly [key: string]: unknown;
}
