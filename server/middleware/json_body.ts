/**
 * The one reader of JSON request bodies: the body read within a byte limit, refused when nested
 * deeper than 64 levels (before anything recursive meets it), parsed as JSON. It answers nothing
 * itself: it says what was wrong, and each service words the answer in its own format, so every
 * status and text stays the service's (the backend and the extraction service through
 * `readJsonObject`, the heat calculation's overrides, the simulations' `{ detail }`).
 */
import type { Context } from "hono";
import { jsonDepthProblem } from "../../lib/validation/json_depth.ts";
import { BodyTooLargeError, readBodyTextWithin } from "./body_limit.ts";
import { bodyGuarded, JsonTooDeepError, readScannedBytes } from "./json_body_guard.ts";

/** What was wrong with a body; the service words its answer to each. */
export type JsonBodyProblem =
  /** More bytes than the limit, declared or counted. */
  | { kind: "too_large" }
  /** Nested deeper than MAX_JSON_DEPTH (answered with `jsonDepthMessage()`). */
  | { kind: "too_deep" }
  /** No body, or only white space. */
  | { kind: "empty" }
  /** Not JSON; `reason` is the parser's message. */
  | { kind: "malformed"; reason: string };

/** A body read: its text and value, or what was wrong with it. */
export type JsonBody =
  | { ok: true; text: string; value: unknown }
  | { ok: false; problem: JsonBodyProblem };

/** How a service reads its bodies. */
export interface JsonBodyOptions {
  /**
   * Follow the nesting as the bytes arrive, refusing a deep body before the rest of it is read
   * (the simulations, whose bodies run to SIM_MAX_BODY_MB). Without it the text is read first,
   * which lets the runtime read a body of declared length itself (the calculation's hot path),
   * and scanned once.
   */
  scanWhileReading?: boolean;
}

function refused(kind: "too_large" | "too_deep" | "empty"): JsonBody {
  return { ok: false, problem: { kind } };
}

/**
 * Reads the request's JSON body of at most `maxBytes` bytes. The checks run in this order: the
 * size, an empty body, the nesting, the syntax. A connection closed before the body has arrived
 * is a ClientClosedError, thrown.
 */
export async function readJsonBody(
  c: Context,
  maxBytes: number,
  options: JsonBodyOptions = {},
): Promise<JsonBody> {
  // Behind `guardJsonBody` (the backend's /api routes) the body was read within its limit and
  // scanned already, and waits in Hono's cache.
  const guarded = bodyGuarded(c.req.raw);
  const scanned = guarded || options.scanWhileReading === true;
  let text: string;
  try {
    text = guarded
      ? await c.req.text()
      : options.scanWhileReading
      ? new TextDecoder().decode(await readScannedBytes(c.req.raw, maxBytes))
      : await readBodyTextWithin(c.req.raw, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refused("too_large");
    if (error instanceof JsonTooDeepError) return refused("too_deep");
    throw error;
  }
  if (text.trim() === "") return refused("empty");
  if (!scanned && jsonDepthProblem(text) !== undefined) return refused("too_deep");
  try {
    return { ok: true, text, value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: { kind: "malformed", reason } };
  }
}
