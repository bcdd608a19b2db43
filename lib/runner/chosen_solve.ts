/**
 * The solve function of a run on its chosen solver. A command-line solver gets each LP through
 * its LP file (lib/solver/native/); one that solves LPs only (clp) hands a MIP to the built-in
 * HiGHS, with a warning, rather than fail a model that Calliope would run on another solver.
 */
import type { LinearProgram } from "../lp/linear_program.ts";
import { solveNative } from "../solver/native/solve_native.ts";
import { NATIVE_SOLVERS } from "../solver/native/native_solvers.ts";
import type { SolveLp } from "./solve_model.ts";
import type { SolverChoice } from "./solver_choice.ts";
import { BUILT_IN_SOLVER } from "../solver/solver_names.ts";

/** A solve function, and the warnings it gathers while the run goes on. */
export interface ChosenSolve {
  readonly solve: SolveLp;
  /** Filled as solves happen: for the result's `warnings` (each once). */
  readonly warnings: string[];
}

function isMip(lp: LinearProgram): boolean {
  return lp.integrality !== undefined && lp.integrality.some((v) => v !== 0);
}

/** `builtIn` for the built-in solver; the command-line solver's otherwise. */
export function chosenSolve(
  choice: SolverChoice,
  builtIn: SolveLp,
  log: (line: string) => void,
): ChosenSolve {
  const warnings: string[] = [];
  const chosen = choice.solver;
  if (chosen.kind === "built_in") return { solve: builtIn, warnings };
  let announced = false;
  const solve: SolveLp = (lp, options, hooks) => {
    if (isMip(lp) && !NATIVE_SOLVERS[chosen.name].mip) {
      const warning = `${chosen.name} solves linear programs only: this MILP runs on the ` +
        `built-in ${BUILT_IN_SOLVER}`;
      if (!warnings.includes(warning)) {
        warnings.push(warning);
        log(`[runner] warning: ${warning}`);
      }
      return builtIn(lp, options, hooks);
    }
    if (!announced) {
      announced = true;
      log(`[runner] solver: ${chosen.found.description} at ${chosen.found.path}`);
    }
    const { onSpawn, ...solveHooks } = hooks;
    return solveNative(chosen.found, lp, options, solveHooks, onSpawn ? { onStart: onSpawn } : {});
  };
  return { solve, warnings };
}
