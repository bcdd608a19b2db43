/**
 * LP-file identifiers made from indices alone (`x0`, `x1`, ... or `c0`, ...): what a solver is
 * given when nobody reads the file. A big model's readable names are most of its LP file (406 of
 * 425 MB for 30 locations × 4,000 hours) and take seconds to make valid; these cost nothing and
 * are read back by parsing the number.
 */
import type { LpIdentifiers } from "./lp_names.ts";

/** `PREFIX<i>` for i in 0 .. count-1. */
export class IndexedNames implements LpIdentifiers {
  constructor(private readonly prefix: string, readonly length: number) {}

  name(i: number): string {
    return `${this.prefix}${i}`;
  }

  indexOf(name: string): number {
    if (!name.startsWith(this.prefix)) return -1;
    const digits = name.slice(this.prefix.length);
    if (!/^(0|[1-9][0-9]*)$/.test(digits)) return -1;
    const i = Number(digits);
    return i < this.length ? i : -1;
  }

  byteLength(i: number): number {
    return this.prefix.length + (i < 10 ? 1 : Math.floor(Math.log10(i)) + 1);
  }

  copyTo(i: number, out: Uint8Array, pos: number): number {
    for (let k = 0; k < this.prefix.length; k++) out[pos++] = this.prefix.charCodeAt(k);
    const digits = this.byteLength(i) - this.prefix.length;
    let n = i;
    for (let k = digits - 1; k >= 0; k--) {
      out[pos + k] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
    return pos + digits;
  }
}
