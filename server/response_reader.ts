/**
 * Follows the bytes a service answers on one HTTP/1.1 connection, just enough to see where each
 * response begins and ends, so the connection guard learns when (and only when) the service
 * has switched protocols: a `101` to a request that asked for an `Upgrade`, or a 2xx to a
 * CONNECT. Until then the client's bytes are HTTP/1.1 requests, with their deadlines (issue 18).
 * The bytes are never changed or kept beyond one header block.
 */
import {
  type AfterHeader,
  declaredBody,
  HeaderBlock,
  HttpFramingError,
  type MessagePhase,
  MessageStream,
  type ParsedHeader,
} from "./http_framing.ts";
import type { SentRequest } from "./request_reader.ts";

/** Where the service is in its answers. */
export type ResponsePhase = MessagePhase;

/** The largest response header block followed; a larger one stops following (opaque). */
export const MAX_RESPONSE_HEADER_BYTES = 1024 * 1024;

/** Tracks one connection's responses; `feed` every chunk the service sends, in order. */
export class ResponseReader {
  /** Whether the service switched protocols (101 to an upgrade, 2xx to a CONNECT). */
  switched = false;
  #stream = new MessageStream({
    header: new HeaderBlock(MAX_RESPONSE_HEADER_BYTES, "Response header block"),
    afterHeader: (header) => this.#afterHeader(header),
  });

  /** `nextRequest` gives the request the next final answer belongs to (its method, upgrade). */
  constructor(readonly nextRequest: () => SentRequest | undefined) {}

  /** Where the service is in its answers. */
  get phase(): ResponsePhase {
    return this.#stream.phase;
  }

  /**
   * Follows `chunk`. The service is trusted: framing this reader cannot follow stops it
   * (opaque) rather than failing the connection.
   */
  feed(chunk: Uint8Array): void {
    try {
      this.#stream.feed(chunk);
    } catch (error) {
      if (!(error instanceof HttpFramingError)) throw error;
      this.stop();
    }
  }

  /** Stops following (the connection is no longer HTTP/1.1). */
  stop(): void {
    this.#stream.stop();
  }

  #afterHeader({ startLine, fields }: ParsedHeader): AfterHeader {
    const status = Number(startLine.split(" ")[1]);
    // An interim answer (100 Continue, 103 Early Hints): the final one follows.
    if (status >= 100 && status < 200 && status !== 101) return undefined;
    const request = this.nextRequest();
    if ((status === 101 && request?.upgrade) || (request?.connect && status < 300)) {
      this.switched = true;
      return "opaque";
    }
    return request?.head || status === 101 || status === 204 || status === 304
      ? undefined
      : declaredBody(fields) ?? { kind: "close" };
  }
}
