/**
 * A sparse matrix in the other compression: the LP file wants rows, a per-column diff or a test
 * may want columns. Counting sort by the other index, so each line's entries keep their order.
 */
import type { CscMatrix, CsrMatrix, SparseMatrix } from "./linear_program.ts";

/** `m` compressed by rows (itself when it already is). */
export function rowWise(m: SparseMatrix): CsrMatrix {
  if (m.format === "csr") return m;
  return { format: "csr", numRows: m.numRows, numCols: m.numCols, ...transpose(m, m.numRows) };
}

/** `m` compressed by columns (itself when it already is); rows ascend within each column. */
export function columnWise(m: SparseMatrix): CscMatrix {
  if (m.format === "csc") return m;
  return { format: "csc", numRows: m.numRows, numCols: m.numCols, ...transpose(m, m.numCols) };
}

/** The entries of `m` grouped by their `indices` (`lines` of them) instead of by line. */
function transpose(m: SparseMatrix, lines: number) {
  const { starts: from, indices: other, values: vals } = m;
  const nnz = from[from.length - 1]!;
  const starts = new Int32Array(lines + 1);
  for (let k = 0; k < nnz; k++) starts[other[k]! + 1]!++;
  for (let l = 0; l < lines; l++) starts[l + 1]! += starts[l]!;
  const fill = starts.slice(0, lines);
  const indices = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  for (let line = 0; line + 1 < from.length; line++) {
    for (let k = from[line]!; k < from[line + 1]!; k++) {
      const p = fill[other[k]!]!++;
      indices[p] = line;
      values[p] = vals[k]!;
    }
  }
  return { starts, indices, values };
}
