/**
 * Reads Gurobi's result files written by `gurobi_cl ResultFile=FILE` (Gurobi reference manual,
 * "File Formats": "SOL format" and "JSON solution format"). The JSON one carries the status code
 * (`SolutionInfo.Status`, Gurobi's "Optimization Status Codes") and, with `JSONSolDetail=1`,
 * every variable's `X` and every constraint's dual `Pi`; the .sol one only nonzero-or-all
 * `name value` lines after `# Objective value = V`, its status then read from the log.
 */
import type { Termination } from "../solve_types.ts";
import type { NativeSolution } from "./native_solution.ts";
import { lastMatch, parseNumber } from "./native_solution.ts";

/** Gurobi's status codes (GRB.Status) with their names and Termination. */
const STATUS: Readonly<Record<number, [string, Termination]>> = {
  1: ["LOADED", "error"],
  2: ["OPTIMAL", "optimal"],
  3: ["INFEASIBLE", "infeasible"],
  4: ["INF_OR_UNBD", "infeasible_or_unbounded"],
  5: ["UNBOUNDED", "unbounded"],
  6: ["CUTOFF", "error"],
  7: ["ITERATION_LIMIT", "iteration_limit"],
  8: ["NODE_LIMIT", "iteration_limit"],
  9: ["TIME_LIMIT", "time_limit"],
  10: ["SOLUTION_LIMIT", "error"],
  11: ["INTERRUPTED", "interrupted"],
  12: ["NUMERIC", "error"],
  13: ["SUBOPTIMAL", "error"],
  14: ["INPROGRESS", "error"],
  15: ["USER_OBJ_LIMIT", "error"],
  16: ["WORK_LIMIT", "time_limit"],
  17: ["MEM_LIMIT", "error"],
};

interface GurobiJson {
  SolutionInfo?: {
    Status?: number;
    SolCount?: number;
    MIPGap?: number;
    ObjBound?: number;
    IterCount?: number;
  };
  Vars?: { VarName?: string; X?: number }[];
  Constrs?: { ConstrName?: string; Pi?: number }[];
}

/** Reads a JSON result file; `mip`: no duals are taken. */
export function readGurobiJson(text: string, mip: boolean): NativeSolution {
  const json = JSON.parse(text) as GurobiJson;
  const info = json.SolutionInfo ?? {};
  const [status, termination] = STATUS[info.Status ?? 0] ?? [`status ${info.Status}`, "error"];
  const hasSolution = (info.SolCount ?? 0) > 0 &&
    (termination === "optimal" || (mip && termination !== "error"));
  if (!hasSolution) return { termination, status };
  const colValues = new Map<string, number>();
  for (const v of json.Vars ?? []) {
    if (v.VarName !== undefined) colValues.set(v.VarName, v.X ?? 0);
  }
  const rowDuals = new Map<string, number>();
  for (const c of json.Constrs ?? []) {
    if (c.ConstrName !== undefined && c.Pi !== undefined) rowDuals.set(c.ConstrName, c.Pi);
  }
  return {
    termination,
    status,
    colValues,
    // Variables at zero may be left out.
    sparse: true,
    ...(mip || rowDuals.size === 0 ? {} : { rowDuals }),
    ...(info.IterCount === undefined ? {} : { iterations: info.IterCount }),
    ...(mip && Number.isFinite(info.MIPGap) ? { mipGap: info.MIPGap! } : {}),
    ...(mip && Number.isFinite(info.ObjBound) ? { mipDualBound: info.ObjBound! } : {}),
  };
}

/** The Termination gurobi_cl's log ends with (no result file is written without a solution). */
export function gurobiLogTermination(log: readonly string[]): [Termination, string] {
  const m = lastMatch(
    log,
    /^(Optimal solution found|Optimal objective|Infeasible or unbounded model|Infeasible model|Unbounded model|Time limit reached|Solve interrupted|Iteration limit reached)/i,
  );
  const text = m?.[1] ?? "No status in the log";
  const t = text.toLowerCase();
  const termination: Termination = t.startsWith("optimal")
    ? "optimal"
    : t.startsWith("infeasible or")
    ? "infeasible_or_unbounded"
    : t.startsWith("infeasible")
    ? "infeasible"
    : t.startsWith("unbounded")
    ? "unbounded"
    : t.startsWith("time")
    ? "time_limit"
    : t.startsWith("solve interrupted")
    ? "interrupted"
    : t.startsWith("iteration")
    ? "iteration_limit"
    : "error";
  return [termination, text];
}

/** Reads a .sol result file (primal only); the status comes from `log`. */
export function readGurobiSol(text: string, log: readonly string[], mip: boolean): NativeSolution {
  const [termination, status] = gurobiLogTermination(log);
  if (!(termination === "optimal" || (mip && termination !== "error"))) {
    return { termination, status };
  }
  const colValues = new Map<string, number>();
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t === "" || t.startsWith("#")) continue;
    const [name, value] = t.split(/\s+/);
    if (name !== undefined && value !== undefined) colValues.set(name, parseNumber(value));
  }
  return { termination, status, colValues, sparse: true };
}
