/**
 * The solver names a model, a run request or an operator may give, read into the runner's own:
 * `highs` (the built-in WebAssembly HiGHS) or one of the command-line solvers. Calliope models
 * name their solver as Pyomo does (`appsi_highs`, `gurobi_persistent`, `glpk`), the frontend
 * sends `highs`: each is read as the solver it runs.
 */

/** The built-in solver: WebAssembly HiGHS, always there. */
export const BUILT_IN_SOLVER = "highs";

/** The command-line solvers the runner can drive, by the runner's name. */
export const COMMAND_LINE_SOLVERS = [
  "cbc",
  "clp",
  "glpk",
  "highs_native",
  "gurobi",
  "cplex",
  "scip",
] as const;

/** A command-line solver's name. */
export type CommandLineSolver = typeof COMMAND_LINE_SOLVERS[number];

/** Every name the runner answers to. */
export type SolverName = typeof BUILT_IN_SOLVER | CommandLineSolver;

/** Other spellings of the same solvers (Pyomo's interface names, binaries). */
const ALIASES: Readonly<Record<string, SolverName>> = {
  appsi_highs: "highs",
  highs_direct: "highs",
  highs_wasm: "highs",
  glpsol: "glpk",
  highs_cli: "highs_native",
  gurobi_cl: "gurobi",
  gurobi_direct: "gurobi",
  gurobi_persistent: "gurobi",
  cplex_direct: "cplex",
  cplex_persistent: "cplex",
  scipampl: "scip",
};

/** The runner's name for `raw` (case and surrounding spaces ignored), or undefined if unknown. */
export function solverNameOf(raw: string): SolverName | undefined {
  const name = raw.trim().toLowerCase();
  if (name === BUILT_IN_SOLVER) return BUILT_IN_SOLVER;
  if ((COMMAND_LINE_SOLVERS as readonly string[]).includes(name)) return name as SolverName;
  return ALIASES[name];
}
