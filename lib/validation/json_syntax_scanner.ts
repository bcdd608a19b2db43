/**
 * Checks the syntax of a JSON text fed in pieces (a request body as it streams in) without
 * building any value: a service can refuse malformed JSON, or a body that is not an object, as
 * the bytes arrive, and hand the untouched bytes to the code that parses them elsewhere (a
 * Worker). Each byte is looked at once; memory is one byte per open array or object.
 *
 * What it accepts is what `JSON.parse` accepts of the same bytes read as UTF-8 (RFC 8259):
 * one value with optional whitespace around it, and a UTF-8 byte-order mark before it (which
 * `TextDecoder` drops). Bytes of 0x80 and above are taken as they are inside strings (invalid
 * UTF-8 becomes U+FFFD when decoded, as `Request.json()` reads it) and refused elsewhere.
 */

// Where the scanner is. Strings and numbers have sub-states; `top` says what follows a value.
const VALUE = 0; // a value must come (after `:` or `,` in an array, or at the start)
const VALUE_OR_END_ARRAY = 1; // just after `[`
const KEY_OR_END_OBJECT = 2; // just after `{`
const KEY = 3; // after `,` in an object
const COLON = 4; // after a key
const AFTER_VALUE = 5; // `,` or the closing bracket of the container, or the end
const STRING = 6;
const STRING_ESCAPE = 7;
const STRING_UNICODE = 8; // inside \uXXXX
const MINUS = 9; // after `-`
const ZERO = 10; // an integer part `0`
const INTEGER = 11;
const DOT = 12; // after `.`
const FRACTION = 13;
const EXPONENT_MARK = 14; // after `e`
const EXPONENT_SIGN = 15;
const EXPONENT = 16;
const LITERAL = 17; // inside true, false or null
const DONE = 18; // the value is complete; only whitespace may follow
const FAILED = 19;

const OBJECT = 0x7b; // {
const ARRAY = 0x5b; // [

const TRUE = new TextEncoder().encode("true");
const FALSE = new TextEncoder().encode("false");
const NULL = new TextEncoder().encode("null");
const BOM = [0xef, 0xbb, 0xbf];

function isWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function isHex(b: number): boolean {
  return isDigit(b) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46);
}

function describe(b: number): string {
  return b >= 0x21 && b <= 0x7e ? `"${String.fromCharCode(b)}"` : `byte 0x${b.toString(16)}`;
}

/** Byte classes of the scan: one table lookup per byte instead of a chain of comparisons. */
const SPACE = 1;
const DIGIT = 2;
const CLASS = new Uint8Array(256);
for (const b of [0x20, 0x0a, 0x0d, 0x09]) CLASS[b] = SPACE;
for (let b = 0x30; b <= 0x39; b++) CLASS[b] = DIGIT;

/** 1 for a byte that may stand inside a string as it is (not `"`, `\` or a control byte). */
const PLAIN = new Uint8Array(256);
for (let b = 0x20; b < 256; b++) PLAIN[b] = b === 0x22 || b === 0x5c ? 0 : 1;

/**
 * An incremental JSON syntax check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const scan = new JsonSyntaxScanner();
 * scan.feed(new TextEncoder().encode('{"a": [1, tr'));
 * scan.feed(new TextEncoder().encode("ue]}"));
 * assert.equal(scan.finish(), true); // one complete value
 * assert.equal(scan.root, "object");
 * ```
 */
export class JsonSyntaxScanner {
  /** Why the text is not JSON, once it is known not to be. */
  error: string | undefined;
  /** What the top-level value is, once its first byte has been seen. */
  root: "object" | "array" | "string" | "number" | "literal" | undefined;
  /** Whether the top-level value is `{}` (known once it has closed). */
  emptyRootObject = false;
  /** Bytes seen so far. */
  offset = 0;
  /** Whether the text failed by nesting deeper than `maxDepth` (`error` says where). */
  tooDeep = false;

  #state = VALUE;
  /** What follows the string being read: a key is followed by `:`. */
  #stringIsKey = false;
  #unicodeLeft = 0;
  #literal: Uint8Array = TRUE;
  #literalAt = 0;
  /** The open containers, innermost last (OBJECT or ARRAY). */
  readonly #open: number[] = [];
  /** Bytes of a leading byte-order mark matched so far, and whether that question is settled. */
  #bomAt = 0;
  #bomDone = false;

  /**
   * `maxDepth`: the deepest nesting of arrays and objects taken; one level more fails the scan
   * with `tooDeep` (default: no bound), so a caller that bounds nesting needs no second pass.
   */
  constructor(readonly maxDepth: number = Infinity) {}

