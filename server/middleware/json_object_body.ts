/**
 * Request bodies of the backend and of the extraction service's run route: one JSON object, read
 * by the JSON body reader and refused as `{ error }`: over the size limit 413 (the same text in
 * every service), nested deeper than 64 levels 400, malformed 400, anything but an object 400.
 */
import type { Context } from "hono";
import { jsonDepthMessage } from "../../lib/validation/json_depth.ts";
import { bodyTooLarge } from "./body_limit.ts";
import { httpError } from "./errors.ts";
import { readJsonBody } from "./json_body.ts";

/** The body's text and its parsed object; `optional` lets an empty body be `{}`. */
export async function readJsonObject(
  c: Context,
  maxBytes: number,
  optional = false,
): Promise<{ text: string; value: Record<string, unknown> }> {
  const read = await readJsonBody(c, maxBytes);
  if (!read.ok) {
    switch (read.problem.kind) {
      case "too_large":
        throw bodyTooLarge(maxBytes);
      case "empty":
        if (optional) return { text: "{}", value: {} };
        throw httpError(400, "The request body must be a JSON object; it is empty");
      case "too_deep":
        throw httpError(400, jsonDepthMessage());
      case "malformed":
        throw httpError(400, `Malformed JSON in the request body: ${read.problem.reason}`);
    }
  }
  const { text, value } = read;
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
