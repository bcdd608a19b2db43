/**
 * Writes a LinearProgram as CPLEX LP text for inspection and for other solvers (HiGHS, cbc,
 * clp, glpsol, Gurobi, CPLEX, SCIP read it). Names become identifiers as LpNames makes them
 * (`[A-Za-z0-9_]`, starting with a letter, unique); a ranged row (finite lower < finite upper)
 * becomes two rows, `NAME_lo` and `NAME_hi`, because not every reader accepts
 * `lo <= expr <= hi`; a free row is left out. Integer columns of a MIP are listed under
 * `General`. The text is produced as bytes in chunks of about 1 MiB, so that a model of millions
 * of nonzeros streams to a file without one giant string.
 */
import type { LinearProgram } from "./linear_program.ts";
import { type LpIdentifiers, LpNames } from "./lp_names.ts";
import { IndexedNames } from "./indexed_names.ts";
import { rowWise } from "./sparse_matrix.ts";

export { type LpIdentifiers, LpNames } from "./lp_names.ts";

const TERMS_PER_LINE = 6;
/** Bytes gathered before a chunk is handed out. */
const CHUNK_BYTES = 1 << 20;

/** Makes LP-file identifiers out of readable names: valid, unique, at most 200 characters. */
export function sanitizeNames(names: readonly string[], prefix: string): string[] {
  const ids = new LpNames(names, prefix);
  return Array.from({ length: ids.length }, (_, i) => ids.name(i));
}

/** How an LP file is written. */
export interface WriteLpOptions {
  /**
   * Write the objective's offset as a constant term (default true). Some readers reject it
   * (glpsol) or misread it (clp 1.17); a solver's objective is then recomputed from its values.
   */
  readonly objectiveConstant?: boolean;
  /**
   * List every column in the objective, with a 0 coefficient where it has none (default
   * false): readers that number columns by first appearance (glpsol) then number them as the LP.
   */
  readonly allColumnsInObjective?: boolean;
  /**
   * Name columns `x<index>` and rows `c<index>` instead of by their readable names (default
   * false): for a solver, where the file is much smaller and quicker to write and to read back.
   */
  readonly indexedNames?: boolean;
}

/** Which LP column and row each identifier of a written file is, to read results back. */
export interface LpFileLayout {
  /** The columns' identifiers, by column index. */
  readonly colNames: LpIdentifiers;
  /** The rows' identifiers, by row index (a ranged row is written as `ID_lo` and `ID_hi`). */
  readonly rowNames: LpIdentifiers;
  /** The LP row of each written row, in file order. */
  readonly fileRows: Int32Array;
}

/** The LP row an identifier of the file names (`ID_lo`/`ID_hi` for a ranged row's halves). */
export function fileRowIndex(layout: LpFileLayout, lp: LinearProgram, name: string): number {
  const exact = layout.rowNames.indexOf(name);
  if (exact >= 0) return exact;
  if (!/_(lo|hi)$/.test(name)) return -1;
  const row = layout.rowNames.indexOf(name.slice(0, -3));
  if (row < 0) return -1;
  const lo = lp.rowLower[row]!;
  const hi = lp.rowUpper[row]!;
  return lo !== hi && lo !== -Infinity && hi !== Infinity ? row : -1;
}

/** A growable byte buffer the writer fills and empties chunk by chunk. */
class Bytes {
  buf = new Uint8Array(CHUNK_BYTES + (1 << 16));
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  ascii(s: string): void {
    this.ensure(s.length);
    const b = this.buf;
    let p = this.pos;
    for (let k = 0; k < s.length; k++) b[p++] = s.charCodeAt(k);
    this.pos = p;
  }

  name(names: LpIdentifiers, i: number): void {
    this.ensure(names.byteLength(i));
    this.pos = names.copyTo(i, this.buf, this.pos);
  }

  /** ` + NAME`, ` - 2.5 NAME`. */
  term(c: number, names: LpIdentifiers, i: number): void {
    if (c < 0) {
      this.ascii(c === -1 ? " - " : ` - ${-c} `);
    } else {
      this.ascii(c === 1 ? " + " : ` + ${c} `);
    }
    this.name(names, i);
  }

  /** The bytes so far (valid until the next write) and a fresh start. */
  take(): Uint8Array {
    const chunk = this.buf.subarray(0, this.pos);
    this.pos = 0;
    return chunk;
  }
}

/**
 * The LP text of `lp` as byte chunks of about 1 MiB (each valid only until the next is taken:
 * write or copy it first) and, once all are taken, the file's layout.
 */
