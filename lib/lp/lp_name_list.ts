/**
 * The names of an LP's columns and rows. A big model has millions (`carrier_prod[r1::ccgt::power,
 * 2005-01-01T00:00:00]`), and making them while building was more than half of the build: each
 * is a string the garbage collector copies and marks. They are read rarely (an LP file with
 * readable names, an infeasibility report, operate mode's windows), so the builder keeps a number
 * per name and makes the string when it is asked for.
 */

/** The names of an LP's columns or rows: a string array, or a list that makes each on demand. */
export interface LpNameList extends Iterable<string> {
  readonly length: number;
  /** The i-th name; undefined outside 0 .. length-1. */
  at(i: number): string | undefined;
}

/** A name as the builder takes it: the string, or a `StepNames` code for a time-indexed one. */
export type LpName = string | number;

/**
 * Codes for the time-indexed names `family[key,timestamp]`: head id × number of timesteps + t.
 * A head (`family[key`) is stored once; the family's last key is remembered, as the builder
 * names a key's timesteps one after another.
 */
export class StepNames {
  readonly #tails: readonly string[];
  readonly #stride: number;
  readonly #heads: string[] = [];
  readonly #last = new Map<string, { key: string; id: number }>();

  /** `timestamps`: as written in names, one per timestep. */
  constructor(timestamps: readonly string[]) {
    this.#tails = timestamps.map((stamp) => `,${stamp}]`);
    this.#stride = Math.max(1, timestamps.length);
  }

  /** The code of `family[key,timestamps[t]]`. */
  code(family: string, key: string, t: number): number {
    let last = this.#last.get(family);
    if (last === undefined || last.key !== key) {
      last = { key, id: this.#heads.length };
      this.#heads.push(`${family}[${key}`);
      this.#last.set(family, last);
    }
    return last.id * this.#stride + t;
  }

  /** The name a code stands for. */
  name(code: number): string {
    const id = Math.floor(code / this.#stride);
    return this.#heads[id]! + this.#tails[code - id * this.#stride]!;
  }
}

/** The name of `code`: the -1 - code'th of `literals` when negative, else a StepNames code. */
export function codedName(code: number, literals: readonly string[], steps: StepNames): string {
  return code < 0 ? literals[-1 - code]! : steps.name(code);
}

/**
 * Names kept as one float64 each: a StepNames code (≥ 0), or -1 - k for the k-th of `literals`
 * (the names given as strings: `energy_cap[r1::ccgt]`, a group constraint's).
 */
export class CodedNameList implements LpNameList {
  readonly #codes: Float64Array;
  readonly #literals: readonly string[];
  readonly #steps: StepNames;

  constructor(codes: Float64Array, literals: readonly string[], steps: StepNames) {
    this.#codes = codes;
    this.#literals = literals;
    this.#steps = steps;
  }

  get length(): number {
    return this.#codes.length;
  }

  at(i: number): string | undefined {
    if (!(i >= 0 && i < this.#codes.length)) return undefined;
    return codedName(this.#codes[Math.trunc(i)]!, this.#literals, this.#steps);
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.#codes.length; i++) yield this.at(i)!;
  }
}

/** Every name of `names`, as an array (operate mode and tests). */
export function nameArray(names: LpNameList): readonly string[] {
  return Array.isArray(names) ? names : Array.from(names);
}
