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
  type AfterHeader,
  declaredBody,
  HeaderBlock,
  HttpFramingError as RequestFramingError,
  type MessagePhase,
  MessageStream,
  type ParsedHeader,
} from "./http_framing.ts";

export { RequestFramingError };

/** Where the client is in its requests ("opaque": upgraded, or HTTP/2). */
export type RequestPhase = MessagePhase;

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

const HTTP2_PREFACE = "PRI * HTTP/2.0";

/** Tracks one connection's requests; `feed` every chunk the client sends, in order. */
export class RequestReader {
  /** Requests whose header block is complete. */
  requests = 0;
  #stream: MessageStream;
  /** Requests whose answers have not begun, oldest first. */
  #unanswered: SentRequest[] = [];

  constructor(readonly maxHeaderBytes: number) {
    this.#stream = new MessageStream({
      header: new HeaderBlock(maxHeaderBytes, "Request header block"),
      afterHeader: (header) => this.#afterHeader(header),
      blankLinesBetween: true,
    });
  }

  /** Where the client is in its requests. */
  get phase(): RequestPhase {
    return this.#stream.phase;
  }

  /** Follows `chunk`; throws RequestFramingError for a header block too large or unreadable. */
  feed(chunk: Uint8Array): void {
    this.#stream.feed(chunk);
  }

  /** The service switched protocols (or opened a tunnel): stop following. */
  upgrade(): void {
    this.#stream.stop();
  }

  /** The oldest request whose answer has not begun, taken off the list; undefined if none. */
  nextUnanswered(): SentRequest | undefined {
    return this.#unanswered.shift();
  }

  #afterHeader({ startLine, fields }: ParsedHeader): AfterHeader {
    this.requests++;
    if (startLine.startsWith(HTTP2_PREFACE)) return "opaque";
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
    return declaredBody(fields);
  }
}
