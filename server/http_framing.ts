/**
 * The framing of HTTP/1.1 messages (RFC 9112), just enough to follow where each header block
 * and body of a stream of messages begins and ends: shared by the reader of what a client sends
 * (`request_reader.ts`) and of what the service answers (`response_reader.ts`), which differ
 * only in what a complete header block means for the body after it. Nothing here changes or
 * keeps the bytes beyond one header block.
 */

/** Why a message stream cannot be followed; `status` is the answer a client gets for it. */
export class HttpFramingError extends Error {
  constructor(message: string, readonly status: 400 | 431) {
    super(message);
  }
}

const CR = 13;
const LF = 10;

/** Collects one header block up to the blank line that ends it, also across chunks. */
export class HeaderBlock {
  #bytes = new Uint8Array(0);
  #length = 0;

  /** `what` names the block in the error, e.g. `Request header block`. */
  constructor(readonly maxBytes: number, readonly what = "Header block") {}

  /** Starts a new block. */
  reset(): void {
    this.#length = 0;
  }

  /**
   * Takes the bytes of `chunk` from `start`; the index just after the block's blank line, or -1
   * when the block goes on in the next chunk. Throws HttpFramingError (431) past `maxBytes`.
   */
  feed(chunk: Uint8Array, start: number): number {
    let end = -1;
    for (let i = start; i < chunk.length; i++) {
      if (chunk[i] !== LF) continue;
      const before = this.#byteBefore(chunk, start, i, 1);
      const twoBefore = this.#byteBefore(chunk, start, i, 2);
      if (before === LF || (before === CR && twoBefore === LF)) {
        end = i + 1;
        break;
      }
    }
    this.#append(chunk.subarray(start, end < 0 ? chunk.length : end));
    return end;
  }

  /** The start line and the fields of the block, names lower-cased, values trimmed. */
  parse(): { startLine: string; fields: [string, string][] } {
    const text = new TextDecoder("latin1").decode(this.#bytes.subarray(0, this.#length));
    const [startLine = "", ...lines] = text.split(/\r?\n/);
    const fields: [string, string][] = [];
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      fields.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
    return { startLine, fields };
  }

  /** The byte `back` places before index `i` of the current block. */
  #byteBefore(chunk: Uint8Array, start: number, i: number, back: number): number | undefined {
    const at = i - back;
    if (at >= start) return chunk[at];
    const inBlock = this.#length + (at - start);
    return inBlock >= 0 ? this.#bytes[inBlock] : undefined;
  }

  #append(bytes: Uint8Array): void {
    const length = this.#length + bytes.length;
    if (length > this.maxBytes) {
      throw new HttpFramingError(`${this.what} larger than ${this.maxBytes} bytes`, 431);
    }
    if (length > this.#bytes.length) {
      const grown = new Uint8Array(Math.min(this.maxBytes, Math.max(length, 1024) * 2));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    this.#bytes.set(bytes, this.#length);
    this.#length = length;
  }
}

/** How a message's body is delimited (RFC 9112 section 6.3). */
export type BodyLength =
  | { kind: "length"; bytes: number }
  | { kind: "chunked" }
  /** Until the connection closes (a response with neither length nor chunked coding). */
  | { kind: "close" };

/** The body length a header block's fields declare (0 included); undefined when they declare none. */
export function declaredBody(fields: readonly [string, string][]): BodyLength | undefined {
  let length: number | undefined;
  let chunked = false;
  for (const [name, value] of fields) {
    if (name === "content-length") {
      if (!/^\d{1,15}$/.test(value)) {
        throw new HttpFramingError(`Invalid Content-Length "${value.slice(0, 32)}"`, 400);
      }
      length = Number(value);
    } else if (name === "transfer-encoding") {
      chunked = value.toLowerCase().split(",").map((v) => v.trim()).includes("chunked");
    }
  }
  if (chunked) return { kind: "chunked" };
  return length === undefined ? undefined : { kind: "length", bytes: length };
}

type BodyState =
  | { kind: "length"; remaining: number }
  | { kind: "close" }
  | { kind: "chunk-size"; line: string }
  | { kind: "chunk-data"; remaining: number }
  | { kind: "chunk-end"; remaining: number }
  | { kind: "trailer"; line: string };

/** Follows one body to its end (`done` at once for a length of 0). */
export class BodyFollower {
  #state: BodyState | undefined;

  constructor(length: BodyLength) {
    this.#state = length.kind === "length"
      ? (length.bytes === 0 ? undefined : { kind: "length", remaining: length.bytes })
      : length.kind === "chunked"
      ? { kind: "chunk-size", line: "" }
      : { kind: "close" };
  }

