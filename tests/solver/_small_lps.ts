/** Test fixtures: small LPs with known answers, built as the LP builder would. */
import type { LinearProgram } from "../../lib/lp/linear_program.ts";

/** Builds a LinearProgram from dense rows (small fixtures only). */
export function denseLp(spec: {
  cost: number[];
  colLower?: number[];
  colUpper?: number[];
  rows: { name: string; coefs: number[]; lower: number; upper: number }[];
  offset?: number;
}): LinearProgram {
  const numCols = spec.cost.length;
  const numRows = spec.rows.length;
  const starts: number[] = [];
  const indices: number[] = [];
  const values: number[] = [];
  for (let j = 0; j < numCols; j++) {
    starts.push(indices.length);
    spec.rows.forEach((row, i) => {
      const v = row.coefs[j] ?? 0;
      if (v !== 0) {
        indices.push(i);
        values.push(v);
      }
    });
  }
  starts.push(indices.length);
  return {
    numCols,
    numRows,
    colCost: Float64Array.from(spec.cost),
    colLower: Float64Array.from(spec.colLower ?? spec.cost.map(() => 0)),
    colUpper: Float64Array.from(spec.colUpper ?? spec.cost.map(() => Infinity)),
    rowLower: Float64Array.from(spec.rows.map((r) => r.lower)),
    rowUpper: Float64Array.from(spec.rows.map((r) => r.upper)),
    matrix: {
      format: "csc",
      numRows,
      numCols,
      starts: Int32Array.from(starts),
      indices: Int32Array.from(indices),
      values: Float64Array.from(values),
    },
    offset: spec.offset ?? 0,
    colNames: spec.cost.map((_, j) => `x${j}`),
    rowNames: spec.rows.map((r) => r.name),
  };
}

/** min x0 + 2 x1 + 5 s.t. demand: x0 + x1 >= 4, cap: x0 <= 3. Optimum x = (3, 1), objective 10. */
export const twoSupplies = denseLp({
  cost: [1, 2],
  offset: 5,
  rows: [
    { name: "demand", coefs: [1, 1], lower: 4, upper: Infinity },
    { name: "cap", coefs: [1, 0], lower: -Infinity, upper: 3 },
  ],
});

/** supply: x0 + x1 <= 3 and demand: x0 + x1 >= 5 conflict; `other` (x2 >= 1) is innocent. */
export const infeasible = denseLp({
  cost: [1, 1, 1],
  rows: [
    { name: "supply", coefs: [1, 1, 0], lower: -Infinity, upper: 3 },
    { name: "other", coefs: [0, 0, 1], lower: 1, upper: Infinity },
    { name: "demand", coefs: [1, 1, 0], lower: 5, upper: Infinity },
  ],
});

/** min -x0 s.t. floor: x0 >= 0: unbounded below. */
export const unbounded = denseLp({
  cost: [-1],
  rows: [{ name: "floor", coefs: [1], lower: 0, upper: Infinity }],
});
