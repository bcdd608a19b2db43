/** Solves a LinearProgram in-process with HiGHS (npm `highs`) for tests. */
import highsDefault from "highs";
import type { LinearProgram } from "../../lib/lp/linear_program.ts";
import type { SolveOutcome, Termination } from "../../lib/solver/solve_types.ts";

// Deno runs the ESM build (default export = loader) but type-checks the CommonJS types.
const loadHighs = highsDefault as unknown as (typeof highsDefault)["default"];
const highs = await loadHighs();

function finite(a: Float64Array): Float64Array {
  // HiGHS treats |bound| ≥ 1e20 as infinite; its `infinity` is IEEE Infinity, map anyway.
  return a.map((v) => v === Infinity ? highs.infinity : v === -Infinity ? -highs.infinity : v);
}

const STATUS: Record<number, Termination> = {
  7: "optimal",
  8: "infeasible",
  9: "infeasible_or_unbounded",
  10: "unbounded",
  13: "time_limit",
  14: "iteration_limit",
};

/** Solves `lp` with HiGHS and reports it as a SolveOutcome. */
export function solve(lp: LinearProgram): SolveOutcome {
  const t0 = performance.now();
  const m = highs.createModel({
    numCols: lp.numCols,
    numRows: lp.numRows,
    offset: lp.offset,
    colCost: lp.colCost,
    colLower: finite(lp.colLower),
    colUpper: finite(lp.colUpper),
    rowLower: finite(lp.rowLower),
    rowUpper: finite(lp.rowUpper),
    matrix: lp.matrix,
  });
  try {
    m.options.set({ output_flag: false });
    const run = m.run();
    const termination = STATUS[run.modelStatus] ?? "error";
    const sol = termination === "optimal" ? m.getSolution() : undefined;
    return {
      termination,
      status: String(run.modelStatus),
      objective: sol ? m.getObjectiveValue() : null,
      colValue: sol ? sol.colValue : new Float64Array(),
      rowDual: sol ? sol.rowDual : new Float64Array(),
      iterations: 0,
      solveMs: performance.now() - t0,
      peakHeapBytes: highs.memoryBytes,
      solver: "HiGHS (test)",
    };
  } finally {
    m.dispose();
  }
}

/** The optimal objective of CPLEX LP text solved by HiGHS. */
export function solveLpText(text: string): { status: number; objective: number } {
  const m = highs.createModel({ format: "lp", data: text });
  try {
    m.options.set({ output_flag: false });
    const run = m.run();
    return { status: run.modelStatus, objective: m.getObjectiveValue() };
  } finally {
    m.dispose();
  }
}
