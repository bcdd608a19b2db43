/**
 * What a command-line solver's solution file (and log) says, before it is mapped onto the LP:
 * values keyed by the LP file's identifiers, or by position where the format has no names.
 */
import type { Termination } from "../solve_types.ts";

/** Values by the LP file's identifier, or by position (1st written row/column first). */
export type NativeValues = ReadonlyMap<string, number> | Float64Array;

/** A solver's answer as read from its own files. */
export interface NativeSolution {
  readonly termination: Termination;
  /** The solver's own status text, e.g. "Optimal", "Stopped on time". */
  readonly status: string;
  /** Column values (absent: the solver gives no solution). */
  readonly colValues?: NativeValues;
  /** Row duals by written row (absent: none, e.g. a MIP or SCIP). */
  readonly rowDuals?: NativeValues;
  /** Missing from colValues means 0 (formats that list nonzeros only: SCIP, Gurobi's .sol). */
  readonly sparse?: boolean;
  readonly iterations?: number;
  readonly mipGap?: number;
  readonly mipDualBound?: number;
  /** An error's explanation from the solver. */
  readonly message?: string;
}

/** A number as solvers print it (`inf`, `-1e+30`, `nan` included). */
export function parseNumber(text: string): number {
  const t = text.toLowerCase();
  if (t === "inf" || t === "+inf" || t === "infinity") return Infinity;
  if (t === "-inf" || t === "-infinity") return -Infinity;
  return Number(text);
}

/** The last line of `log` matching `pattern`, or undefined. */
export function lastMatch(log: readonly string[], pattern: RegExp): RegExpExecArray | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    const m = pattern.exec(log[i]!);
    if (m) return m;
  }
  return undefined;
}
