/**
 * The one mutex of the code base: a queue that runs async tasks one after another, in call
 * order, optionally spacing their starts (rate limits of outside services).
 */

/** Runs a task after all earlier ones have settled. */
export type Enqueue = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A serial queue: each task starts once the previous one has settled, whether it failed or
 * not, and at least `intervalMs` after the previous one started.
 */
export function serialQueue(intervalMs = 0): Enqueue {
  let tail: Promise<unknown> = Promise.resolve();
  let lastStart = -Infinity;
  const spaced = async <T>(task: () => Promise<T>): Promise<T> => {
    const pause = lastStart + intervalMs - Date.now();
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    lastStart = Date.now();
    return await task();
  };
  return <T>(task: () => Promise<T>) => {
    // Without spacing the task runs straight after the previous one: the store's hot path.
    const result = intervalMs > 0 ? tail.then(() => spaced(task)) : tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}