  /** Whether the body has ended. */
  get done(): boolean {
    return this.#state === undefined;
  }

  /**
   * Takes the body's bytes of `chunk` from `start`; the index after the last one taken (the
   * body ended there when `done`). Throws HttpFramingError (400) for bad chunk framing.
   */
  feed(chunk: Uint8Array, start: number): number {
    let i = start;
    while (i < chunk.length && this.#state) {
      const body: BodyState = this.#state;
      switch (body.kind) {
        case "close":
          return chunk.length;
        case "length":
        case "chunk-data":
        case "chunk-end": {
          const take = Math.min(body.remaining, chunk.length - i);
          body.remaining -= take;
          i += take;
          if (body.remaining > 0) break;
          if (body.kind === "length") this.#state = undefined;
          else if (body.kind === "chunk-data") this.#state = { kind: "chunk-end", remaining: 2 };
          else this.#state = { kind: "chunk-size", line: "" };
          break;
        }
        case "chunk-size":
        case "trailer": {
          const byte = chunk[i++] as number;
          if (byte !== LF) {
            if (body.line.length > 1024) {
              throw new HttpFramingError("Chunk line longer than 1024 bytes", 400);
            }
            if (byte !== CR) body.line += String.fromCharCode(byte);
            break;
          }
          if (body.kind === "trailer") {
            if (body.line === "") this.#state = undefined;
            else body.line = "";
            break;
          }
          const size = parseInt(body.line.split(";")[0]?.trim() ?? "", 16);
          if (!Number.isSafeInteger(size) || size < 0) {
            throw new HttpFramingError(`Invalid chunk size "${body.line.slice(0, 32)}"`, 400);
          }
          this.#state = size === 0
            ? { kind: "trailer", line: "" }
            : { kind: "chunk-data", remaining: size };
          break;
        }
      }
    }
    return i;
  }
}

/** Where a stream of messages is. */
export type MessagePhase =
  /** Between messages: nothing of the next one has arrived. */
  | "idle"
  /** Part of a header block has arrived. */
  | "headers"
  /** The header block is complete; body bytes are due. */
  | "body"
  /** No longer HTTP/1.1 messages: not followed any further. */
  | "opaque";

/** A complete header block: its start line and fields. */
export type ParsedHeader = ReturnType<HeaderBlock["parse"]>;

/**
 * What follows a complete header block: its body's length, `undefined` for no body (the next
 * message follows), or `"opaque"` when the stream stops being HTTP/1.1 messages there.
 */
export type AfterHeader = BodyLength | undefined | "opaque";

/** How a MessageStream reads its messages. */
export interface MessageStreamOptions {
  /** Collects each header block (and bounds its size). */
  header: HeaderBlock;
  /** Decides what follows each complete header block. */
  afterHeader: (header: ParsedHeader) => AfterHeader;
  /** Whether empty lines may come between messages (requests may: RFC 9112 §2.2). */
  blankLinesBetween?: boolean;
}

/** Walks a stream of messages through their header blocks and bodies; `feed` every chunk. */
export class MessageStream {
  phase: MessagePhase = "idle";
  #body: BodyFollower | undefined;

  constructor(readonly options: MessageStreamOptions) {}

  /** Follows `chunk`; throws HttpFramingError (or what `afterHeader` throws) where it cannot. */
  feed(chunk: Uint8Array): void {
    const { header, blankLinesBetween = false } = this.options;
    let i = 0;
    while (i < chunk.length && this.phase !== "opaque") {
      if (this.phase === "idle") {
        if (blankLinesBetween) {
          while (i < chunk.length && (chunk[i] === CR || chunk[i] === LF)) i++;
          if (i === chunk.length) return;
        }
        this.phase = "headers";
        header.reset();
      }
      if (this.phase === "headers") {
        const end = header.feed(chunk, i);
        if (end < 0) return;
        i = end;
        this.#startBody(this.options.afterHeader(header.parse()));
      } else if (this.phase === "body" && this.#body) {
        i = this.#body.feed(chunk, i);
        if (this.#body.done) {
          this.#body = undefined;
          this.phase = "idle";
        }
      }
    }
  }

  /** Stops following (the stream is no longer HTTP/1.1 messages). */
  stop(): void {
    this.phase = "opaque";
    this.#body = undefined;
  }

  #startBody(after: AfterHeader): void {
    if (after === "opaque") return this.stop();
    const body = after ? new BodyFollower(after) : undefined;
    this.#body = body?.done ? undefined : body;
    this.phase = this.#body ? "body" : "idle";
  }
}
