/**
 * Turns for the event loop during long work on it (scanning a body, writing a result as JSON,
 * advancing a simulation): one service's large job must not keep another's requests waiting.
 */

/**
 * Waits one turn of the event loop. `setTimeout(0)` (not a microtask or a MessageChannel, both
 * of which starve socket I/O in Deno) lets requests and socket writes through between slices.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Work cut into slices of at most `sliceMs`: call `yieldIfDue()` between small steps; it gives
 * the event loop a turn once the current slice has run that long.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const slices = new WorkSlices(8);
 * let sum = 0;
 * for (let piece = 1; piece <= 1000; piece++) {
 *   sum += piece; // the work
 *   await slices.yieldIfDue();
 * }
 * assert.equal(sum, 500500);
 * ```
 */
export class WorkSlices {
  #since = performance.now();

  constructor(readonly sliceMs: number) {}

  /** Yields when the slice has run `sliceMs` or longer, starting the next one. */
  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.#since < this.sliceMs) return;
    await yieldToEventLoop();
    this.#since = performance.now();
  }
}
