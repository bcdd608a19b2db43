/**
 * How deeply a JSON text nests, found by one pass over its characters without parsing it, so a
 * service can refuse a body nested deeper than it will ever walk before anything recursive
 * (`JSON.stringify`, a schema, a sanitiser) meets it and overflows the stack.
 *
 * The scan counts `{` and `[` outside strings. It does not check the rest of the syntax:
 * `JSON.parse` does that afterwards. Bytes and UTF-16 text scan alike, since every character
 * it looks at is ASCII and no UTF-8 multi-byte sequence contains an ASCII byte.
 */

/** Deepest nesting any service accepts in a request body (issue 18: deeper is a 400). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Follows the nesting of a JSON text fed in pieces (a body as it streams in).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const scan = new JsonDepthScanner(64);
 * scan.feed('{"a": [1, {"b"');
 * scan.feed(": 2}]}");
 * assert.equal(scan.exceeded, false);
 * assert.equal(scan.maxDepth, 3);
 * ```
 */
export class JsonDepthScanner {
  /** The deepest level seen so far. */
  maxDepth = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;

  constructor(readonly limit: number = MAX_JSON_DEPTH) {}

  /** Whether the text so far nests deeper than the limit. */
  get exceeded(): boolean {
    return this.maxDepth > this.limit;
  }

  /** Scans the next piece; returns `exceeded` (and stops early once it is true). */
  feed(piece: string | Uint8Array): boolean {
    const isText = typeof piece === "string";
    const length = piece.length;
    for (let i = 0; i < length; i++) {
      const code = isText ? piece.charCodeAt(i) : piece[i]!;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (code === BACKSLASH) this.#escaped = true;
        else if (code === QUOTE) this.#inString = false;
      } else if (code === QUOTE) {
        this.#inString = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (++this.#depth > this.maxDepth) {
          this.maxDepth = this.#depth;
          if (this.maxDepth > this.limit) return true;
        }
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (this.#depth > 0) this.#depth--;
      }
    }
    return this.exceeded;
  }
}

/** The nesting depth of a whole JSON text (0 for a scalar), counting at most `limit + 1`. */
export function jsonDepth(text: string | Uint8Array, limit: number = MAX_JSON_DEPTH): number {
  const scan = new JsonDepthScanner(limit);
  scan.feed(text);
  return scan.maxDepth;
}

/** The message every service answers a body nested deeper than `limit` with (400). */
export function jsonDepthMessage(limit: number = MAX_JSON_DEPTH): string {
  return `The JSON body nests deeper than ${limit} levels; flatten it`;
}

/** Why a JSON text is refused for its nesting, or undefined when it nests at most `limit` deep. */
export function jsonDepthProblem(
  text: string | Uint8Array,
  limit: number = MAX_JSON_DEPTH,
): string | undefined {
  return jsonDepth(text, limit) > limit ? jsonDepthMessage(limit) : undefined;
}
