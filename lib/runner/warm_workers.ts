/**
 * Job Workers kept after a run that ended cleanly, their modules loaded and HiGHS compiled, so
 * that the next run skips the Worker's start (about half a second, most of a one-day model's
 * run). At most `maxIdle` wait, each at most `idleMs`; a Worker whose HiGHS heap grew past
 * `maxHeapBytes` is ended instead (WebAssembly memory never shrinks). Idle Workers keep a process
 * alive until they are ended: the service and the queue worker exit with Deno.exit, and `close`
 * ends them at once.
 */

/** How many Workers wait, for how long, and up to what heap. */
export interface WarmWorkerLimits {
  readonly maxIdle: number;
  readonly idleMs: number;
  readonly maxHeapBytes: number;
}

export const DEFAULT_WARM_LIMITS: WarmWorkerLimits = {
  maxIdle: 4,
  idleMs: 30_000,
  maxHeapBytes: 128 * 1024 * 1024,
};

export class WarmWorkers {
  readonly #url: URL;
  readonly #limits: WarmWorkerLimits;
  readonly #idle: { worker: Worker; timer: ReturnType<typeof setTimeout> }[] = [];

  constructor(url: URL, limits: WarmWorkerLimits = DEFAULT_WARM_LIMITS) {
    this.#url = url;
    this.#limits = limits;
  }

  /** Workers waiting now. */
  get idle(): number {
    return this.#idle.length;
  }

  /** A waiting Worker, else a new one. */
  take(): Worker {
    const entry = this.#idle.pop();
    if (entry === undefined) return new Worker(this.#url, { type: "module" });
    clearTimeout(entry.timer);
    return entry.worker;
  }

  /** Keeps `worker` (done with its run, its HiGHS heap `heapBytes`) for the next, or ends it. */
  give(worker: Worker, heapBytes: number): void {
    const { maxIdle, idleMs, maxHeapBytes } = this.#limits;
    if (this.#idle.length >= maxIdle || !(heapBytes <= maxHeapBytes)) {
      worker.terminate();
      return;
    }
    worker.onmessage = null;
    worker.onmessageerror = null;
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#drop(worker);
    };
    const timer = setTimeout(() => this.#drop(worker), idleMs);
    // A waiting Worker's timer alone does not keep a process alive.
    Deno.unrefTimer(timer);
    this.#idle.push({ worker, timer });
  }

  /** Ends every waiting Worker. */
  close(): void {
    for (const { worker, timer } of this.#idle.splice(0)) {
      clearTimeout(timer);
      this.#end(worker);
    }
  }

  #drop(worker: Worker): void {
    const i = this.#idle.findIndex((entry) => entry.worker === worker);
    if (i >= 0) clearTimeout(this.#idle.splice(i, 1)[0]!.timer);
    this.#end(worker);
  }

  #end(worker: Worker): void {
    worker.onerror = null;
    worker.terminate();
  }
}
