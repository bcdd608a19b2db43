/**
 * Reads glpsol's plain-text solution (`--write FILE`; GLPK 5.0 reference manual, "Writing
 * basic/MIP solution in plain text format", glp_write_sol/glp_write_mip): `c` comment lines, a
 * status line `s bas ROWS COLS PRIM DUAL OBJ` (simplex) or `s mip ROWS COLS STAT OBJ`, then
 * `i ROW ...` and `j COL ...` lines numbered as the rows and columns were read (no names).
 * Run with `--nopresol`: with the LP presolver on, glpsol leaves the status undefined when it
 * finds the LP infeasible or unbounded.
 */
import type { Termination } from "../solve_types.ts";
import type { NativeSolution } from "./native_solution.ts";
import { lastMatch, parseNumber } from "./native_solution.ts";

/**
 * Reads `text`; `log`: glpsol's output, which alone tells that it stopped on its time limit
 * ("TIME LIMIT EXCEEDED") or at the requested MIP gap ("RELATIVE MIP GAP TOLERANCE REACHED").
 */
export function readGlpkSolution(text: string, log: readonly string[]): NativeSolution {
  const timeLimitHit = lastMatch(log, /TIME LIMIT EXCEEDED/) !== undefined;
  const gapReached = lastMatch(log, /MIP GAP TOLERANCE REACHED/) !== undefined;
  let kind = "";
  let flags: string[] = [];
  let rows = 0;
  let cols = 0;
  let rowDual: Float64Array | undefined;
  let colValue: Float64Array | undefined;
  for (const line of text.split("\n")) {
    const t = line.trim().split(/\s+/);
    if (t[0] === "s") {
      kind = t[1] ?? "";
      rows = Number(t[2]);
      cols = Number(t[3]);
      flags = kind === "mip" ? [t[4] ?? "u"] : [t[4] ?? "u", t[5] ?? "u"];
      colValue = new Float64Array(cols);
      rowDual = new Float64Array(rows);
    } else if (t[0] === "i" && rowDual) {
      // Simplex: i ROW STAT PRIM DUAL; MIP: i ROW VALUE (no dual).
      if (kind !== "mip") rowDual[Number(t[1]) - 1] = parseNumber(t[4] ?? "0");
    } else if (t[0] === "j" && colValue) {
      colValue[Number(t[1]) - 1] = parseNumber(kind === "mip" ? t[2]! : t[3]!);
    }
  }
  if (kind === "") return { termination: "error", status: "No solution file", message: text };
  let termination: Termination;
  let status: string;
  let feasible: boolean;
  if (kind === "mip") {
    const s = flags[0];
    feasible = s === "o" || s === "f";
    status = gapReached
      ? "Relative MIP gap tolerance reached"
      : { o: "Integer optimal", f: "Integer feasible", n: "No integer feasible" }[s ?? ""] ??
        "Undefined";
    termination = timeLimitHit
      ? "time_limit"
      : s === "o" || (s === "f" && gapReached)
      ? "optimal"
      : s === "n"
      ? "infeasible"
      : "error";
  } else {
    const [p, d] = flags;
    feasible = p === "f" && d === "f";
    termination = timeLimitHit
      ? "time_limit"
      : feasible
      ? "optimal"
      : p === "n"
      ? "infeasible"
      : p === "f" && d === "n"
      ? "unbounded"
      : d === "n"
      ? "infeasible_or_unbounded"
      : "error";
    status = {
      optimal: "Optimal",
      infeasible: "No primal feasible solution",
      unbounded: "Unbounded primal solution",
      infeasible_or_unbounded: "No dual feasible solution",
      time_limit: "Time limit exceeded",
    }[termination as string] ?? `Undefined (primal ${p}, dual ${d})`;
    // An LP stopped by its limit has no solution to give (as HiGHS reports it).
    if (timeLimitHit) feasible = false;
  }
  if (termination === "time_limit" && kind !== "mip") feasible = false;
  if (!feasible || colValue === undefined) return { termination, status };
  return {
    termination,
    status,
    colValues: colValue,
    ...(kind === "mip" || rowDual === undefined ? {} : { rowDuals: rowDual }),
  };
}
