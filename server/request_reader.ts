/**
 * Follows the bytes a client sends on one HTTP/1.1 connection, just enough to tell where each
 * request's header block and body begin and end, so the connection guard can time them: it never
 * changes or buffers the bytes it is shown (only a header block, up to a limit, to read the
 * method, Content-Length, Transfer-Encoding and Upgrade).
 *
 * A request that asks for an `Upgrade` is followed like any other: what comes next is HTTP/1.1
 * until the service has actually switched protocols (its `101`, seen by `response_reader.ts`),
 * and only then `upgrade()` stops following (issue 18: before, the header alone did, and a
 * connection whose upgrade was answered 200 escaped the header deadline). An HTTP/2 preface
 * stops following at once.
 */
import {
  BodyFollower,
  declaredBody,
  HeaderBlock,
  HttpFramingError as RequestFramingError,
} from "./http_framing.ts";

export { RequestFramingError };

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

/** What the answer to one request depends on. */
export interface SentRequest {
  /** A HEAD: its answer has no body whatever its headers say. */
  head: boolean;
  /** A CONNECT: a 2xx answer turns the connection into a tunnel. */
  connect: boolean;
  /** It asked for an `Upgrade`: a 101 answer switches protocols. */
  upgrade: boolean;
}

/** Requests a client may send ahead of their answers (pipelining) before it is refused. */
export const MAX_UNANSWERED = 1024;

const CR = 13;
const LF = 10;
const HTTP2_PREFACE = "PRI * HTTP/2.0";

/** Tracks one connection's requests; `feed` every chunk the client sends, in order. */
export class RequestReader {
  phase: RequestPhase = "idle";
  /** Requests whose header block is complete. */
  requests = 0;
  #header: HeaderBlock;
  #body: BodyFollower | undefined;
  /** Requests whose answers have not begun, oldest first. */
  #unanswered: SentRequest[] = [];

  constructor(readonly maxHeaderBytes: number) {
    this.#header = new HeaderBlock(maxHeaderBytes, "Request header block");
  }

  /** Follows `chunk`; throws RequestFramingError for a header block too large or unreadable. */
  feed(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length && this.phase !== "opaque") {
      if (this.phase === "idle") {
        // Empty lines between requests are allowed (RFC 9112 §2.2).
        while (i < chunk.length && (chunk[i] === CR || chunk[i] === LF)) i++;
        if (i === chunk.length) return;
        this.phase = "headers";
        this.#header.reset();
      }
      if (this.phase === "headers") {
        const end = this.#header.feed(chunk, i);
        if (end < 0) return;
        i = end;
        this.#startBody();
      } else if (this.phase === "body" && this.#body) {
        i = this.#body.feed(chunk, i);
        if (this.#body.done) {
          this.#body = undefined;
          this.phase = "idle";
        }
      }
    }
  }

  /** The service switched protocols (or opened a tunnel): stop following. */
  upgrade(): void {
    this.phase = "opaque";
    this.#body = undefined;
  }

  /** The oldest request whose answer has not begun, taken off the list; undefined if none. */
  nextUnanswered(): SentRequest | undefined {
    return this.#unanswered.shift();
  }

  #startBody(): void {
    this.requests++;
    const { startLine, fields } = this.#header.parse();
    if (startLine.startsWith(HTTP2_PREFACE)) {
      this.phase = "opaque";
      return;
    }
    if (this.#unanswered.length >= MAX_UNANSWERED) {
      throw new RequestFramingError(
        `More than ${MAX_UNANSWERED} requests sent ahead of their answers`,
        400,
      );
    }
    const method = startLine.slice(0, startLine.indexOf(" ")).toUpperCase();
    this.#unanswered.push({
      head: method === "HEAD",
      connect: method === "CONNECT",
      upgrade: fields.some(([name]) => name === "upgrade"),
    });
    const length = declaredBody(fields);
    const body = length ? new BodyFollower(length) : undefined;
    this.#body = body?.done ? undefined : body;
    this.phase = this.#body ? "body" : "idle";
  }
}
