/** HiGHS model status codes (`highs.constants.modelStatus`) mapped to a solve's Termination. */
import type { Termination } from "./solve_types.ts";

/** HiGHS's own text for each model status (HiGHS `modelStatusToString`), by status code. */
const STATUS_TEXT: readonly string[] = [
  "Not Set",
  "Load error",
  "Model error",
  "Presolve error",
  "Solve error",
  "Postsolve error",
  "Empty",
  "Optimal",
  "Infeasible",
  "Primal infeasible or unbounded",
  "Unbounded",
  "Bound on objective reached",
  "Target for objective reached",
  "Time limit reached",
  "Iteration limit reached",
  "Unknown",
  "Solution limit reached",
  "Interrupted by user",
];

/** HiGHS's text for a model status code, e.g. 7 -> "Optimal". */
export function modelStatusText(code: number): string {
  return STATUS_TEXT[code] ?? `Model status ${code}`;
}

/**
 * The Termination of a HiGHS model status code. An empty model counts as optimal (nothing to
 * decide); the objective-bound, target and solution-limit stops are MIP or option-driven and
 * never requested by the runner, so they are reported as errors rather than silently as optimal.
 */
export function terminationOf(code: number): Termination {
  switch (code) {
    case 6:
    case 7:
      return "optimal";
    case 8:
      return "infeasible";
    case 9:
      return "infeasible_or_unbounded";
    case 10:
      return "unbounded";
    case 13:
      return "time_limit";
    case 14:
      return "iteration_limit";
    case 17:
      return "interrupted";
    default:
      return "error";
  }
}
