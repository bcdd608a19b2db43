/**
 * Request bodies of the backend: read within the size limit (413), parsed as JSON (malformed:
 * 400), and required to be one JSON object (anything else: 400).
 */
import type { Context } from "hono";
import { readBodyText } from "../middleware/body_limit.ts";
import { httpError } from "../middleware/errors.ts";

/** The body's text and its parsed object; `optional` lets an empty body be `{}`. */
export async function readJsonObject(
  c: Context,
  maxBytes: number,
  optional = false,
): Promise<{ text: string; value: Record<string, unknown> }> {
  const text = await readBodyText(c.req.raw, maxBytes);
  if (text.trim() === "") {
    if (optional) return { text: "{}", value: {} };
    throw httpError(400, "The request body must be a JSON object; it is empty");
  }
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
