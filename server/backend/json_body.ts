/**
 * Request bodies of the backend (and of the extraction service's run route): read within the
 * size limit (413), refused when nested deeper than 64 levels (400, before anything recursive
 * meets them), parsed as JSON (malformed: 400), and required to be one JSON object (anything
 * else: 400).
 */
import type { Context } from "hono";
import { jsonDepthProblem } from "../../lib/validation/json_depth.ts";
import { readBodyText } from "../middleware/body_limit.ts";
import { httpError } from "../middleware/errors.ts";
import { bodyGuarded } from "../middleware/json_body_guard.ts";

/** The body's text and its parsed object; `optional` lets an empty body be `{}`. */
export async function readJsonObject(
  c: Context,
  maxBytes: number,
  optional = false,
): Promise<{ text: string; value: Record<string, unknown> }> {
  // Behind `guardJsonBody` (the backend's /api routes) the body was read within its limit and
  // scanned already, and waits in Hono's cache; elsewhere (the extraction service) it is read here.
  const guarded = bodyGuarded(c.req.raw);
  const text = guarded ? await c.req.text() : await readBodyText(c.req.raw, maxBytes);
  if (text.trim() === "") {
    if (optional) return { text: "{}", value: {} };
    throw httpError(400, "The request body must be a JSON object; it is empty");
  }
  const tooDeep = guarded ? undefined : jsonDepthProblem(text);
  if (tooDeep) throw httpError(400, tooDeep);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw httpError(400, `Malformed JSON in the request body: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw httpError(
      400,
      `The request body must be a JSON object, not ${
        value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
      }`,
    );
  }
  return { text, value: value as Record<string, unknown> };
}
