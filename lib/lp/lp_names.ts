/**
 * The identifiers of an LP file's columns or rows, made from readable names and kept as bytes:
 * `[A-Za-z0-9_]` only (every other byte of its UTF-8 becomes `_`), starting with a letter (else
 * `PREFIX_` is put before), at most 200 characters, unique (`_2`, `_3`, ... on a clash). Kept in
 * one byte arena with an open-addressing hash table, because a big model has millions of names:
 * as JavaScript strings (regex replace, a Set) they took seconds; as bytes they are copied
 * straight into the file and looked up when a solver's solution names them.
 */
import type { LpNameList } from "./lp_name_list.ts";

const MAX_NAME = 200;
const UNDERSCORE = 95;

function isWordByte(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** FNV-1a over `bytes[from, to)`, as a 32-bit integer (unsigned with `>>> 0`). */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5 | 0;
  for (let k = from; k < to; k++) h = Math.imul(h ^ bytes[k]!, 0x01000193);
  return h;
}

/** The identifiers of an LP file's columns or rows, by index. */
export interface LpIdentifiers {
  readonly length: number;
  /** Identifier `i` as a string. */
  name(i: number): string;
  /** The index of identifier `name` (as written in the file), or -1. */
  indexOf(name: string): number;
  /** Length of identifier `i` in bytes. */
  byteLength(i: number): number;
  /** Copies identifier `i` into `out` at `pos`; returns the position after it. */
  copyTo(i: number, out: Uint8Array, pos: number): number;
}

/** Sanitised, unique LP-file identifiers, by index. */
export class LpNames implements LpIdentifiers {
  private arena: Uint8Array;
  private readonly starts: Int32Array;
  private readonly table: Int32Array;
  private readonly mask: number;
  private scratch = new Uint8Array(256);

  /** The identifiers of `names`, `prefix` put before those that do not start with a letter. */
  constructor(names: LpNameList, prefix: string) {
    const n = names.length;
    this.starts = new Int32Array(n + 1);
    let size = 1 << 4;
    while (size < 2 * n) size <<= 1;
    this.table = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    let capacity = 1 << 16;
    for (let i = 0; i < Math.min(n, 64); i++) capacity += names.at(i)!.length + prefix.length + 8;
    this.arena = new Uint8Array(Math.max(capacity, Math.min(n, 1 << 22) * 32));
    const encoder = new TextEncoder();
    let scratch = new Uint8Array(1024);
    let pos = 0;
    for (let i = 0; i < n; i++) {
      const name = names.at(i)!;
      if (pos + 3 * name.length + prefix.length + 24 > this.arena.length) {
        const grown = new Uint8Array(Math.max(this.arena.length * 2, pos + 3 * name.length + 1024));
        grown.set(this.arena.subarray(0, pos));
        this.arena = grown;
      }
      const a = this.arena;
      const start = pos;
      const first = name.length > 0 ? name.charCodeAt(0) : 0;
      const second = name.length > 1 ? name.charCodeAt(1) : 0;
      // An identifier must start with a letter and must not read as a number (`e1`).
      if (!isLetter(first) || ((first === 69 || first === 101) && second >= 48 && second <= 57)) {
        for (let k = 0; k < prefix.length; k++) a[pos++] = prefix.charCodeAt(k);
        a[pos++] = UNDERSCORE;
      }
      // Encoded natively into a scratch buffer (a character loop over a name the LP builder
      // made by concatenation is several times slower), then copied, made valid and hashed in
      // one pass (FNV-1a, as hashBytes): every byte outside [A-Za-z0-9_] becomes `_`.
      if (3 * name.length > scratch.length) scratch = new Uint8Array(3 * name.length);
      const written = encoder.encodeInto(name, scratch).written;
      let h = hashBytes(a, start, pos);
      for (let k = 0; k < written; k++) {
        const c = scratch[k]!;
        const b = isWordByte(c) ? c : UNDERSCORE;
        a[pos++] = b;
        h = Math.imul(h ^ b, 0x01000193);
      }
      if (pos - start > MAX_NAME) {
        pos = this.writeText(`_${i}`, start + MAX_NAME - 12);
        h = hashBytes(a, start, pos);
      }
      const base = pos;
      for (let suffix = 2; !this.insert(i, start, pos, h >>> 0); suffix++) {
        pos = this.writeText(`_${suffix}`, base);
        h = hashBytes(a, start, pos);
      }
      this.starts[i + 1] = pos;
    }
  }

  private writeText(text: string, pos: number): number {
    for (let k = 0; k < text.length; k++) this.arena[pos++] = text.charCodeAt(k);
    return pos;
  }

  /** Adds name `i` at `arena[start, end)` (hash `h`) unless an equal one is there; false on a clash. */
  private insert(i: number, start: number, end: number, h: number): boolean {
    const a = this.arena;
    for (let slot = h & this.mask;; slot = (slot + 1) & this.mask) {
      const other = this.table[slot]!;
      if (other < 0) {
        this.table[slot] = i;
        return true;
      }
      if (this.equalsAt(other, a, start, end)) return false;
    }
  }

  private equalsAt(j: number, bytes: Uint8Array, from: number, to: number): boolean {
    const s = this.starts[j]!;
    const e = this.starts[j + 1]!;
    if (e - s !== to - from) return false;
    const a = this.arena;
    for (let k = 0; k < e - s; k++) if (a[s + k] !== bytes[from + k]) return false;
    return true;
  }

  /** How many names. */
  get length(): number {
    return this.starts.length - 1;
  }

  /** Identifier `i` as a string. */
  name(i: number): string {
    let s = "";
    for (let k = this.starts[i]!; k < this.starts[i + 1]!; k++) {
      s += String.fromCharCode(this.arena[k]!);
    }
    return s;
  }

  /** The index of identifier `name` (as written in the file), or -1. */
  indexOf(name: string): number {
    if (name.length > this.scratch.length) this.scratch = new Uint8Array(name.length * 2);
    const b = this.scratch;
    for (let k = 0; k < name.length; k++) b[k] = name.charCodeAt(k) & 0xff;
    const h = hashBytes(b, 0, name.length) >>> 0;
    for (let slot = h & this.mask;; slot = (slot + 1) & this.mask) {
      const j = this.table[slot]!;
      if (j < 0) return -1;
      if (this.equalsAt(j, b, 0, name.length)) return j;
    }
  }

  /** Copies identifier `i` into `out` at `pos`; returns the position after it. */
  copyTo(i: number, out: Uint8Array, pos: number): number {
    const s = this.starts[i]!;
    const e = this.starts[i + 1]!;
    const a = this.arena;
    if (e - s > 48) {
      out.set(a.subarray(s, e), pos);
      return pos + e - s;
    }
    for (let k = s; k < e; k++) out[pos++] = a[k]!;
    return pos;
  }

  /** Length of identifier `i` in bytes. */
  byteLength(i: number): number {
    return this.starts[i + 1]! - this.starts[i]!;
  }
}
