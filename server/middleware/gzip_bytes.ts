/**
 * Answers that are built once and kept as bytes (a page of buildings, the model list) are also
 * kept gzipped for clients that accept it: JSON of repeated records shrinks about tenfold, and
 * compressing once beats compressing every answer.
 */

/** Whether the request accepts a gzipped answer. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return /\bgzip\b/.test(acceptEncoding ?? "");
}

/** The bytes gzipped (CompressionStream, off the JavaScript thread's hot path). */
export async function gzipBytes(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
