/**
 * What goes to a Worker: a structured clone copies, and a transfer moves, a typed array's whole
 * buffer, not just the part the view covers.
 */

/** `view` when it covers its whole ArrayBuffer, else a copy of just its part (its own buffer). */
export function ownBufferView<V extends Float64Array | Int32Array | Uint8Array>(view: V): V {
  const whole = view.buffer instanceof ArrayBuffer && view.byteLength === view.buffer.byteLength;
  return whole ? view : view.slice() as V;
}
