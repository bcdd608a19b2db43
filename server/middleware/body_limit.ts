/**
 * Request body limits, the same 413 `{ error }` in every service: `limitBody()` for routes that
 * let the framework read the body, `readBodyText()` for hot paths that read it themselves.
 *
 * readBodyText reads a request body as text within a size limit, without re-wrapping the request.
 *
 * Hono's bodyLimit, given a body without Content-Length (an in-process request, HTTP/2, or a
 * POST that sends nothing), buffers it and builds a new Request; on the calculation's hot path
 * that cost more than the calculation. Here a declared length is checked before reading, and an
 * undeclared one is counted while reading.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ClientClosedError, httpError, isConnectionClosed } from "./errors.ts";

/** Middleware that answers 413 for a body over `maxBytes`, before a handler reads it. */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw httpError(413, `Request body larger than ${maxBytes} bytes (${mebibytes(maxBytes)})`);
    },
  });
}

/**
 * The body as text; 413 when it has more than `maxBytes` bytes, "" when there is none,
 * ClientClosedError when the connection closes before the body has arrived.
 */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  try {
    return await readWithin(req, maxBytes);
  } catch (error) {
    throw isConnectionClosed(error) ? new ClientClosedError(error) : error;
  }
}

async function readWithin(req: Request, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    httpError(413, `Request body larger than ${maxBytes} bytes (${mebibytes(maxBytes)})`);
  const declared = req.headers.get("content-length");
  if (declared !== null && !req.headers.has("transfer-encoding")) {
    if (Number(declared) > maxBytes) throw tooLarge();
    return declared === "0" || !req.body ? "" : await req.text();
  }
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (size === 0) return "";
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

/** `1 MiB`, `2 MiB`, or bytes for limits that are not whole mebibytes. */
function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
