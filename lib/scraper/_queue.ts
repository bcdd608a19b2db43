/**
 * A queue that runs async tasks one after another, optionally spacing their starts.
 */

/** Runs a task after all earlier ones have settled. */
export type Enqueue = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A serial queue: each task starts once the previous one has settled and at least
 * `intervalMs` after the previous one started. A failed task does not stop the queue.
 */
export function serialQueue(intervalMs = 0): Enqueue {
  let tail: Promise<unknown> = Promise.resolve();
  let lastStart = -Infinity;
  return <T>(task: () => Promise<T>) => {
    const result = tail.then(async () => {
      const pause = lastStart + intervalMs - Date.now();
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
      lastStart = Date.now();
      return await task();
    });
    tail = result.catch(() => undefined);
    return result;
  };
}
