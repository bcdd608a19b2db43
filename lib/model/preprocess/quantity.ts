/**
 * Numbers as a model writes them: `"inf"`, `".inf"`, `"-inf"`, `"-.inf"` are ±Infinity, and so
 * is any number with |x| >= 1e15 (the frontend writes infinity as ±1e15).
 */

/** Magnitude from which a number means infinity. */
export const INFINITY_THRESHOLD = 1e15;

/** The number a quantity stands for, or undefined when it is not a quantity. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") {
    if (Number.isNaN(value)) return undefined;
    if (value >= INFINITY_THRESHOLD) return Infinity;
    if (value <= -INFINITY_THRESHOLD) return -Infinity;
    return value;
  }
  if (typeof value === "string") {
    const t = value.trim().toLowerCase();
    if (t === "inf" || t === ".inf" || t === "+inf" || t === "+.inf") return Infinity;
    if (t === "-inf" || t === "-.inf") return -Infinity;
  }
  return undefined;
}