export function lpByteChunks(
  lp: LinearProgram,
  options: WriteLpOptions = {},
): { chunks: Iterable<Uint8Array>; layout: () => LpFileLayout } {
  let layout: LpFileLayout | undefined;
  function* chunks(): Generator<Uint8Array> {
    const indexed = options.indexedNames === true;
    const colNames = indexed ? new IndexedNames("x", lp.numCols) : new LpNames(lp.colNames, "x");
    const rowNames = indexed ? new IndexedNames("c", lp.numRows) : new LpNames(lp.rowNames, "c");
    const fileRows = new Int32Array(2 * lp.numRows);
    let fileRowCount = 0;
    const { numCols, numRows } = lp;
    const { starts: rowStart, indices: rowCols, values: rowVals } = rowWise(lp.matrix);
    const out = new Bytes();
    out.ascii(
      `\\ written by lib/lp/write_lp.ts\n${
        lp.sense === "maximize" ? "Maximize" : "Minimize"
      }\n obj:`,
    );
    let terms = 0;
    const all = options.allColumnsInObjective === true;
    for (let j = 0; j < numCols; j++) {
      const c = lp.colCost[j]!;
      if (c === 0 && !all) continue;
      out.term(c, colNames, j);
      if (++terms % TERMS_PER_LINE === 0) out.ascii("\n   ");
      if (out.pos > CHUNK_BYTES) yield out.take();
    }
    // A constant objective (check_feasibility) still names a column: not every reader takes
    // a bare constant.
    if (terms === 0 && numCols > 0) {
      out.ascii(" 0 ");
      out.name(colNames, 0);
    }
    if (lp.offset !== 0 && options.objectiveConstant !== false) {
      out.ascii(` ${lp.offset < 0 ? "-" : "+"} ${Math.abs(lp.offset)}`);
    }
    out.ascii("\nSubject To\n");
    for (let i = 0; i < numRows; i++) {
      const lo = lp.rowLower[i]!;
      const hi = lp.rowUpper[i]!;
      if (lo === -Infinity && hi === Infinity) continue;
      const start = rowStart[i]!;
      const end = rowStart[i + 1]!;
      // An empty row: feasible or not by its bounds alone; written with a zero term.
      if (end === start && numCols === 0) continue;
      const ranged = lo !== hi && lo !== -Infinity && hi !== Infinity;
      for (let half = 0; half < (ranged ? 2 : 1); half++) {
        out.ascii(" ");
        out.name(rowNames, i);
        if (ranged) out.ascii(half === 0 ? "_lo:" : "_hi:");
        else out.ascii(":");
        if (end === start) {
          out.ascii(" 0 ");
          out.name(colNames, 0);
        }
        for (let p = start; p < end; p++) {
          out.term(rowVals[p]!, colNames, rowCols[p]!);
          if ((p - start + 1) % TERMS_PER_LINE === 0 && p + 1 < end) out.ascii("\n   ");
        }
        if (ranged) out.ascii(half === 0 ? ` >= ${lo}\n` : ` <= ${hi}\n`);
        else if (lo === hi) out.ascii(` = ${hi}\n`);
        else if (lo === -Infinity) out.ascii(` <= ${hi}\n`);
        else out.ascii(` >= ${lo}\n`);
        fileRows[fileRowCount++] = i;
      }
      if (out.pos > CHUNK_BYTES) yield out.take();
    }
    out.ascii("Bounds\n");
    for (let j = 0; j < numCols; j++) {
      const lo = lp.colLower[j]!;
      const hi = lp.colUpper[j]!;
      if (lo === 0 && hi === Infinity) continue;
      if (lo === -Infinity && hi === Infinity) {
        out.ascii(" ");
        out.name(colNames, j);
        out.ascii(" free\n");
      } else if (lo === hi || hi === Infinity) {
        out.ascii(" ");
        out.name(colNames, j);
        out.ascii(lo === hi ? ` = ${lo}\n` : ` >= ${lo}\n`);
      } else {
        out.ascii(lo === -Infinity ? " -inf <= " : ` ${lo} <= `);
        out.name(colNames, j);
        out.ascii(` <= ${hi}\n`);
      }
      if (out.pos > CHUNK_BYTES) yield out.take();
    }
    // Integer columns; a binary one is an integer column whose bounds (written above) are 0..1.
    if (lp.integrality?.some((v) => v === 1)) {
      out.ascii("General\n");
      let k = 0;
      for (let j = 0; j < numCols; j++) {
        if (lp.integrality[j] !== 1) continue;
        out.ascii(" ");
        out.name(colNames, j);
        if (++k % TERMS_PER_LINE === 0) out.ascii("\n");
      }
      if (k % TERMS_PER_LINE !== 0) out.ascii("\n");
    }
    out.ascii("End\n");
    layout = { colNames, rowNames, fileRows: fileRows.slice(0, fileRowCount) };
    yield out.take();
  }
  return {
    chunks: { [Symbol.iterator]: chunks },
    layout: () => {
      if (layout === undefined) {
        throw new Error("The LP file's layout is known once all its text is taken");
      }
      return layout;
    },
  };
}

/**
 * CPLEX LP text of `lp` (minimised, or maximised by its `sense`). The objective offset is written
 * as a constant term. A model's LP file:
 * `Deno.writeTextFile("model.lp", writeLp(buildLp(model).lp))`; for a large one `writeLpFile`.
 */
export function writeLp(lp: LinearProgram, options: WriteLpOptions = {}): string {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (const chunk of lpByteChunks(lp, options).chunks) parts.push(decoder.decode(chunk));
  return parts.join("");
}

/**
 * Streams the LP text of `lp` to the file at `path` and returns the file's layout. Aborting
 * `signal` stops it between chunks (it then rejects with the signal's reason).
 */
export async function writeLpFile(
  lp: LinearProgram,
  path: string,
  options: WriteLpOptions = {},
  signal?: AbortSignal,
): Promise<LpFileLayout> {
  const { chunks, layout } = lpByteChunks(lp, options);
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  for (const chunk of chunks) {
    signal?.throwIfAborted();
    for (let written = 0; written < chunk.length;) {
      written += await file.write(chunk.subarray(written));
    }
  }
  return layout();
}
