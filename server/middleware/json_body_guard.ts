/**
 * A middleware that reads every request body within a size limit (413) and refuses one nested
 * deeper than 64 levels (400, issue 18) before any route sees it, for apps whose routes let the
 * framework read the body (zod-openapi's validator, `c.req.json()`): a 10,000-level body made
 * the catalogue's recursive code overflow its stack.
 *
 * The bytes are scanned as they arrive (`JsonDepthScanner`), so a deep body is refused at its
 * 65th bracket; the body read is then handed to Hono's body cache, which the validator and
 * `c.req.json()` / `text()` / `parseBody()` read from. Form bodies are limited, not scanned.
 * It takes the place of `limitBody`, with the same 413. Its scanning read, `readScannedBytes`,
 * is the JSON body reader's too (`json_body.ts`).
 */
import type { MiddlewareHandler } from "hono";
import {
  jsonDepthMessage,
  JsonDepthScanner,
  MAX_JSON_DEPTH,
} from "../../lib/validation/json_depth.ts";
import { bodyTooLarge, BodyTooLargeError, readBodyBytes } from "./body_limit.ts";
import { httpError } from "./errors.ts";

const FORM_TYPE = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/** Requests whose body the guard has read and scanned. */
const checked = new WeakSet<Request>();

/** Whether `guardJsonBody` read this request's body (now in Hono's body cache) and scanned it. */
export function bodyGuarded(request: Request): boolean {
  return checked.has(request);
}

/** Reads bodies within `maxBytes` (413) and refuses JSON nested deeper than 64 levels (400). */
export function guardJsonBody(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.raw.body === null) return next();
    const scan = !FORM_TYPE.test(c.req.header("content-type") ?? "");
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = scan
        ? await readScannedBytes(c.req.raw, maxBytes)
        : await readBodyBytes(c.req.raw, maxBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw bodyTooLarge(maxBytes);
      if (error instanceof JsonTooDeepError) throw httpError(400, jsonDepthMessage());
      throw error;
    }
    // Hono reads every later `c.req.json()` / `text()` / `parseBody()` from its cache.
    (c.req.bodyCache as Record<string, unknown>)["arrayBuffer"] = Promise.resolve(bytes.buffer);
    if (scan) checked.add(c.req.raw);
    await next();
  };
}

/** Thrown by `readScannedBytes` for a body nested deeper than MAX_JSON_DEPTH. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(jsonDepthMessage());
  }
}

/**
 * The body's bytes within `maxBytes` (BodyTooLargeError beyond), its nesting followed as they
 * arrive (`JsonDepthScanner`), so a deep body is refused at its 65th bracket (JsonTooDeepError)
 * before the rest of it is read.
 */
export function readScannedBytes(
  req: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const scan = new JsonDepthScanner(MAX_JSON_DEPTH);
  return readBodyBytes(req, maxBytes, (chunk) => {
    if (scan.feed(chunk)) throw new JsonTooDeepError();
  });
}