  /** Scans the next piece; false once the text is known not to be JSON (see `error`). */
  feed(piece: Uint8Array): boolean {
    const length = piece.length;
    let i = 0;
    // A UTF-8 byte-order mark (EF BB BF) at the very start is dropped, as TextDecoder does.
    while (!this.#bomDone && i < length) {
      if (piece[i] === BOM[this.#bomAt]) {
        i++;
        if (++this.#bomAt === BOM.length) this.#bomDone = true;
      } else {
        this.#bomDone = true;
        if (this.#bomAt > 0) return this.#fail(this.offset + i, "an incomplete byte-order mark");
      }
    }
    let state = this.#state;
    // The loop keeps the state in a local; the rarer transitions go through methods, which read
    // and write `#state`, so it is stored before and reloaded after each of them.
    while (i < length) {
      const b = piece[i]!;
      if (state === STRING) {
        if (PLAIN[b] === 1) {
          // The hot path: a run of plain string bytes.
          i++;
          while (i < length && PLAIN[piece[i]!] === 1) i++;
          continue;
        }
      } else if (CLASS[b] === SPACE && (state <= AFTER_VALUE || state === DONE)) {
        i++;
        continue;
      } else if (
        CLASS[b] === DIGIT && (state === INTEGER || state === FRACTION || state === EXPONENT)
      ) {
        i++;
        while (i < length && CLASS[piece[i]!] === DIGIT) i++;
        continue;
      }
      this.#state = state;
      if (!this.#step(b, this.offset + i)) {
        this.offset += length;
        return false;
      }
      state = this.#state;
      i++;
    }
    this.#state = state;
    this.offset += length;
    return true;
  }

  /** Whether the text fed so far is one complete JSON value; sets `error` when it is not. */
  finish(): boolean {
    if (this.#state === FAILED) return false;
    if (!this.#bomDone && this.#bomAt > 0) {
      return this.#fail(this.offset, "an incomplete byte-order mark");
    }
    // A number at the top level ends with the text.
    if (this.#open.length === 0 && this.#endNumber()) this.#state = DONE;
    if (this.#state === DONE) return true;
    return this.#fail(
      this.offset,
      this.root === undefined ? "no JSON value" : "the text ends before the JSON value does",
    );
  }

  #fail(at: number, reason: string): false {
    this.#state = FAILED;
    this.error = `${reason} (at byte ${at})`;
    return false;
  }

  /** Ends a number being read, if one is; false when it cannot end here. */
  #endNumber(): boolean {
    const s = this.#state;
    if (s === ZERO || s === INTEGER || s === FRACTION || s === EXPONENT) {
      this.#valueEnded();
      return true;
    }
    return false;
  }

  /** A value has ended: what may follow depends on the container it is in. */
  #valueEnded(): void {
    this.#state = this.#open.length === 0 ? DONE : AFTER_VALUE;
  }

  #startValue(b: number, at: number): boolean {
    const top = this.#open.length === 0;
    if (b === 0x7b || b === 0x5b) {
      if (top) this.root = b === OBJECT ? "object" : "array";
      if (this.#open.length >= this.maxDepth) {
        this.tooDeep = true;
        return this.#fail(at, `nesting deeper than ${this.maxDepth} levels`);
      }
      this.#open.push(b);
      this.#state = b === OBJECT ? KEY_OR_END_OBJECT : VALUE_OR_END_ARRAY;
    } else if (b === 0x22) {
      if (top) this.root = "string";
      this.#stringIsKey = false;
      this.#state = STRING;
    } else if (b === 0x2d || isDigit(b)) {
      if (top) this.root = "number";
      this.#state = b === 0x2d ? MINUS : b === 0x30 ? ZERO : INTEGER;
    } else if (b === 0x74 || b === 0x66 || b === 0x6e) {
      if (top) this.root = "literal";
      this.#literal = b === 0x74 ? TRUE : b === 0x66 ? FALSE : NULL;
      this.#literalAt = 1;
      this.#state = LITERAL;
    } else {
      return this.#fail(at, `unexpected ${describe(b)} where a value should be`);
    }
    return true;
  }

  #close(b: number, at: number): boolean {
    const open = this.#open.pop();
    if ((b === 0x7d && open !== OBJECT) || (b === 0x5d && open !== ARRAY)) {
      return this.#fail(at, `unexpected ${describe(b)}`);
    }
    this.#valueEnded();
    return true;
  }

