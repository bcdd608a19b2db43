/**
 * Follows the bytes a client sends on one HTTP/1.1 connection, just enough to tell where each
 * request's header block and body begin and end, so the connection guard can time them: it never
 * changes or buffers the bytes it is shown (only a header block, up to a limit, to read
 * Content-Length, Transfer-Encoding and Upgrade). After an upgrade (WebSocket) or an HTTP/2
 * preface it stops following: what comes next is not HTTP/1.1 requests.
 */

/** Where the client is in its requests. */
export type RequestPhase =
  /** Between requests: nothing of the next one has arrived. */
  | "idle"
  /** Part of a header block has arrived. */
  | "headers"
  /** The header block is complete; body bytes are due. */
  | "body"
  /** No longer HTTP/1.1 requests (upgraded, or HTTP/2). */
  | "opaque";

/** Why the reader gave up on a connection. */
export class RequestFramingError extends Error {
  constructor(message: string, readonly status: 400 | 431) {
    super(message);
  }
}

const CR = 13;
const LF = 10;
const HTTP2_PREFACE = "PRI * HTTP/2.0";

type BodyState =
  | { kind: "length"; remaining: number }
  | { kind: "chunk-size"; line: string }
  | { kind: "chunk-data"; remaining: number }
  | { kind: "chunk-end"; remaining: number }
  | { kind: "trailer"; line: string };

/** Tracks one connection's requests; `feed` every chunk the client sends, in order. */
export class RequestReader {
  phase: RequestPhase = "idle";
  /** Requests whose header block is complete. */
  requests = 0;
  #header = new Uint8Array(0);
  #headerLength = 0;
  #body: BodyState | undefined;
  #upgradeAfterHeaders = false;

  constructor(readonly maxHeaderBytes: number) {}

  /** Follows `chunk`; throws RequestFramingError for a header block too large or unreadable. */
  feed(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length && this.phase !== "opaque") {
      if (this.phase === "idle") {
        // Empty lines between requests are allowed (RFC 9112 §2.2).
        while (i < chunk.length && (chunk[i] === CR || chunk[i] === LF)) i++;
        if (i === chunk.length) return;
        this.phase = "headers";
        this.#headerLength = 0;
      }
      if (this.phase === "headers") i = this.#feedHeaders(chunk, i);
      else if (this.phase === "body") i = this.#feedBody(chunk, i);
    }
  }

  #feedHeaders(chunk: Uint8Array, start: number): number {
    // Look for the blank line that ends the block, also across chunk boundaries.
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
    const stop = end < 0 ? chunk.length : end;
    this.#appendHeader(chunk.subarray(start, stop));
    if (end < 0) return chunk.length;
    this.#startBody(new TextDecoder("latin1").decode(this.#header.subarray(0, this.#headerLength)));
    return end;
  }

  /** The byte `back` places before index `i` of the current header block. */
  #byteBefore(chunk: Uint8Array, start: number, i: number, back: number): number | undefined {
    const at = i - back;
    if (at >= start) return chunk[at];
    const inHeader = this.#headerLength + (at - start);
    return inHeader >= 0 ? this.#header[inHeader] : undefined;
  }

  #appendHeader(bytes: Uint8Array): void {
    const length = this.#headerLength + bytes.length;
    if (length > this.maxHeaderBytes) {
      throw new RequestFramingError(
        `Request header block larger than ${this.maxHeaderBytes} bytes`,
        431,
      );
    }
    if (length > this.#header.length) {
      const grown = new Uint8Array(Math.min(this.maxHeaderBytes, Math.max(length, 1024) * 2));
      grown.set(this.#header.subarray(0, this.#headerLength));
      this.#header = grown;
    }
    this.#header.set(bytes, this.#headerLength);
    this.#headerLength = length;
  }

  #startBody(block: string): void {
    this.requests++;
    if (block.startsWith(HTTP2_PREFACE)) {
      this.phase = "opaque";
      return;
    }
    let length = 0;
    let chunked = false;
    let upgrade = false;
    for (const line of block.split(/\r?\n/).slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "content-length") {
        if (!/^\d{1,15}$/.test(value)) {
          throw new RequestFramingError(`Invalid Content-Length "${value.slice(0, 32)}"`, 400);
        }
        length = Number(value);
      } else if (name === "transfer-encoding") {
        chunked = value.toLowerCase().split(",").map((v) => v.trim()).includes("chunked");
      } else if (name === "upgrade") {
        upgrade = true;
      }
    }
    this.#upgradeAfterHeaders = upgrade;
    if (chunked) this.#body = { kind: "chunk-size", line: "" };
    else if (length > 0) this.#body = { kind: "length", remaining: length };
    else this.#body = undefined;
    this.#endOfPart();
  }

  /** After a header block or a body: the next request, or opaque bytes after an upgrade. */
  #endOfPart(): void {
    if (this.#body) {
      this.phase = "body";
    } else if (this.#upgradeAfterHeaders) {
      this.phase = "opaque";
    } else {
      this.phase = "idle";
    }
  }

  #feedBody(chunk: Uint8Array, start: number): number {
    let i = start;
    while (i < chunk.length && this.#body) {
      const body: BodyState = this.#body;
      switch (body.kind) {
        case "length":
        case "chunk-data":
        case "chunk-end": {
          const take = Math.min(body.remaining, chunk.length - i);
          body.remaining -= take;
          i += take;
          if (body.remaining > 0) break;
          if (body.kind === "length") this.#body = undefined;
          else if (body.kind === "chunk-data") this.#body = { kind: "chunk-end", remaining: 2 };
          else this.#body = { kind: "chunk-size", line: "" };
          break;
        }
        case "chunk-size":
        case "trailer": {
          const byte = chunk[i++] as number;
          if (byte !== LF) {
            if (body.line.length > 1024) {
              throw new RequestFramingError("Chunk line longer than 1024 bytes", 400);
            }
            if (byte !== CR) body.line += String.fromCharCode(byte);
            break;
          }
          if (body.kind === "trailer") {
            if (body.line === "") this.#body = undefined;
            else body.line = "";
            break;
          }
          const size = parseInt(body.line.split(";")[0]?.trim() ?? "", 16);
          if (!Number.isSafeInteger(size) || size < 0) {
            throw new RequestFramingError(`Invalid chunk size "${body.line.slice(0, 32)}"`, 400);
          }
          this.#body = size === 0
            ? { kind: "trailer", line: "" }
            : { kind: "chunk-data", remaining: size };
          break;
        }
      }
    }
    if (!this.#body) this.#endOfPart();
    return i;
  }
}
