/**
 * bcrypt off the main thread: a small pool of workers (`password_worker.ts`) with a bounded
 * queue. A bcrypt check takes tens to hundreds of milliseconds of CPU by design; run on the event
 * loop, a flood of sign-ins would hold up every other request of the process. Here a check waits
 * for a free worker, and when `maxQueued` checks wait already a new one is refused at once
 * (PasswordQueueFullError), so a flood cannot queue unbounded work either.
 *
 * Workers start on the first check and stop on `close()`.
 */

/** A job for a worker. */
export type PasswordJob =
  | { id: number; op: "compare"; password: string; hash: string }
  | { id: number; op: "hash"; password: string; cost: number };

/** A worker's answer to a job. */
export type PasswordAnswer =
  | { id: number; ok: true; value: boolean | string }
  | { id: number; ok: false; error: string };

/** Checks and makes bcrypt hashes. */
export interface PasswordHasher {
  /** Whether `password` matches the bcrypt `hash`. */
  compare(password: string, hash: string): Promise<boolean>;
  /** A bcrypt hash of `password` with `cost` (log2 of the rounds, 4 to 31). */
  hash(password: string, cost: number): Promise<string>;
  /** Jobs running or waiting now. */
  readonly pending: number;
  /** Refuses waiting jobs and stops the workers. */
  close(): Promise<void>;
}

/** Thrown (as a rejection) for a job that finds the queue full: answer it with 503. */
export class PasswordQueueFullError extends Error {
  override name = "PasswordQueueFullError";
}

/** Options of createPasswordPool. */
export interface PasswordPoolOptions {
  /** Worker threads (default 1: bcrypt is CPU-bound and the machine has few cores). */
  workers?: number;
  /** Most jobs waiting for a free worker (default DEFAULT_MAX_QUEUED); beyond it jobs are refused. */
  maxQueued?: number;
}

/** Jobs that may wait for a worker unless the pool is told otherwise. */
export const DEFAULT_MAX_QUEUED = 8;

const WORKER_URL = new URL("./password_worker.ts", import.meta.url).href;

interface Waiting {
  job: PasswordJob;
  resolve(value: boolean | string): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  current: Waiting | undefined;
}

/** A pool of bcrypt workers; throws RangeError for a worker count < 1 or a negative queue bound. */
export function createPasswordPool(options: PasswordPoolOptions = {}): PasswordHasher {
  const size = options.workers ?? 1;
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new RangeError(`password pool: workers must be an integer >= 1, got ${size}`);
  }
  if (!Number.isSafeInteger(maxQueued) || maxQueued < 0) {
    throw new RangeError(`password pool: maxQueued must be an integer >= 0, got ${maxQueued}`);
  }
  const slots: Slot[] = [];
  const queue: Waiting[] = [];
  let nextId = 1;
  let closed = false;

  const start = (): Slot => {
    const worker = new Worker(WORKER_URL, { type: "module" });
    const slot: Slot = { worker, current: undefined };
    worker.onmessage = (event: MessageEvent<PasswordAnswer>) => {
      const done = slot.current;
      slot.current = undefined;
      if (done && done.job.id === event.data.id) {
        if (event.data.ok) done.resolve(event.data.value);
        else done.reject(new TypeError(`bcrypt: ${event.data.error}`));
      }
      dispatch();
    };
    worker.onerror = (event: ErrorEvent) => {
      // A worker that failed is replaced; its job fails, the others go on.
      event.preventDefault();
      worker.terminate();
      slots.splice(slots.indexOf(slot), 1);
      slot.current?.reject(new Error(`password worker failed: ${event.message}`));
      dispatch();
    };
    slots.push(slot);
    return slot;
  };

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => s.current === undefined) ??
        (slots.length < size ? start() : undefined);
      if (!slot) return;
      const next = queue.shift()!;
      slot.current = next;
      slot.worker.postMessage(next.job);
    }
  }

  const submit = <T extends boolean | string>(job: PasswordJob): Promise<T> => {
    if (closed) return Promise.reject(new Error("password pool is closed"));
    const busy = slots.filter((s) => s.current !== undefined).length;
    if (busy >= size && queue.length >= maxQueued) {
      return Promise.reject(
        new PasswordQueueFullError(
          `${queue.length} password checks are waiting already (at most ${maxQueued})`,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      queue.push({ job, resolve: resolve as (value: boolean | string) => void, reject });
      dispatch();
    });
  };

  return {
    compare: (password, hash) => submit<boolean>({ id: nextId++, op: "compare", password, hash }),
    hash(password, cost) {
      // bcryptjs would raise a cost over 31 to 31 silently: 2^31 rounds, a worker stuck for days.
      if (!Number.isInteger(cost) || cost < 4 || cost > 31) {
        return Promise.reject(
          new RangeError(`bcrypt cost must be an integer 4 to 31, got ${cost}`),
        );
      }
      return submit<string>({ id: nextId++, op: "hash", password, cost });
    },
    get pending() {
      return queue.length + slots.filter((s) => s.current !== undefined).length;
    },
    close() {
      closed = true;
      const refused = new Error("password pool is closed");
      for (const waiting of queue.splice(0)) waiting.reject(refused);
      for (const slot of slots.splice(0)) {
        slot.worker.terminate();
        slot.current?.reject(refused);
      }
      return Promise.resolve();
    },
  };
}
