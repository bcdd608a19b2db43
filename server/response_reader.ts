/**
 * Follows the bytes a service answers on one HTTP/1.1 connection, just enough to see where each
 * response begins and ends, so the connection guard learns when (and only when) the service
 * has switched protocols: a `101` to a request that asked for an `Upgrade`, or a 2xx to a
 * CONNECT. Until then the client's bytes are HTTP/1.1 requests, with their deadlines (issue 18).
 * The bytes are never changed or kept beyond one header block.
 */
import { BodyFollower, declaredBody, HeaderBlock, HttpFramingError } from "./http_framing.ts";
import type { SentRequest } from "./request_reader.ts";

/** Where the service is in its answers. */
export type ResponsePhase = "idle" | "headers" | "body" | "opaque";

/** The largest response header block followed; a larger one stops following (opaque). */
export const MAX_RESPONSE_HEADER_BYTES = 1024 * 1024;

/** Tracks one connection's responses; `feed` every chunk the service sends, in order. */
export class ResponseReader {
  phase: ResponsePhase = "idle";
  /** Whether the service switched protocols (101 to an upgrade, 2xx to a CONNECT). */
  switched = false;
  #header = new HeaderBlock(MAX_RESPONSE_HEADER_BYTES, "Response header block");
  #body: BodyFollower | undefined;

  /** `nextRequest` gives the request the next final answer belongs to (its method, upgrade). */
  constructor(readonly nextRequest: () => SentRequest | undefined) {}

  /**
   * Follows `chunk`. The service is trusted: framing this reader cannot follow stops it
   * (opaque) rather than failing the connection.
   */
  feed(chunk: Uint8Array): void {
    try {
      this.#feed(chunk);
    } catch (error) {
      if (!(error instanceof HttpFramingError)) throw error;
      this.phase = "opaque";
    }
  }

  /** Stops following (the connection is no longer HTTP/1.1). */
  stop(): void {
    this.phase = "opaque";
    this.#body = undefined;
  }

  #feed(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length && this.phase !== "opaque") {
      if (this.phase === "idle") {
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

  #startBody(): void {
    const { startLine, fields } = this.#header.parse();
    const status = Number(startLine.split(" ")[1]);
    if (status >= 100 && status < 200 && status !== 101) {
      // An interim answer (100 Continue, 103 Early Hints): the final one follows.
      this.phase = "idle";
      return;
    }
    const request = this.nextRequest();
    if ((status === 101 && request?.upgrade) || (request?.connect && status < 300)) {
      this.switched = true;
      this.stop();
      return;
    }
    const length = request?.head || status === 101 || status === 204 || status === 304
      ? undefined
      : declaredBody(fields) ?? { kind: "close" as const };
    const body = length ? new BodyFollower(length) : undefined;
    this.#body = body?.done ? undefined : body;
    this.phase = this.#body ? "body" : "idle";
  }
}
