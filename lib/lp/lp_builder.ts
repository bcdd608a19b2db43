/**
 * A sparse LP accumulated row by row in growable typed arrays, which become the LP itself (rows
 * compressed as they were added). No per-entry objects: a full-year model has millions of
 * nonzeros; and no transposed or exact-size copies, nor buffers shrunk (V8 zeroes the cut tail,
 * faulting in pages never used): fresh memory is what a big build paid for.
 */
import type { LinearProgram } from "./linear_program.ts";
import { codedName, CodedNameList, type LpName, StepNames } from "./lp_name_list.ts";

/**
 * At most this many entries in one growable array (2 GB of float64): the address space reserved
 * for its buffer, of which only what is used is ever touched.
 */
const MAX_ELEMENTS = 2 ** 28;

/**
 * A growable array's buffer: resizable in place, so growing neither copies nor touches fresh
 * memory twice (a fresh page costs more than the writes to it, and a doubling copy touched about
 * twice the final size). A plain buffer where the reservation is refused.
 */
function growableBuffer(bytes: number, elementBytes: number): ArrayBuffer {
  try {
    return new ArrayBuffer(bytes, { maxByteLength: MAX_ELEMENTS * elementBytes });
  } catch {
    return new ArrayBuffer(bytes);
  }
}

function newF64(length: number): Float64Array<ArrayBuffer> {
  return new Float64Array(growableBuffer(length * 8, 8));
}

function newI32(length: number): Int32Array<ArrayBuffer> {
  return new Int32Array(growableBuffer(length * 4, 4));
}

/** A byte length of at least `need` elements, doubling, within the buffer's reservation. */
function grownBytes(buffer: ArrayBuffer, length: number, need: number, bytes: number): number {
  return Math.min(buffer.maxByteLength, Math.max(need, length * 2) * bytes);
}

