/**
 * Solving on the calling thread, for notebooks, the CLI and tests. The solve blocks the event
 * loop while it runs, so an AbortSignal stops it only if it is aborted before the solve starts
 * or from inside a hook (onLog); the service solves in a Worker (solve_in_worker.ts) instead.
 */
import type { LinearProgram } from "../lp/linear_program.ts";
import { loadHighsOnce } from "./highs_loader.ts";
import { solveLp } from "./solve_lp.ts";
import type { SolveHooks, SolveOptions, SolveOutcome } from "./solve_types.ts";

/**
 * Solves `lp` with HiGHS on this thread (HiGHS is loaded once per realm).
 */
export async function solveInProcess(
  lp: LinearProgram,
  options: SolveOptions = {},
  hooks: SolveHooks = {},
): Promise<SolveOutcome> {
  const highs = await loadHighsOnce();
  const signal = hooks.signal;
  return solveLp(highs, lp, options, {
    ...hooks,
    shouldStop: () => signal?.aborted === true,
  });
}
