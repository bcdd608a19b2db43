/**
 * The request body of the simulation services' submit routes, read within their bounds: at
 * most SIM_MAX_BODY_MB (413 beyond) and nested at most 64 levels (400 beyond).
 */
import type { Context } from "hono";
import {
  jsonDepthMessage,
  JsonDepthScanner,
  MAX_JSON_DEPTH,
} from "../../lib/validation/json_depth.ts";
import { BodyTooLargeError, readBodyBytes } from "../middleware/body_limit.ts";
import { detail, mib } from "./answers.ts";

/** Thrown while reading when the body nests too deep. */
class TooDeep extends Error {}

/**
 * Reads a JSON body of at most `max` bytes nested at most 64 levels: the value, or an error
 * answer. The depth is followed as the bytes arrive, so a deep body is refused before parsing.
 */
export async function readJson(
  c: Context,
  max: number,
): Promise<{ value: unknown } | { response: Response }> {
  const depth = new JsonDepthScanner(MAX_JSON_DEPTH);
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(c.req.raw, max, (chunk) => {
      if (depth.feed(chunk)) throw new TooDeep();
    });
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      return {
        response: detail(
          c,
          413,
          `Request body over ${max} bytes (SIM_MAX_BODY_MB = ${mib(max)}); a valid payload ` +
            "weighs less (a profile of one point per step for a year at 1-minute steps fits)",
        ),
      };
    }
    if (error instanceof TooDeep) return { response: detail(c, 400, jsonDepthMessage()) };
    throw error;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") {
    return { response: detail(c, 400, "Request body is empty; send the payload as JSON") };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return {
      response: detail(c, 400, `Malformed JSON: ${error instanceof Error ? error.message : error}`),
    };
  }
}
