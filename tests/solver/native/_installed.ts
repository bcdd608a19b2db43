/** Which command-line solvers this machine has, for tests that skip those it lacks. */
import { findNativeSolvers } from "../../../lib/solver/native/find_native_solvers.ts";
import type { FoundSolver } from "../../../lib/solver/native/native_solvers.ts";
import type { CommandLineSolver } from "../../../lib/solver/solver_names.ts";

const found = await findNativeSolvers();

/** The found solver `name`, or undefined (the test is then ignored). */
export function installed(name: CommandLineSolver): FoundSolver | undefined {
  return found.find((f) => f.name === name);
}

/** The name of a test of `name`, saying when it is skipped because the solver is missing. */
export function testName(name: CommandLineSolver, what: string): string {
  return installed(name) === undefined ? `${what} [SKIPPED: ${name} not installed]` : what;
}

/** The solvers CI installs (Debian coinor-cbc, coinor-clp, glpk-utils). */
export const CI_SOLVERS = ["cbc", "clp", "glpk"] as const;
