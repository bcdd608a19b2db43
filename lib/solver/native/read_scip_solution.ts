/**
 * Reads SCIP's solution file (`write solution FILE` in its shell; SCIP documentation, shell
 * command `write solution`, as written by SCIPprintSol): `solution status: TEXT`,
 * `objective value: V`, then `name value (obj:c)` for each variable that is not zero; with no
 * solution, `no solution available`. SCIP gives no LP duals here.
 */
import type { Termination } from "../solve_types.ts";
import type { NativeSolution } from "./native_solution.ts";
import { parseNumber } from "./native_solution.ts";

/** SCIP's status text (SCIPstatusName-like, as the shell prints it) to Termination. */
export function scipTermination(status: string): Termination {
  const s = status.toLowerCase();
  if (s.startsWith("optimal")) return "optimal";
  // A requested gap reached is optimal as HiGHS counts it.
  if (s.startsWith("gap limit")) return "optimal";
  if (s.startsWith("infeasible or unbounded")) return "infeasible_or_unbounded";
  if (s.startsWith("infeasible")) return "infeasible";
  if (s.startsWith("unbounded")) return "unbounded";
  if (s.startsWith("time limit")) return "time_limit";
  if (s.startsWith("user interrupt") || s.startsWith("terminate")) return "interrupted";
  if (s.includes("node limit")) return "iteration_limit";
  return "error";
}

/** Reads `text`; `mip`: a MIP stopped by a limit keeps its incumbent. */
export function readScipSolution(text: string, mip: boolean): NativeSolution {
  const status = /^solution status:\s*(.+)$/im.exec(text)?.[1]?.trim() ?? "no status";
  const termination = scipTermination(status);
  const available = !/no solution available/i.test(text) &&
    /^objective value:/im.test(text);
  const hasSolution = available &&
    (termination === "optimal" || (mip && termination !== "error" &&
      termination !== "infeasible"));
  if (!hasSolution) return { termination, status };
  const colValues = new Map<string, number>();
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t === "" || /^(solution status|objective value):/i.test(t)) continue;
    const m = /^(\S+)\s+(\S+)/.exec(t);
    if (m) colValues.set(m[1]!, parseNumber(m[2]!));
  }
  return { termination, status, colValues, sparse: true };
}
