/**
 * A linear program in the form HiGHS takes it directly: minimise c·x + offset subject to
 * rowLower ≤ A·x ≤ rowUpper and colLower ≤ x ≤ colUpper, with A in compressed sparse columns.
 * Names are kept for the LP file, infeasibility reports and reading results back.
 */
import type { LpNameList } from "./lp_name_list.ts";

/** A matrix in compressed sparse column form. */
export interface CscMatrix {
  readonly format: "csc";
  readonly numRows: number;
  readonly numCols: number;
  /** Length numCols + 1: column j's entries are start[j] .. start[j+1]-1. */
  readonly starts: Int32Array;
  /** Row index of each entry. */
  readonly indices: Int32Array;
  readonly values: Float64Array;
}

/** The LP handed to the solver. Infinite bounds are ±Infinity. */
export interface LinearProgram {
  readonly numCols: number;
  readonly numRows: number;
  readonly colCost: Float64Array;
  readonly colLower: Float64Array;
  readonly colUpper: Float64Array;
  readonly rowLower: Float64Array;
  readonly rowUpper: Float64Array;
  readonly matrix: CscMatrix;
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
