/**
 * A JSON answer written as a stream of pieces rather than one string: a year of 1-minute steps
 * is some 250 MB of JSON, which `JSON.stringify` can build only in one blocking call (and beyond
 * about 512 MB not at all: "Invalid string length"). Each pull writes about `CHUNK_CHARS` of
 * text; the writer yields to the event loop every few milliseconds of work, so other requests
 * are answered while a large result goes out, and a client that reads slowly holds only what
 * it has not read of one chunk.
 */
import { WorkSlices } from "../../lib/concurrency/yield_to_event_loop.ts";
import { jsonPieces } from "../../lib/simulation/json_pieces.ts";

/** Characters of JSON per chunk of the stream. */
export const CHUNK_CHARS = 256 * 1024;

/** Work between two yields to the event loop, ms. */
const SLICE_MS = 8;

/** The JSON text of `value` as a byte stream, written as the reader pulls. */
export function jsonStream(value: unknown): ReadableStream<Uint8Array> {
  const pieces = jsonPieces(value);
  const encoder = new TextEncoder();
  const slices = new WorkSlices(SLICE_MS);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await slices.yieldIfDue();
      const parts: string[] = [];
      let length = 0;
      while (length < CHUNK_CHARS) {
        const next = pieces.next();
        if (next.done) {
          if (parts.length > 0) controller.enqueue(encoder.encode(parts.join("")));
          controller.close();
          return;
        }
        parts.push(next.value);
        length += next.value.length;
      }
      controller.enqueue(encoder.encode(parts.join("")));
    },
    cancel() {
      pieces.return(undefined);
    },
  });
}

/** A `200` (or `status`) JSON answer whose body is `value` streamed. */
export function jsonStreamResponse(value: unknown, status = 200): Response {
  return new Response(jsonStream(value), {
    status,
    headers: { "content-type": "application/json" },
  });
}
