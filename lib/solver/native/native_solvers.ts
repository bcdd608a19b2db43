/**
 * The command-line solvers the runner can drive through an LP file, by the runner's name
 * (lib/solver/solver_names.ts): the binary looked for on PATH, what it can solve and answer.
 */
import type { CommandLineSolver } from "../solver_names.ts";

/** What the runner knows of one command-line solver before looking for it. */
export interface NativeSolverSpec {
  readonly name: CommandLineSolver;
  /** Executable looked for on PATH. */
  readonly binary: string;
  /** Shown in results, e.g. "CBC" in "CBC 2.10.8 (native)". */
  readonly label: string;
  /** Solves MIPs (clp is an LP solver only). */
  readonly mip: boolean;
  /** Its solution file carries an LP's row duals (SCIP's does not). */
  readonly duals: boolean;
  /** Arguments that make it print its version and exit. */
  readonly versionArgs: readonly string[];
}

/** Every command-line solver, in the order /health lists them. */
export const NATIVE_SOLVERS: Readonly<Record<CommandLineSolver, NativeSolverSpec>> = {
  cbc: { name: "cbc", binary: "cbc", label: "CBC", mip: true, duals: true, versionArgs: ["-stop"] },
  clp: {
    name: "clp",
    binary: "clp",
    label: "Clp",
    mip: false,
    duals: true,
    versionArgs: ["-stop"],
  },
  glpk: {
    name: "glpk",
    binary: "glpsol",
    label: "GLPK",
    mip: true,
    duals: true,
    versionArgs: ["--version"],
  },
  highs_native: {
    name: "highs_native",
    binary: "highs",
    label: "HiGHS",
    mip: true,
    duals: true,
    versionArgs: ["--version"],
  },
  gurobi: {
    name: "gurobi",
    binary: "gurobi_cl",
    label: "Gurobi",
    mip: true,
    duals: true,
    versionArgs: ["--version"],
  },
  cplex: {
    name: "cplex",
    binary: "cplex",
    label: "CPLEX",
    mip: true,
    duals: true,
    versionArgs: ["-c", "quit"],
  },
  scip: {
    name: "scip",
    binary: "scip",
    label: "SCIP",
    mip: true,
    duals: false,
    versionArgs: ["--version"],
  },
};

/** A solver found on this machine. */
export interface FoundSolver {
  readonly name: CommandLineSolver;
  /** Absolute path of its binary. */
  readonly path: string;
  /** Its version as it prints it, e.g. "2.10.8"; "unknown" when it printed none. */
  readonly version: string;
  /** e.g. "CBC 2.10.8 (native)": the `solver` of its outcomes. */
  readonly description: string;
}
