/**
 * The request body of the simulation services' submit routes, read within their bounds by the
 * JSON body reader and refused as `{ detail }`: over SIM_MAX_BODY_MB 413, nested deeper than 64
 * levels 400 (followed as the bytes arrive, so a deep body is refused before parsing), empty or
 * malformed 400.
 */
import type { Context } from "hono";
import { jsonDepthMessage } from "../../lib/validation/json_depth.ts";
import { readJsonBody } from "../middleware/json_body.ts";
import { detail, mib } from "./answers.ts";

/** Reads a JSON body of at most `max` bytes nested at most 64 levels: the value, or an error answer. */
export async function readJson(
  c: Context,
  max: number,
): Promise<{ value: unknown } | { response: Response }> {
  const read = await readJsonBody(c, max, { scanWhileReading: true });
  if (read.ok) return { value: read.value };
  switch (read.problem.kind) {
    case "too_large":
      return {
        response: detail(
          c,
          413,
          `Request body over ${max} bytes (SIM_MAX_BODY_MB = ${mib(max)}); a valid payload ` +
            "weighs less (a profile of one point per step for a year at 1-minute steps fits)",
        ),
      };
    case "too_deep":
      return { response: detail(c, 400, jsonDepthMessage()) };
    case "empty":
      return { response: detail(c, 400, "Request body is empty; send the payload as JSON") };
    case "malformed":
      return { response: detail(c, 400, `Malformed JSON: ${read.problem.reason}`) };
  }
}
