/**
 * Reads the solution file of cbc and clp (COIN-OR), written by `printingOptions all` then
 * `solve` and `solu FILE` (format: CbcSolver.cpp / ClpMain.cpp, command `solution`): a status
 * line such as `Optimal - objective value 5`, then one line per row
 * `index name activity dual`, then one per column `index name value reducedCost`; a line of
 * a value outside its bounds starts with `**`.
 */
import type { Termination } from "../solve_types.ts";
import type { NativeSolution } from "./native_solution.ts";
import { parseNumber } from "./native_solution.ts";

/** The Termination of a cbc/clp status text, and whether its values are a solution. */
export function coinTermination(status: string, mip: boolean): [Termination, boolean] {
  const s = status.toLowerCase();
  if (s.startsWith("optimal")) return ["optimal", true];
  // A MIP stopped at the requested gap is optimal as HiGHS counts it (mip_rel_gap reached).
  if (s.startsWith("stopped on gap")) return ["optimal", true];
  if (s.includes("no integer solution")) return ["time_limit", false];
  if (s.startsWith("stopped on time") || s.startsWith("stopped on iterations or time")) {
    // A MIP's values are its incumbent; an LP stopped early has no feasible point to give.
    return ["time_limit", mip];
  }
  if (s.startsWith("stopped on iterations")) return ["iteration_limit", mip];
  if (s.includes("ctrl-c")) return ["interrupted", mip];
  if (s.includes("unbounded")) return ["unbounded", false];
  if (s.includes("infeasible")) return ["infeasible", false];
  return ["error", false];
}

/**
 * Reads `text`; `fileRows` rows come first (their duals by name), then the columns. `mip`:
 * the LP was a MIP (no duals; a time limit leaves the incumbent). `log`: the solver's output,
 * which tells a time limit where the file of an LP says only "Stopped on iterations".
 */
export function readCoinSolution(
  text: string,
  fileRows: number,
  mip: boolean,
  log: readonly string[] = [],
): NativeSolution {
  const lines = text.split("\n");
  const head = lines[0]?.trim() ?? "";
  const status = head.replace(/\s*-\s*objective value.*$/i, "").trim() || "No solution";
  const [said, hasSolution] = coinTermination(status, mip);
  const termination = said === "iteration_limit" && log.some((l) => /stopped on time/i.test(l))
    ? "time_limit"
    : said;
  if (!hasSolution) return { termination, status };
  const colValues = new Map<string, number>();
  const rowDuals = new Map<string, number>();
  let k = 0;
  for (let i = 1; i < lines.length; i++) {
    const tokens = lines[i]!.trim().split(/\s+/);
    if (tokens[0]?.startsWith("**")) tokens.shift();
    if (tokens.length < 3) continue;
    const name = tokens[1]!;
    if (k < fileRows) rowDuals.set(name, parseNumber(tokens[3] ?? "0"));
    else colValues.set(name, parseNumber(tokens[2]!));
    k++;
  }
  return { termination, status, colValues, ...(mip ? {} : { rowDuals }) };
}
