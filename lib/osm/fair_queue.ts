/**
 * A rate-limited queue that serves its clients in turn, for an upstream service with a request
 * rate policy (Nominatim: one request a second). One task runs at a time, starts are at least
 * `intervalMs` apart, and the next task comes from the client served least recently (one that
 * never was first, then by arrival): clients take turns, so one client's twenty queued
 * requests delay another client's single one by at most one turn. A task is admitted only when its estimated wait is within `maxWaitMs`,
 * and one still waiting after `maxWaitMs` (a slow upstream) is dropped: both are refused with
 * QueueBusyError, which says when to try again.
 */

/** Options of a FairQueue. */
export interface FairQueueOptions {
  /** Least time between two task starts, ms. */
  readonly intervalMs: number;
  /** Longest a task may wait for its turn, ms. */
  readonly maxWaitMs: number;
  /** The current time, ms (default performance.now). */
  readonly now?: () => number;
}

/** A task refused: its wait would be (or has become) longer than `maxWaitMs`. */
export class QueueBusyError extends Error {
  constructor(readonly retryAfterMs: number, message: string) {
    super(message);
    this.name = "QueueBusyError";
  }
}

interface Entry {
  readonly task: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** Arrival order, for clients served equally recently. */
  readonly seq: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

interface Client {
  readonly queue: Entry[];
  /** When a task of the client last started; -Infinity when none has. */
  lastServed: number;
}

/** See the module comment. */
export class FairQueue {
  readonly #intervalMs: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  /**
   * Clients with waiting tasks, and those served within the last `maxWaitMs` (their last turn
   * still counts against them when they come back).
   */
  readonly #clients = new Map<string, Client>();
  #seq = 0;
  #running = false;
  #lastStart = -Infinity;
  #pumpTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: FairQueueOptions) {
    this.#intervalMs = options.intervalMs;
    this.#maxWaitMs = options.maxWaitMs;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Tasks waiting, over all clients. */
  get waiting(): number {
    let n = 0;
    for (const client of this.#clients.values()) n += client.queue.length;
    return n;
  }

  /**
   * About how long a new task of `client` would wait for its start, ms: the time to the next
   * slot plus one interval for each task served before it (its client's earlier ones, and of
   * every other client at most as many as it has ahead, plus one: one per turn).
   */
  estimateWaitMs(client: string): number {
    const own = this.#clients.get(client)?.queue.length ?? 0;
    let ahead = own + (this.#running ? 1 : 0);
    for (const [other, { queue }] of this.#clients) {
      if (other !== client) ahead += Math.min(queue.length, own + 1);
    }
    const nextSlot = Math.max(0, this.#lastStart + this.#intervalMs - this.#now());
    return (this.#running ? 0 : nextSlot) + ahead * this.#intervalMs;
  }

  /** Runs `task` in `client`'s turn; rejects with QueueBusyError past the wait bound. */
  run<T>(client: string, task: () => Promise<T>): Promise<T> {
    const estimate = this.estimateWaitMs(client);
    if (estimate > this.#maxWaitMs) {
      return Promise.reject(this.#busy(estimate));
    }
    return new Promise<T>((resolve, reject) => {
      const entry: Entry = {
        task,
        resolve: resolve as (value: unknown) => void,
        reject,
        seq: this.#seq++,
        timer: undefined,
      };
      let record = this.#clients.get(client);
      if (!record) {
        record = { queue: [], lastServed: -Infinity };
        this.#clients.set(client, record);
      }
      const { queue } = record;
      queue.push(entry);
      entry.timer = setTimeout(() => {
        const at = queue.indexOf(entry);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(this.#busy(this.estimateWaitMs(client) + this.#maxWaitMs));
      }, this.#maxWaitMs);
      this.#pump();
    });
  }

  #busy(estimate: number): QueueBusyError {
    // Retry once the excess has drained; at least one slot from now.
    const retryAfterMs = Math.max(this.#intervalMs, estimate - this.#maxWaitMs);
    return new QueueBusyError(
      retryAfterMs,
      `The queue for the upstream service is full: a turn would come after more than ` +
        `${Math.round(this.#maxWaitMs / 100) / 10} s`,
    );
  }

  /** The client whose task goes next: served least recently, then by arrival. */
  #next(): Client | undefined {
    const forgetBefore = this.#now() - this.#maxWaitMs;
    let best: Client | undefined;
    for (const [key, client] of this.#clients) {
      if (client.queue.length === 0) {
        if (client.lastServed < forgetBefore) this.#clients.delete(key);
        continue;
      }
      if (
        !best || client.lastServed < best.lastServed ||
        (client.lastServed === best.lastServed && client.queue[0]!.seq < best.queue[0]!.seq)
      ) best = client;
    }
    return best;
  }

  #pump(): void {
    if (this.#running || this.#pumpTimer !== undefined) return;
    const client = this.#next();
    if (!client) return;
    const delay = this.#lastStart + this.#intervalMs - this.#now();
    if (delay > 0) {
      this.#pumpTimer = setTimeout(() => {
        this.#pumpTimer = undefined;
        this.#pump();
      }, delay);
      return;
    }
    const entry = client.queue.shift()!;
    clearTimeout(entry.timer);
    this.#running = true;
    this.#lastStart = this.#now();
    client.lastServed = this.#lastStart;
    let result: Promise<unknown>;
    try {
      result = entry.task();
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(entry.resolve, entry.reject).finally(() => {
      this.#running = false;
      this.#pump();
    });
  }
}
