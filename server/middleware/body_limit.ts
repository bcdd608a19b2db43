/**
 * Request body limits, the same 413 `{ error }` in every service: `limitBody()` for routes that
 * let the framework read the body, `readBodyText()` for hot paths that read it themselves, and
 * `readBodyBytes()`, the one loop that reads a body within a limit, for readers that also look
 * at each chunk as it arrives (the JSON guard and body reader, the runner's shape check, the
 * catalogue proxy).
 *
 * Hono's bodyLimit, given a body without Content-Length (an in-process request, HTTP/2, or a
 * POST that sends nothing), buffers it and builds a new Request; on the calculation's hot path
 * that cost more than the calculation. Here a declared length is checked before reading, and an
 * undeclared one is counted while reading.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { WorkSlices } from "../../lib/concurrency/yield_to_event_loop.ts";
import { ClientClosedError, httpError, isConnectionClosed } from "./errors.ts";

/** The 413 of a body over `maxBytes`, worded alike by every service. */
export function bodyTooLarge(maxBytes: number) {
  return httpError(413, `Request body larger than ${maxBytes} bytes (${mebibytes(maxBytes)})`);
}

/** Middleware that answers 413 for a body over `maxBytes`, before a handler reads it. */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw bodyTooLarge(maxBytes);
    },
  });
}

/** Thrown by `readBodyBytes` for a body over its limit; each caller words its own answer. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Request body larger than ${maxBytes} bytes`);
  }
}

/** Bytes copied between two looks at the clock, when the chunks are joined. */
const SLICE_BYTES = 256 * 1024;

/** Longest stretch of copying before the event loop gets a turn, ms. */
const MAX_BUSY_MS = 8;

/**
 * The body's bytes, at most `maxBytes`: a declared Content-Length over it is refused before
 * reading, an undeclared one counted while reading (BodyTooLargeError either way). `onChunk`
 * sees each chunk as it arrives and may refuse the body by throwing. Any failure cancels the
 * rest of the body; a connection closed by the client becomes ClientClosedError. The chunks are
 * joined with turns for the event loop, so a body of tens of MB never holds it for long.
 */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
  onChunk?: (chunk: Uint8Array) => void | Promise<void>,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await req.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes);
  }
  if (req.body === null) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
      await onChunk?.(value);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw isConnectionClosed(error) ? new ClientClosedError(error) : error;
  }
  return await joinChunks(chunks, size);
}

/** The chunks as one exactly sized array, copied in slices with turns for the event loop. */
async function joinChunks(
  chunks: readonly Uint8Array[],
  size: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  const slices = new WorkSlices(MAX_BUSY_MS);
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.length; start += SLICE_BYTES) {
      const slice = chunk.subarray(start, start + SLICE_BYTES);
      bytes.set(slice, offset);
      offset += slice.length;
      await slices.yieldIfDue();
    }
  }
  return bytes;
}

/**
 * The body as text; 413 when it has more than `maxBytes` bytes, "" when there is none,
 * ClientClosedError when the connection closes before the body has arrived.
 */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  try {
    return await readBodyTextWithin(req, maxBytes);
  } catch (error) {
    throw error instanceof BodyTooLargeError ? bodyTooLarge(maxBytes) : error;
  }
}

/**
 * The body as text, as `readBodyText` reads it, but a body over `maxBytes` is a
 * BodyTooLargeError, for readers that word their own answer (the JSON body reader).
 */
export async function readBodyTextWithin(req: Request, maxBytes: number): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared !== null && !req.headers.has("transfer-encoding")) {
    // The hot path: a declared length is checked, then the runtime reads the text itself.
    if (Number(declared) > maxBytes) throw new BodyTooLargeError(maxBytes);
    if (declared === "0" || !req.body) return "";
    try {
      return await req.text();
    } catch (error) {
      throw isConnectionClosed(error) ? new ClientClosedError(error) : error;
    }
  }
  const bytes = await readBodyBytes(req, maxBytes);
  return bytes.length === 0 ? "" : new TextDecoder().decode(bytes);
}

/** `1 MiB`, `2 MiB`, or bytes for limits that are not whole mebibytes. */
function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
