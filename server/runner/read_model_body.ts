/**
 * `POST /run`'s body, checked for its shape only and kept as bytes: the declared media type,
 * the size cap, JSON syntax, nesting at most 64 levels, a top-level object that is not empty.
 * Everything is checked as the body streams in, chunk by chunk, in one pass that builds no
 * value and yields to the event loop during long stretches of scanning, so a 60 MB body never
 * stalls the other services of the process. The model itself is parsed and validated in the
 * job's Worker (lib/runner/run_body_in_worker.ts).
 */
import { jsonDepthMessage, MAX_JSON_DEPTH } from "../../lib/validation/json_depth.ts";
import { WorkSlices } from "../../lib/concurrency/yield_to_event_loop.ts";
import { JsonSyntaxScanner } from "../../lib/validation/json_syntax_scanner.ts";
import { bodyTooLarge, BodyTooLargeError, readBodyBytes } from "../middleware/body_limit.ts";
import { httpError } from "../middleware/errors.ts";

/** The message of an empty model (`{}`), as the predecessor worded it. */
export const EMPTY_MODEL_MESSAGE = "Empty model payload";

/** The message of a body that is not JSON; the reason and the byte follow it. */
export const MALFORMED_MESSAGE = "Malformed JSON in request body";

/** Bytes scanned between two looks at the clock. */
const SLICE_BYTES = 256 * 1024;

/** Longest stretch of scanning before the event loop gets a turn, ms. */
const MAX_BUSY_MS = 8;

/** `application/json` or `application/<x>+json`, with parameters (zod-openapi's rule). */
const JSON_MEDIA_TYPE = /^application\/([a-z-\.]+\+)?json(;\s*[a-zA-Z0-9\-]+\=([^;]+))*$/i;

/**
 * The body's bytes once its shape is right; throws the HTTP error otherwise: 415 (not declared
 * JSON), 413 (over `maxBytes`, declared or counted), 400 (malformed, nested deeper than 64, not
 * an object, `{}`, or a connection closed before the end).
 */
export async function readModelBody(req: Request, maxBytes: number): Promise<Uint8Array> {
  const type = req.headers.get("content-type");
  if (type !== null ? !JSON_MEDIA_TYPE.test(type) : req.body !== null) {
    // A body without a media type is refused as well: nothing says it is JSON.
    await req.body?.cancel();
    throw httpError(415, "Unsupported Media Type");
  }
  const sent = req.body !== null;
  // Syntax and nesting in one pass: the scanner fails at the 65th level, saying so.
  const syntax = new JsonSyntaxScanner(MAX_JSON_DEPTH);
  const slices = new WorkSlices(MAX_BUSY_MS);
  // A chunk may be the whole body (an in-process request): scanned in slices, with a turn for
  // the event loop whenever scanning has held it for a while.
  const scan = async (chunk: Uint8Array) => {
    for (let start = 0; start < chunk.length; start += SLICE_BYTES) {
      if (!syntax.feed(chunk.subarray(start, start + SLICE_BYTES))) {
        throw httpError(
          400,
          syntax.tooDeep ? jsonDepthMessage() : `${MALFORMED_MESSAGE}: ${syntax.error}`,
        );
      }
      if (syntax.root !== undefined && syntax.root !== "object") {
        // Refused as soon as the top-level value is known not to be an object.
        throw httpError(400, "Invalid request body: must be an object", [
          { path: "", message: "must be an object" },
        ]);
      }
      await slices.yieldIfDue();
    }
  };
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(req, maxBytes, scan);
  } catch (error) {
    throw error instanceof BodyTooLargeError ? bodyTooLarge(maxBytes) : error;
  }
  if (!sent) {
    // No body and no media type: nothing was sent at all.
    if (type === null) throw httpError(400, EMPTY_MODEL_MESSAGE);
    throw httpError(400, `${MALFORMED_MESSAGE}: no JSON value (at byte 0)`);
  }
  if (!syntax.finish()) throw httpError(400, `${MALFORMED_MESSAGE}: ${syntax.error}`);
  if (syntax.emptyRootObject) throw httpError(400, EMPTY_MODEL_MESSAGE);
  return bytes;
}
