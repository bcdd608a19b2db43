/**
 * Infinity as the existing modelling frontend writes it (research notes `tempo_client.md`
 * section 1.5): the strings `"inf"` / `".inf"` (js-yaml leaves bare `inf` a string; templates
 * write `'inf'`), and `±1e15` (its `sanitizeInfinity` for `.inf`). The canonical form is
 * `"inf"` / `"-inf"`.
 */

/** Magnitude from which a number is read as infinity (the frontend writes `.inf` as 1e15). */
export const FRONTEND_INFINITY = 1e15;

const POSITIVE_WORDS = new Set(["inf", ".inf", "+inf", "+.inf", "infinity", "+infinity"]);
const NEGATIVE_WORDS = new Set(["-inf", "-.inf", "-infinity"]);

/**
 * One value with the frontend's infinity spellings mapped to `"inf"` / `"-inf"`; any other value
 * unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(infinityValue(1e15), "inf");
 * assert.equal(infinityValue(".INF"), "inf");
 * assert.equal(infinityValue(5), 5);
 * ```
 */
export function infinityValue(value: unknown): unknown {
  if (typeof value === "number") {
    if (value >= FRONTEND_INFINITY) return "inf";
    if (value <= -FRONTEND_INFINITY) return "-inf";
    return value;
  }
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (POSITIVE_WORDS.has(word)) return "inf";
    if (NEGATIVE_WORDS.has(word)) return "-inf";
  }
  return value;
}

/**
 * A constraints or costs object with infinity mapped in every value, nested objects included
 * (`carrier_ratios`). `null` values are dropped: the frontend writes `null` for "not set".
 */
export function infinityRecord(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    out[key] = isPlainObject(value) ? infinityRecord(value) : infinityValue(value);
  }
  return out;
}

/**
 * Costs by cost class with infinity mapped in each class (`{monetary: {...}, emissions: {...}}`).
 */
export function infinityCosts(costs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [costClass, values] of Object.entries(costs)) {
    if (values === null || values === undefined) continue;
    out[costClass] = isPlainObject(values) ? infinityRecord(values) : values;
  }
  return out;
}

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
