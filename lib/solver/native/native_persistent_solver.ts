/**
 * The PersistentLpSolver seam over a command-line solver, so that operate mode's windows run on
 * it too: a solver process keeps nothing between calls, so every solve writes and solves the
 * whole LP anew (stats mode "built").
 */
import type { PersistentLpSolver } from "../persistent_lp.ts";
import type { FoundSolver } from "./native_solvers.ts";
import { type NativeSolveSettings, solveNative } from "./solve_native.ts";

/** A PersistentLpSolver whose every solve is a whole solveNative on `found`. */
export function createNativePersistentSolver(
  found: FoundSolver,
  settings: NativeSolveSettings = {},
): PersistentLpSolver {
  return {
    async solve(lp, options, hooks) {
      const started = performance.now();
      const outcome = await solveNative(found, lp, options, hooks, settings);
      return {
        outcome,
        stats: {
          mode: "built",
          // The LP file is written inside the solve; its time is in the log line it writes.
          loadMs: Math.max(0, performance.now() - started - outcome.solveMs),
          changedCosts: 0,
          changedColBounds: 0,
          changedRowBounds: 0,
          changedCoefficients: 0,
        },
      };
    },
    dispose() {},
  };
}
