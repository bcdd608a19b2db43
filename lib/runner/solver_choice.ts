/**
 * Which solver a run uses: the one the model or the run names (`parameters.solver.name`, from
 * Calliope's `run.solver`, the frontend's `solver`, `model-run --solver`, `RUNNER_SOLVER`) when
 * this machine has it, else the built-in HiGHS with a warning saying why: Calliope's example
 * models name `cbc`, and a model must not fail on a machine that lacks it. The command-line
 * solvers are looked for only when one is named.
 */
import type { FoundSolver } from "../solver/native/native_solvers.ts";
import { findNativeSolver } from "../solver/native/find_native_solvers.ts";
import {
  BUILT_IN_SOLVER,
  COMMAND_LINE_SOLVERS,
  type CommandLineSolver,
  solverNameOf,
} from "../solver/solver_names.ts";

/** The solver a run uses, and what the modeller should hear about the choice. */
export interface SolverChoice {
  /** The built-in HiGHS, or the command-line solver found. */
  readonly solver: { readonly kind: "built_in" } | {
    readonly kind: "command_line";
    readonly name: CommandLineSolver;
    readonly found: FoundSolver;
  };
  /** Why the named solver is not the one that runs (for the log and the result). */
  readonly warnings: readonly string[];
}

/** Finds one command-line solver on this machine (undefined: not installed). */
export type FindSolver = (name: CommandLineSolver) => Promise<FoundSolver | undefined>;

const BUILT_IN: SolverChoice = { solver: { kind: "built_in" }, warnings: [] };

/** The solver for a run that asks for `requested` (undefined: the default, highs). */
export async function chooseSolver(
  requested: string | undefined,
  find: FindSolver = findNativeSolver,
): Promise<SolverChoice> {
  if (requested === undefined) return BUILT_IN;
  const name = solverNameOf(requested);
  if (name === BUILT_IN_SOLVER) return BUILT_IN;
  if (name === undefined) {
    return fallback(
      `solver "${requested}" is not one the runner can drive ` +
        `(${[BUILT_IN_SOLVER, ...COMMAND_LINE_SOLVERS].join(", ")})`,
    );
  }
  const found = await find(name);
  if (found === undefined) {
    return fallback(`solver "${requested}" is not installed on this runner`);
  }
  return { solver: { kind: "command_line", name, found }, warnings: [] };
}

function fallback(why: string): SolverChoice {
  return {
    solver: { kind: "built_in" },
    warnings: [`${why}: the model runs on the built-in ${BUILT_IN_SOLVER}`],
  };
}
