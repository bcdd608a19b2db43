/**
 * A linear program in the form HiGHS takes it directly: minimise c·x + offset subject to
 * rowLower ≤ A·x ≤ rowUpper and colLower ≤ x ≤ colUpper, with A compressed by rows or by columns
 * (HiGHS takes either). Names are kept for the LP file, infeasibility reports and reading results
 * back.
 */
import type { LpNameList } from "./lp_name_list.ts";

/**
 * A sparse matrix compressed along one dimension: by columns (`csc`: line j is column j, its
 * indices are rows) or by rows (`csr`: line i is row i, its indices are columns). Within a line
 * the indices ascend for CSC and are distinct for both.
 */
interface CompressedMatrix {
  readonly numRows: number;
  readonly numCols: number;
  /** Length (lines + 1): line l's entries are starts[l] .. starts[l+1]-1. */
  readonly starts: Int32Array;
  /** The other index of each entry. */
  readonly indices: Int32Array;
  readonly values: Float64Array;
}

/** Compressed sparse columns: what hand-made LPs use. */
export interface CscMatrix extends CompressedMatrix {
  readonly format: "csc";
}

/** Compressed sparse rows: what LpBuilder makes (rows are what a model is written as). */
export interface CsrMatrix extends CompressedMatrix {
  readonly format: "csr";
}

export type SparseMatrix = CscMatrix | CsrMatrix;

/** The LP handed to the solver. Infinite bounds are ±Infinity. */
export interface LinearProgram {
  readonly numCols: number;
  readonly numRows: number;
  readonly colCost: Float64Array;
  readonly colLower: Float64Array;
  readonly colUpper: Float64Array;
  readonly rowLower: Float64Array;
  readonly rowUpper: Float64Array;
  readonly matrix: SparseMatrix;
  readonly offset: number;
  /** Absent: minimise. `maximize` (Calliope's `objective_options.sense`) maximises c·x + offset. */
  readonly sense?: "minimize" | "maximize";
  /**
   * Absent: every column continuous (an LP). Otherwise one entry per column, 1 for an integer
   * column (a binary one is integer with bounds 0..1), 0 for a continuous one: a MIP.
   */
  readonly integrality?: Uint8Array;
  /** Readable names such as `energy_cap[region1::ccgt]`; unique; made when read. */
  readonly colNames: LpNameList;
  readonly rowNames: LpNameList;
}
