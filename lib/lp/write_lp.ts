/**
 * Writes a LinearProgram as CPLEX LP text for inspection and for other solvers (HiGHS, cbc,
 * clp read it). Names are reduced to `[A-Za-z0-9_]` (every other character becomes `_`), start
 * with a letter and are made unique; a ranged row (finite lower < finite upper) becomes two
 * rows, `NAME_lo` and `NAME_hi`, because not every reader accepts `lo <= expr <= hi`. Integer
 * columns of a MIP are listed under `General`.
 */
import type { LinearProgram } from "./linear_program.ts";

const MAX_NAME = 200;
const TERMS_PER_LINE = 6;

/** Makes LP-file identifiers out of readable names: valid, unique, at most 200 characters. */
export function sanitizeNames(names: readonly string[], prefix: string): string[] {
  const seen = new Set<string>();
  const out: string[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    let s = names[i]!.replace(/[^A-Za-z0-9_]/g, "_");
    if (!/^[A-Za-z]/.test(s) || /^[eE][0-9]/.test(s)) s = `${prefix}_${s}`;
    if (s.length > MAX_NAME) s = `${s.slice(0, MAX_NAME - 12)}_${i}`;
    let unique = s;
    for (let n = 2; seen.has(unique); n++) unique = `${s}_${n}`;
    seen.add(unique);
    out[i] = unique;
  }
  return out;
}

function num(v: number): string {
  return String(v);
}

/** ` + 2 x - y ...`, broken into lines so readers with line-length limits cope. */
function linear(coefs: ArrayLike<number>, names: ArrayLike<string>): string {
  let s = "";
  for (let k = 0; k < coefs.length; k++) {
    const c = coefs[k]!;
    const sign = c < 0 ? "-" : "+";
    const a = Math.abs(c);
    s += ` ${sign} ${a === 1 ? "" : num(a) + " "}${names[k]}`;
    if ((k + 1) % TERMS_PER_LINE === 0 && k + 1 < coefs.length) s += "\n   ";
  }
  return s;
}

/**
 * CPLEX LP text of `lp` (minimised, or maximised by its `sense`). The objective offset is written
 * as a constant term. A model's LP file:
 * `Deno.writeTextFile("model.lp", writeLp(buildLp(model).lp))`.
 */
export function writeLp(lp: LinearProgram): string {
  const colNames = sanitizeNames(lp.colNames, "x");
  const rowNames = sanitizeNames(lp.rowNames, "c");
  const { numCols, numRows, matrix } = lp;
  // Transpose CSC to CSR for row-wise writing.
  const rowCount = new Int32Array(numRows + 1);
  for (let k = 0; k < matrix.indices.length; k++) rowCount[matrix.indices[k]! + 1]!++;
  for (let i = 0; i < numRows; i++) rowCount[i + 1]! += rowCount[i]!;
  const fill = rowCount.slice(0, numRows);
  const rowCols = new Int32Array(matrix.indices.length);
  const rowVals = new Float64Array(matrix.indices.length);
  for (let j = 0; j < numCols; j++) {
    for (let k = matrix.starts[j]!; k < matrix.starts[j + 1]!; k++) {
      const i = matrix.indices[k]!;
      const p = fill[i]!++;
      rowCols[p] = j;
      rowVals[p] = matrix.values[k]!;
    }
  }
  const out: string[] = [
    "\\ written by lib/lp/write_lp.ts",
    lp.sense === "maximize" ? "Maximize" : "Minimize",
  ];
  const objCoefs: number[] = [];
  const objNames: string[] = [];
  for (let j = 0; j < numCols; j++) {
    if (lp.colCost[j] !== 0) {
      objCoefs.push(lp.colCost[j]!);
      objNames.push(colNames[j]!);
    }
  }
  let obj = ` obj:${linear(objCoefs, objNames)}`;
  if (lp.offset !== 0) obj += ` ${lp.offset < 0 ? "-" : "+"} ${num(Math.abs(lp.offset))}`;
  // A constant objective (check_feasibility) still names a column: not every reader takes
  // a bare constant.
  if (objCoefs.length === 0) obj = ` obj: 0 ${colNames[0] ?? ""}${obj.slice(" obj:".length)}`;
  out.push(obj, "Subject To");
  for (let i = 0; i < numRows; i++) {
    const lo = lp.rowLower[i]!;
    const hi = lp.rowUpper[i]!;
    if (lo === -Infinity && hi === Infinity) continue;
    const start = rowCount[i]!;
    const end = rowCount[i + 1]!;
    const names: string[] = [];
    for (let p = start; p < end; p++) names.push(colNames[rowCols[p]!]!);
    let expr = linear(rowVals.subarray(start, end), names);
    if (end === start) {
      // An empty row: feasible or not by its bounds alone; write it with a zero term.
      if (numCols === 0) continue;
      expr = ` 0 ${colNames[0]}`;
    }
    const name = rowNames[i]!;
    if (lo === hi) out.push(` ${name}:${expr} = ${num(hi)}`);
    else if (lo === -Infinity) out.push(` ${name}:${expr} <= ${num(hi)}`);
    else if (hi === Infinity) out.push(` ${name}:${expr} >= ${num(lo)}`);
    else {
      out.push(` ${name}_lo:${expr} >= ${num(lo)}`);
      out.push(` ${name}_hi:${expr} <= ${num(hi)}`);
    }
  }
  out.push("Bounds");
  for (let j = 0; j < numCols; j++) {
    const lo = lp.colLower[j]!;
    const hi = lp.colUpper[j]!;
    const n = colNames[j]!;
    if (lo === 0 && hi === Infinity) continue;
    if (lo === -Infinity && hi === Infinity) out.push(` ${n} free`);
    else if (lo === hi) out.push(` ${n} = ${num(lo)}`);
    else if (hi === Infinity) out.push(` ${n} >= ${num(lo)}`);
    else if (lo === -Infinity) out.push(` -inf <= ${n} <= ${num(hi)}`);
    else out.push(` ${num(lo)} <= ${n} <= ${num(hi)}`);
  }
  // Integer columns; a binary one is an integer column whose bounds (written above) are 0..1.
  const integers = colNames.filter((_, j) => lp.integrality?.[j] === 1);
  if (integers.length > 0) {
    out.push("General");
    for (let k = 0; k < integers.length; k += TERMS_PER_LINE) {
      out.push(` ${integers.slice(k, k + TERMS_PER_LINE).join(" ")}`);
    }
  }
  out.push("End", "");
  return out.join("\n");
}