  #key(b: number, at: number): boolean {
    if (b !== 0x22) return this.#fail(at, `unexpected ${describe(b)} where a key should be`);
    this.#stringIsKey = true;
    this.#state = STRING;
    return true;
  }

  #exponentDigit(b: number, at: number): boolean {
    if (!isDigit(b)) return this.#fail(at, "a digit must follow the exponent");
    this.#state = EXPONENT;
    return true;
  }

  #step(b: number, at: number): boolean {
    switch (this.#state) {
      case VALUE:
        if (isWhitespace(b)) return true;
        return this.#startValue(b, at);
      case VALUE_OR_END_ARRAY:
        if (isWhitespace(b)) return true;
        if (b === 0x5d) return this.#close(b, at);
        return this.#startValue(b, at);
      case KEY_OR_END_OBJECT:
        if (isWhitespace(b)) return true;
        if (b === 0x7d) {
          if (this.#open.length === 1) this.emptyRootObject = true;
          return this.#close(b, at);
        }
        return this.#key(b, at);
      case KEY:
        if (isWhitespace(b)) return true;
        return this.#key(b, at);
      case COLON:
        if (isWhitespace(b)) return true;
        if (b !== 0x3a) return this.#fail(at, `expected ":" after a key, found ${describe(b)}`);
        this.#state = VALUE;
        return true;
      case AFTER_VALUE:
        if (isWhitespace(b)) return true;
        if (b === 0x2c) {
          this.#state = this.#open.at(-1) === OBJECT ? KEY : VALUE;
          return true;
        }
        if (b === 0x7d || b === 0x5d) return this.#close(b, at);
        return this.#fail(at, `expected "," or a closing bracket, found ${describe(b)}`);
      case STRING:
        if (b === 0x22) {
          if (this.#stringIsKey) this.#state = COLON;
          else this.#valueEnded();
          return true;
        }
        if (b === 0x5c) {
          this.#state = STRING_ESCAPE;
          return true;
        }
        return this.#fail(at, `a control character (${describe(b)}) inside a string`);
      case STRING_ESCAPE:
        if (b === 0x75) {
          this.#unicodeLeft = 4;
          this.#state = STRING_UNICODE;
          return true;
        }
        // " \ / b f n r t
        if (
          b === 0x22 || b === 0x5c || b === 0x2f || b === 0x62 || b === 0x66 || b === 0x6e ||
          b === 0x72 || b === 0x74
        ) {
          this.#state = STRING;
          return true;
        }
        return this.#fail(at, `an invalid escape \\${String.fromCharCode(b)} inside a string`);
      case STRING_UNICODE:
        if (!isHex(b)) return this.#fail(at, "an invalid \\u escape inside a string");
        if (--this.#unicodeLeft === 0) this.#state = STRING;
        return true;
      case MINUS:
        if (!isDigit(b)) return this.#fail(at, 'a digit must follow "-"');
        this.#state = b === 0x30 ? ZERO : INTEGER;
        return true;
      case ZERO:
      case INTEGER:
        if (isDigit(b)) {
          if (this.#state === ZERO) return this.#fail(at, "a number with a leading zero");
          return true;
        }
        if (b === 0x2e) {
          this.#state = DOT;
          return true;
        }
        if (b === 0x65 || b === 0x45) {
          this.#state = EXPONENT_MARK;
          return true;
        }
        this.#endNumber();
        return this.#step(b, at);
      case DOT:
        if (!isDigit(b)) return this.#fail(at, 'a digit must follow "."');
        this.#state = FRACTION;
        return true;
      case FRACTION:
        if (isDigit(b)) return true;
        if (b === 0x65 || b === 0x45) {
          this.#state = EXPONENT_MARK;
          return true;
        }
        this.#endNumber();
        return this.#step(b, at);
      case EXPONENT_MARK:
        if (b === 0x2b || b === 0x2d) {
          this.#state = EXPONENT_SIGN;
          return true;
        }
        return this.#exponentDigit(b, at);
      case EXPONENT_SIGN:
        return this.#exponentDigit(b, at);
      case EXPONENT:
        if (isDigit(b)) return true;
        this.#endNumber();
        return this.#step(b, at);
      case LITERAL:
        if (b !== this.#literal[this.#literalAt]) {
          return this.#fail(at, `unexpected ${describe(b)} in a literal`);
        }
        if (++this.#literalAt === this.#literal.length) this.#valueEnded();
        return true;
      case DONE:
        if (isWhitespace(b)) return true;
        return this.#fail(at, `unexpected ${describe(b)} after the JSON value`);
      default:
        return false;
    }
  }
}
