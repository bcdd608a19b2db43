/**
 * `POST /run`'s body, checked for its shape only and kept as bytes: the declared media type,
 * the size cap, JSON syntax, nesting at most 64 levels, a top-level object that is not empty.
 * Everything is checked as the body streams in, chunk by chunk, without building any value and
 * yielding to the event loop during long stretches of scanning, so a 60 MB body never stalls
 * the other services of the process. The model itself is parsed and validated in the job's
 * Worker (lib/runner/run_body_in_worker.ts).
 */
import {
  jsonDepthProblem,
  JsonDepthScanner,
  MAX_JSON_DEPTH,
} from "../../lib/validation/json_depth.ts";
import { JsonSyntaxScanner } from "../../lib/validation/json_syntax_scanner.ts";
import { ClientClosedError, httpError, isConnectionClosed } from "../middleware/errors.ts";

/** The message of an empty model (`{}`), as the predecessor worded it. */
export const EMPTY_MODEL_MESSAGE = "Empty model payload";

/** The message of a body that is not JSON; the reason and the byte follow it. */
export const MALFORMED_MESSAGE = "Malformed JSON in request body";

/** The 400 of a body nested too deeply, worded as every service words it. */
const DEPTH_MESSAGE = jsonDepthProblem("[".repeat(MAX_JSON_DEPTH + 1))!;

/** Bytes scanned between two looks at the clock. */
const SLICE_BYTES = 256 * 1024;

/** Longest stretch of scanning before the event loop gets a turn, ms. */
const MAX_BUSY_MS = 8;

/** `application/json` or `application/<x>+json`, with parameters (zod-openapi's rule). */
const JSON_MEDIA_TYPE = /^application\/([a-z-\.]+\+)?json(;\s*[a-zA-Z0-9\-]+\=([^;]+))*$/i;

const yieldToLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The body's bytes once its shape is right; throws the HTTP error otherwise: 415 (not declared
 * JSON), 413 (over `maxBytes`, declared or counted), 400 (malformed, nested deeper than 64, not
 * an object, `{}`, or a connection closed before the end).
 */
export async function readModelBody(req: Request, maxBytes: number): Promise<Uint8Array> {
  try {
    return await readChecked(req, maxBytes);
  } catch (error) {
    throw isConnectionClosed(error) ? new ClientClosedError(error) : error;
  }
}

async function readChecked(req: Request, maxBytes: number): Promise<Uint8Array> {
  const type = req.headers.get("content-type");
  if (type !== null ? !JSON_MEDIA_TYPE.test(type) : req.body !== null) {
    // A body without a media type is refused as well: nothing says it is JSON.
    await req.body?.cancel();
    throw httpError(415, "Unsupported Media Type");
  }
  const tooLarge = () =>
    httpError(413, `Request body larger than ${maxBytes} bytes (${mebibytes(maxBytes)})`);
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await req.body?.cancel();
    throw tooLarge();
  }
  if (req.body === null) {
    // No body and no media type: nothing was sent at all.
    if (type === null) throw httpError(400, EMPTY_MODEL_MESSAGE);
    throw httpError(400, `${MALFORMED_MESSAGE}: no JSON value (at byte 0)`);
  }

  const syntax = new JsonSyntaxScanner();
  const depth = new JsonDepthScanner(MAX_JSON_DEPTH);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let busySince = performance.now();
  const reader = req.body.getReader();
  const refuse = async (error: Error) => {
    await reader.cancel().catch(() => {});
    throw error;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) await refuse(tooLarge());
    chunks.push(value);
    // A chunk may be the whole body (an in-process request): scanned in slices, with a turn
    // for the event loop whenever scanning has held it for a while.
    for (let start = 0; start < value.length; start += SLICE_BYTES) {
      const slice = value.subarray(start, start + SLICE_BYTES);
      if (depth.feed(slice)) await refuse(httpError(400, DEPTH_MESSAGE));
      if (!syntax.feed(slice)) {
        await refuse(httpError(400, `${MALFORMED_MESSAGE}: ${syntax.error}`));
      }
      const rootProblem = shapeProblem(syntax);
      if (rootProblem !== undefined) await refuse(rootProblem);
      if (performance.now() - busySince > MAX_BUSY_MS) {
        await yieldToLoop();
        busySince = performance.now();
      }
    }
  }
  if (!syntax.finish()) throw httpError(400, `${MALFORMED_MESSAGE}: ${syntax.error}`);
  if (syntax.emptyRootObject) throw httpError(400, EMPTY_MODEL_MESSAGE);
  return await concat(chunks, size);
}

/** 400 as soon as the top-level value is known not to be an object. */
function shapeProblem(syntax: JsonSyntaxScanner): Error | undefined {
  if (syntax.root === undefined || syntax.root === "object") return undefined;
  return httpError(400, "Invalid request body: must be an object", [
    { path: "", message: "must be an object" },
  ]);
}

/**
 * The chunks as one exactly sized array (its buffer is moved to the job's Worker later). Copying
 * 60 MB into fresh memory takes a few hundred ms on a slow machine: it yields like the scan.
 */
async function concat(chunks: readonly Uint8Array[], size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  let busySince = performance.now();
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.length; start += SLICE_BYTES) {
      const slice = chunk.subarray(start, start + SLICE_BYTES);
      bytes.set(slice, offset);
      offset += slice.length;
      if (performance.now() - busySince > MAX_BUSY_MS) {
        await yieldToLoop();
        busySince = performance.now();
      }
    }
  }
  return bytes;
}

/** `64 MiB`, or bytes for limits that are not whole mebibytes. */
function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
