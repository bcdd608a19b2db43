/**
 * What every HiGHS solve of ours shares: a LinearProgram as HiGHS model data, and a number of
 * HiGHS's info (0 when HiGHS has none). Used by one-off solves (solve_lp.ts) and by operate's
 * persistent model (persistent_lp.ts).
 */
import type { Highs } from "./highs_loader.ts";
import type { LpArrays } from "./solve_lp.ts";

/** A numeric HiGHS info value (int64 values arrive as bigint); 0 when unavailable. */
export function infoNumber(model: ReturnType<Highs["createModel"]>, name: string): number {
  try {
    const value = Number(model.info.get(name));
    return Number.isFinite(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** The LP as HiGHS model data; ±Infinity becomes HiGHS's infinity if the build uses another. */
export function highsModelData(highs: Highs, lp: LpArrays) {
  const bound = (values: Float64Array) =>
    highs.infinity === Infinity
      ? values
      : values.map((v) => v === Infinity ? highs.infinity : v === -Infinity ? -highs.infinity : v);
  return {
    numCols: lp.numCols,
    numRows: lp.numRows,
    offset: lp.offset,
    sense: lp.sense === "maximize"
      ? highs.constants.objectiveSense.maximize
      : highs.constants.objectiveSense.minimize,
    colCost: lp.colCost,
    colLower: bound(lp.colLower),
    colUpper: bound(lp.colUpper),
    rowLower: bound(lp.rowLower),
    rowUpper: bound(lp.rowUpper),
    // Either compression: HiGHS turns rows into columns itself, in the same order as columnWise().
    matrix: {
      format: lp.matrix.format,
      numRows: lp.matrix.numRows,
      numCols: lp.matrix.numCols,
      starts: lp.matrix.starts,
      indices: lp.matrix.indices,
      values: lp.matrix.values,
    },
    ...(lp.integrality === undefined ? {} : { integrality: Int32Array.from(lp.integrality) }),
  };
}
