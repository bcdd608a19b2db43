/**
 * JSON text in pieces, for documents too large to hold as one string: a year of 1-minute steps
 * is some 20 million numbers, 250 MB of JSON, and V8 refuses strings beyond about 512 MB
 * ("Invalid string length"). The pieces joined equal `JSON.stringify(value)` for the plain data
 * a simulation result is made of (objects, arrays, numbers, strings, booleans, null); long
 * arrays of primitives are written a slice at a time, so no piece is much over
 * `ARRAY_SLICE` numbers.
 */

/** Elements of an array of primitives written as one piece. */
export const ARRAY_SLICE = 4096;

/** Deepest nesting written; a deeper (or cyclic) value is refused like `JSON.stringify` would. */
const MAX_DEPTH = 64;

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

/** Whether a member of that value is left out of an object (as `JSON.stringify` does). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/**
 * Yields the JSON text of `value` in pieces; `[...jsonPieces(v)].join("")` is
 * `JSON.stringify(v)` (for a top-level `undefined`, "null").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal([...jsonPieces({ a: [1, 2] })].join(""), '{"a":[1,2]}');
 * ```
 */
export function* jsonPieces(value: unknown): Generator<string, void, undefined> {
  yield* write(value, 0);
}

function* write(value: unknown, depth: number): Generator<string, void, undefined> {
  if (isPrimitive(value)) {
    yield JSON.stringify(value) ?? "null";
    return;
  }
  if (depth >= MAX_DEPTH) {
    throw new TypeError(`JSON output nests deeper than ${MAX_DEPTH} levels (or is cyclic)`);
  }
  const object = value as Record<string, unknown> & { toJSON?: unknown };
  if (typeof object.toJSON === "function") {
    yield JSON.stringify(object);
    return;
  }
  if (Array.isArray(value)) {
    yield "[";
    for (let start = 0; start < value.length; start += ARRAY_SLICE) {
      const slice = value.slice(start, start + ARRAY_SLICE);
      if (slice.every(isPrimitive)) {
        const text = JSON.stringify(slice);
        yield (start > 0 ? "," : "") + text.slice(1, -1);
        continue;
      }
      for (let i = 0; i < slice.length; i++) {
        if (start + i > 0) yield ",";
        const element = slice[i];
        if (omitted(element)) yield "null";
        else yield* write(element, depth + 1);
      }
    }
    yield "]";
    return;
  }
  yield "{";
  let first = true;
  for (const key of Object.keys(object)) {
    const member = object[key];
    if (omitted(member)) continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* write(member, depth + 1);
  }
  yield "}";
}