// The arrays are length-tracking views: a resized buffer lengthens them in place.
function growF64(a: Float64Array<ArrayBuffer>, need: number): Float64Array<ArrayBuffer> {
  if (need <= a.length) return a;
  if (a.buffer.resizable && need * 8 <= a.buffer.maxByteLength) {
    a.buffer.resize(grownBytes(a.buffer, a.length, need, 8));
    return a;
  }
  const b = new Float64Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

function growI32(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  if (a.buffer.resizable && need * 4 <= a.buffer.maxByteLength) {
    a.buffer.resize(grownBytes(a.buffer, a.length, need, 4));
    return a;
  }
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Accumulates columns, rows and their terms. A row is opened with `addRow` (or `beginRow` then
 * `term` calls); terms with a zero coefficient are dropped and repeated columns in one row are
 * summed when the matrix is built. `build` hands the arrays over: the builder takes nothing after.
 */
export class LpBuilder {
  /** Codes of the time-indexed names (see stepName). */
  readonly #steps: StepNames;
  /** The names given as strings; a name's code -1 - k stands for the k-th. */
  #literals: string[] = [];

  #numCols = 0;
  #colCost = newF64(1024);
  #colLower = newF64(1024);
  #colUpper = newF64(1024);
  #colNames = newF64(1024);
  /** Integer columns (a MIP's); empty for an LP. */
  #integers: number[] = [];

  #numRows = 0;
  #rowLower = newF64(1024);
  #rowUpper = newF64(1024);
  #rowStart = newI32(1025);
  #rowNames = newF64(1024);

  #nnz = 0;
  #entryCol = newI32(4096);
  #entryVal = newF64(4096);

  /** Set by build: the arrays are the LP's from then on (views of the builder's buffers). */
  #built = false;

  /** `timestamps`: the model's, as written in time-indexed names (see stepName). */
  constructor(timestamps: readonly string[] = []) {
    this.#steps = new StepNames(timestamps);
  }

  /**
   * The name `family[key,timestamps[t]]` as a code the builder takes in place of the string: it
   * is made only when asked for (lp_name_list.ts).
   */
  stepName(family: string, key: string, t: number): LpName {
    return this.#steps.code(family, key, t);
  }

  #code(name: LpName): number {
    if (typeof name === "number") return name;
    this.#literals.push(name);
    return -this.#literals.length;
  }

  #nameOf(code: number): string {
    return codedName(code, this.#literals, this.#steps);
  }

  /** Number of columns so far. */
  get numCols(): number {
    return this.#numCols;
  }

  /** Number of rows so far. */
  get numRows(): number {
    return this.#numRows;
  }

  /** Adds a column with bounds and objective coefficient; returns its index. */
  addColumn(name: LpName, lower: number, upper: number, cost = 0): number {
    this.#assertOpen();
    const j = this.#numCols++;
    if (j >= this.#colCost.length) {
      this.#colCost = growF64(this.#colCost, j + 1);
      this.#colLower = growF64(this.#colLower, j + 1);
      this.#colUpper = growF64(this.#colUpper, j + 1);
      this.#colNames = growF64(this.#colNames, j + 1);
    }
    this.#colCost[j] = cost;
    this.#colLower[j] = lower;
    this.#colUpper[j] = upper;
    this.#colNames[j] = this.#code(name);
    return j;
  }

  /** Adds an integer column (binary with bounds 0..1); returns its index. */
  addIntegerColumn(name: LpName, lower: number, upper: number, cost = 0): number {
    const j = this.addColumn(name, lower, upper, cost);
    this.#integers.push(j);
    return j;
  }

  /** Adds `cost` to column j's objective coefficient. */
  addCost(j: number, cost: number): void {
    this.#assertOpen();
    this.#colCost[j]! += cost;
  }

  /** Tightens a column's bounds (used to fix a variable at zero). */
  setBounds(j: number, lower: number, upper: number): void {
    this.#assertOpen();
    this.#colLower[j] = lower;
    this.#colUpper[j] = upper;
  }

  /** Opens a row lower ≤ Σ terms ≤ upper; add its terms with `term`. Returns its index. */
  beginRow(name: LpName, lower: number, upper: number): number {
    this.#assertOpen();
    const i = this.#numRows++;
    if (i >= this.#rowLower.length) {
      this.#rowLower = growF64(this.#rowLower, i + 1);
      this.#rowUpper = growF64(this.#rowUpper, i + 1);
      this.#rowNames = growF64(this.#rowNames, i + 1);
      // rowStart needs one more slot than there are rows.
      this.#rowStart = growI32(this.#rowStart, this.#rowLower.length + 1);
    }
    this.#rowLower[i] = lower;
    this.#rowUpper[i] = upper;
    this.#rowStart[i] = this.#nnz;
    this.#rowStart[i + 1] = this.#nnz;
    this.#rowNames[i] = this.#code(name);
    return i;
  }

  /** Adds coef·x_col to the row opened last. */
  term(col: number, coef: number): void {
    // After build a term would move the end of the LP's last row.
    this.#assertOpen();
    if (coef === 0) return;
    if (!Number.isFinite(coef)) {
      throw new RangeError(
        `LP coefficient of ${this.#nameOf(this.#colNames[col]!)} in ${
          this.#nameOf(this.#rowNames[this.#numRows - 1]!)
        } is ${coef}`,
      );
    }
    const k = this.#nnz++;
    if (k >= this.#entryCol.length) {
      this.#entryCol = growI32(this.#entryCol, k + 1);
      this.#entryVal = growF64(this.#entryVal, k + 1);
    }
    this.#entryCol[k] = col;
    this.#entryVal[k] = coef;
    this.#rowStart[this.#numRows] = this.#nnz;
  }

  /** Adds a whole row: lower ≤ Σ vals[k]·x[cols[k]] ≤ upper. Returns its index. */
  addRow(
    name: LpName,
    lower: number,
    upper: number,
    cols: ArrayLike<number>,
    vals: ArrayLike<number>,
  ): number {
    const i = this.beginRow(name, lower, upper);
    for (let k = 0; k < cols.length; k++) this.term(cols[k]!, vals[k]!);
    return i;
  }

  #assertOpen(): void {
    if (this.#built) throw new Error("LpBuilder: the LP is built; start a new builder");
  }

  /**
   * Sums the entries of a column repeated within a row into its first one, compacting the
   * entries in place; returns how many are left.
   */
  #sumRepeats(): number {
    const cols = this.#entryCol;
    const vals = this.#entryVal;
    const starts = this.#rowStart;
    // where[j]: the entry of column j last written; in the current row when >= that row's start.
    const where = new Int32Array(this.#numCols).fill(-1);
    let q = 0;
    for (let i = 0; i < this.#numRows; i++) {
      const begin = starts[i]!;
      const end = starts[i + 1]!;
      const first = q;
      starts[i] = q;
      for (let k = begin; k < end; k++) {
        const j = cols[k]!;
        const p = where[j]!;
        if (p >= first) {
          vals[p]! += vals[k]!;
          continue;
        }
        where[j] = q;
        cols[q] = j;
        vals[q] = vals[k]!;
        q++;
      }
    }
    starts[this.#numRows] = q;
    return q;
  }

  /** The LP: its matrix by rows in the order they were added, duplicates in a row summed. */
  build(offset = 0): LinearProgram {
    this.#assertOpen();
    const numCols = this.#numCols;
    const numRows = this.#numRows;
    const nnz = this.#sumRepeats();
    this.#built = true;
    let integrality: Uint8Array | undefined;
    if (this.#integers.length > 0) {
      integrality = new Uint8Array(numCols);
      for (const j of this.#integers) integrality[j] = 1;
    }
    return {
      numCols,
      numRows,
      ...(integrality === undefined ? {} : { integrality }),
      colCost: this.#colCost.subarray(0, numCols),
      colLower: this.#colLower.subarray(0, numCols),
      colUpper: this.#colUpper.subarray(0, numCols),
      rowLower: this.#rowLower.subarray(0, numRows),
      rowUpper: this.#rowUpper.subarray(0, numRows),
      matrix: {
        format: "csr",
        numRows,
        numCols,
        starts: this.#rowStart.subarray(0, numRows + 1),
        indices: this.#entryCol.subarray(0, nnz),
        values: this.#entryVal.subarray(0, nnz),
      },
      offset,
      // The names stay in this process (never posted to a solver Worker).
      colNames: new CodedNameList(this.#colNames.subarray(0, numCols), this.#literals, this.#steps),
      rowNames: new CodedNameList(this.#rowNames.subarray(0, numRows), this.#literals, this.#steps),
    };
  }
}
