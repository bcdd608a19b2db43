/**
 * Test fixtures: LPs built in code. A random sparse LP with a known feasible point, large enough
 * that HiGHS (WebAssembly) needs several seconds, so cancel and time limits can be observed.
 */
import type { LinearProgram } from "../../lib/lp/linear_program.ts";

/** mulberry32: a small seeded generator so every run builds the same LP. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random LP with `rows` ranged rows and `cols` bounded columns, each column with about
 * `density * rows` entries. Row ranges are built around A·x0 for a random x0, so it is feasible;
 * costs of both signs keep presolve from fixing columns.
 */
export function randomLp(rows: number, cols: number, density: number, seed = 1): LinearProgram {
  const rnd = random(seed);
  const starts = new Int32Array(cols + 1);
  const indices: number[] = [];
  const values: number[] = [];
  const colCost = new Float64Array(cols);
  const x0 = new Float64Array(cols);
  const activity = new Float64Array(rows);
  for (let j = 0; j < cols; j++) {
    starts[j] = indices.length;
    x0[j] = 10 * rnd();
    colCost[j] = 2 * rnd() - 1;
    for (let i = 0; i < rows; i++) {
      if (rnd() < density) {
        const v = 2 * rnd() - 0.5;
        indices.push(i);
        values.push(v);
        activity[i] = (activity[i] ?? 0) + v * x0[j]!;
      }
    }
  }
  starts[cols] = indices.length;
  const rowLower = new Float64Array(rows);
  const rowUpper = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    rowLower[i] = activity[i]! - 5 * rnd();
    rowUpper[i] = activity[i]! + 5 * rnd();
  }
  return {
    numCols: cols,
    numRows: rows,
    colCost,
    colLower: new Float64Array(cols),
    colUpper: new Float64Array(cols).fill(10),
    rowLower,
    rowUpper,
    matrix: {
      format: "csc",
      numRows: rows,
      numCols: cols,
      starts,
      indices: Int32Array.from(indices),
      values: Float64Array.from(values),
    },
    offset: 0,
    colNames: Array.from({ length: cols }, (_, j) => `x[${j}]`),
    rowNames: Array.from({ length: rows }, (_, i) => `row[${i}]`),
  };
}
