/**
 * A middleware that reads every request body within a size limit (413) and refuses one nested
 * deeper than 64 levels (400, issue 18) before any route sees it, for apps whose routes let the
 * framework read the body (zod-openapi's validator, `c.req.json()`): a 10,000-level body made
 * the catalogue's recursive code overflow its stack.
 *
 * The bytes are scanned as they arrive (`JsonDepthScanner`), so a deep body is refused at its
 * 65th bracket; the body read is then handed to Hono's body cache, which the validator and
 * `c.req.json()` / `text()` / `parseBody()` read from. Form bodies are limited, not scanned.
 * It takes the place of `limitBody`, with the same 413.
 */
import type { MiddlewareHandler } from "hono";
import { JsonDepthScanner, MAX_JSON_DEPTH } from "../../lib/validation/json_depth.ts";
import { ClientClosedError, httpError, isConnectionClosed } from "./errors.ts";

const FORM_TYPE = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/** The message of a body nested too deep (the one `jsonDepthProblem` gives). */
function tooDeep(): string {
  return `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels; flatten it`;
}

function tooLarge(maxBytes: number) {
  const size = maxBytes % (1024 * 1024) === 0
    ? `${maxBytes / (1024 * 1024)} MiB`
    : `${maxBytes} bytes`;
  return httpError(413, `Request body larger than ${maxBytes} bytes (${size})`);
}

/** Requests whose body the guard has read and scanned. */
const checked = new WeakSet<Request>();

/** Whether `guardJsonBody` read this request's body (now in Hono's body cache) and scanned it. */
export function bodyGuarded(request: Request): boolean {
  return checked.has(request);
}

/** Reads bodies within `maxBytes` (413) and refuses JSON nested deeper than 64 levels (400). */
export function guardJsonBody(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (body === null) return next();
    const declared = c.req.header("content-length");
    if (declared !== undefined && Number(declared) > maxBytes) throw tooLarge(maxBytes);
    const scan = FORM_TYPE.test(c.req.header("content-type") ?? "")
      ? undefined
      : new JsonDepthScanner(MAX_JSON_DEPTH);
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > maxBytes) throw tooLarge(maxBytes);
        if (scan?.feed(value)) throw httpError(400, tooDeep());
        chunks.push(value);
      }
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw isConnectionClosed(error) ? new ClientClosedError(error) : error;
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    // Hono reads every later `c.req.json()` / `text()` / `parseBody()` from its cache.
    (c.req.bodyCache as Record<string, unknown>)["arrayBuffer"] = Promise.resolve(bytes.buffer);
    if (scan) checked.add(c.req.raw);
    await next();
  };
}
