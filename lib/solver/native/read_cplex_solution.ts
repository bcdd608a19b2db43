/**
 * Reads CPLEX's XML solution file (`write FILE.sol` in the interactive optimizer; CPLEX
 * documentation "SOL file format: solution files"): a `<header>` whose attributes give
 * `solutionStatusValue`/`solutionStatusString`, `MIPRelativeGap` and `simplexIterations`, then
 * `<constraint name=… dual=…/>` and `<variable name=… value=…/>` elements.
 */
import type { Termination } from "../solve_types.ts";
import type { NativeSolution } from "./native_solution.ts";
import { lastMatch, parseNumber } from "./native_solution.ts";

/** CPLEX solution status codes (CPX_STAT_*, CPXMIP_*) to Termination and "has a solution". */
function cplexTermination(code: number): [Termination, boolean] {
  switch (code) {
    case 1: // CPX_STAT_OPTIMAL
    case 101: // CPXMIP_OPTIMAL
    case 102: // CPXMIP_OPTIMAL_TOL
      return ["optimal", true];
    case 2: // CPX_STAT_UNBOUNDED
    case 118: // CPXMIP_UNBOUNDED
      return ["unbounded", false];
    case 3: // CPX_STAT_INFEASIBLE
    case 103: // CPXMIP_INFEASIBLE
      return ["infeasible", false];
    case 4: // CPX_STAT_INForUNBD
    case 119: // CPXMIP_INForUNBD
      return ["infeasible_or_unbounded", false];
    case 11: // CPX_STAT_ABORT_TIME_LIM
      return ["time_limit", false];
    case 107: // CPXMIP_TIME_LIM_FEAS
      return ["time_limit", true];
    case 108: // CPXMIP_TIME_LIM_INFEAS
      return ["time_limit", false];
    case 10: // CPX_STAT_ABORT_IT_LIM
      return ["iteration_limit", false];
    case 13: // CPX_STAT_ABORT_USER
    case 113: // CPXMIP_ABORT_FEAS
      return ["interrupted", code === 113];
    default:
      return ["error", false];
  }
}

/** `name="value"` attributes of one XML element's text. */
function attributes(element: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of element.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g)) {
    out.set(
      m[1]!,
      m[2]!.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'").replace(/&amp;/g, "&"),
    );
  }
  return out;
}

/** Reads the XML text; `mip`: no duals are taken. */
export function readCplexSolution(text: string, mip: boolean): NativeSolution {
  const header = attributes(/<header\b([^>]*)>/s.exec(text)?.[1] ?? "");
  const code = Number(header.get("solutionStatusValue") ?? NaN);
  const status = header.get("solutionStatusString") ?? `status ${code}`;
  const [termination, hasSolution] = cplexTermination(code);
  if (!hasSolution) return { termination, status };
  const colValues = new Map<string, number>();
  for (const m of text.matchAll(/<variable\b([^>]*)\/?>/g)) {
    const a = attributes(m[1]!);
    const name = a.get("name");
    if (name !== undefined) colValues.set(name, parseNumber(a.get("value") ?? "0"));
  }
  const rowDuals = new Map<string, number>();
  for (const m of text.matchAll(/<constraint\b([^>]*)\/?>/g)) {
    const a = attributes(m[1]!);
    const name = a.get("name");
    const dual = a.get("dual");
    if (name !== undefined && dual !== undefined) rowDuals.set(name, parseNumber(dual));
  }
  const gap = Number(header.get("MIPRelativeGap") ?? NaN);
  const iterations = Number(header.get("simplexIterations") ?? header.get("barrierIterations"));
  return {
    termination,
    status,
    colValues,
    ...(mip || rowDuals.size === 0 ? {} : { rowDuals }),
    ...(Number.isFinite(iterations) ? { iterations } : {}),
    ...(mip && Number.isFinite(gap) ? { mipGap: gap } : {}),
  };
}

/** The Termination the interactive optimizer's log states when it wrote no solution file. */
export function cplexLogTermination(log: readonly string[]): [Termination, string] {
  const m = lastMatch(
    log,
    /(Integer infeasible or unbounded|Infeasible or unbounded|Integer infeasible|Infeasible|Unbounded|Integer unbounded|Time limit exceeded|Aborted)/i,
  );
  const text = m?.[1] ?? "No status in the log";
  const t = text.toLowerCase();
  const termination: Termination = t.includes("or unbounded")
    ? "infeasible_or_unbounded"
    : t.includes("infeasible")
    ? "infeasible"
    : t.includes("unbounded")
    ? "unbounded"
    : t.includes("time limit")
    ? "time_limit"
    : t.includes("aborted")
    ? "interrupted"
    : "error";
  return [termination, text];
}
