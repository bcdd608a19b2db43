/**
 * The in-process job engine: jobs run by one work function, at most `maxRunning` at once and at
 * most `maxQueued` waiting in FIFO order (beyond: refused, which routes answer with 503), each
 * cancelled through an AbortSignal that reaches its work, finished jobs kept for a time to live
 * and up to a count. Every acceptance and move goes through the service's `JobStore` first.
 *
 * It is one implementation of `JobEngine` (`job_engine.ts`); another (a queue across machines)
 * can stand in for it behind the same methods.
 */
import { yieldToEventLoop } from "../concurrency/yield_to_event_loop.ts";
import { EventLog, type EventLogOptions } from "./event_log.ts";
import type { Job, JobRecord } from "./job.ts";
import {
  type CloseOptions,
  errorMessage,
  type JobCancelOutcome,
  type JobEngine,
  type JobRefusal,
  JobRefusedError,
  JobStoppedError,
  type JobWork,
  type WorkContext,
} from "./job_engine.ts";
import { canMove, isFinalState, type JobState, JobTransitionError } from "./job_states.ts";
import { type JobMovePatch, type JobStore, memoryJobStore, type RestartRule } from "./job_store.ts";

/** How an engine is built. */
export interface JobQueueOptions<Input, Result, Event> {
  readonly work: JobWork<Input, Result, Event>;
  /** How each job's event log keeps its events, or a function making each job's log. */
  readonly events: EventLogOptions<Event> | (() => EventLog<Event>);
  /** Most jobs running at once (>= 1; Infinity for no bound). */
  readonly maxRunning: number;
  /** Most jobs waiting while all run (>= 0, default no bound). */
  readonly maxQueued?: number;
  /** Most weight of the waiting jobs together (default no bound). */
  readonly maxQueuedWeight?: number;
  /** A job's weight (default 0). */
  readonly weigh?: (input: Input) => number;
  /** How long a finished job is kept, ms (default for ever). */
  readonly ttlMs?: number;
  /** Most finished jobs kept, the oldest forgotten first (default no bound). */
  readonly maxFinished?: number;
  /**
   * Begin each job's work on a later turn of the event loop (its slot taken at once), so that
   * whoever submitted can subscribe before the first event (default: in the same turn).
   */
  readonly startOnLaterTurn?: boolean;
  /** Forget expired jobs this often even when nobody asks, ms (default only when asked). */
  readonly pruneIntervalMs?: number;
  /** The event that ends the log of a job that just ended, if the service sends one. */
  readonly finalEvent?: (job: Job<Input, Result, Event>) => Event | undefined;
  /** The error of a failed job from what its work threw (default the message). */
  readonly failureMessage?: (error: unknown) => string;
  /** The error of a cancelled job. */
  readonly cancelMessage?: string;
  /** Where jobs are kept beyond memory (default nowhere). */
  readonly store?: JobStore<Input, Result, Event>;
  /** What a job a stopped process left unfinished becomes, for `recover()`. */
  readonly restartRule?: RestartRule;
  /** Epoch ms now (default Date.now). */
  readonly now?: () => number;
  readonly newId?: () => string;
  /** Called once a job has ended (its final event sent). */
  readonly onFinished?: (job: Job<Input, Result, Event>) => void;
  /** Called when a finished job is forgotten. */
  readonly onForgotten?: (job: Job<Input, Result, Event>) => void;
}

type Rec<I, R, E> = JobRecord<I, R, E> & {
  /** Whether its acceptance is stored; until then it does not start. */
  recorded: boolean;
  /** Resolves once it is (rejects when the store refused it). */
  whenRecorded: Promise<void>;
  settle: () => void;
};

const DEFAULT_CANCEL = "cancelled";

/** The in-process engine. */
export class JobQueue<Input, Result, Event> implements JobEngine<Input, Result, Event> {
  readonly #o: JobQueueOptions<Input, Result, Event>;
  readonly #store: JobStore<Input, Result, Event>;
  readonly #now: () => number;
  readonly #maxQueued: number;
  readonly #maxQueuedWeight: number;
  readonly #jobs = new Map<string, Rec<Input, Result, Event>>();
  readonly #queue: Rec<Input, Result, Event>[] = [];
  /** Jobs whose work has not settled (cancelled ones included): each holds a running slot. */
  readonly #active = new Set<Rec<Input, Result, Event>>();
  /** Finished jobs in the order they finished. */
  readonly #finished = new Map<string, Rec<Input, Result, Event>>();
  #queuedWeight = 0;
  #closed = false;
  #pruneTimer: ReturnType<typeof setInterval> | undefined;

  constructor(options: JobQueueOptions<Input, Result, Event>) {
    const { maxRunning } = options;
    if (!(maxRunning === Infinity || (Number.isInteger(maxRunning) && maxRunning >= 1))) {
      throw new RangeError(`maxRunning must be an integer >= 1, got ${maxRunning}`);
    }
    this.#maxQueued = options.maxQueued ?? Infinity;
    if (
      !(this.#maxQueued === Infinity || Number.isInteger(this.#maxQueued)) || this.#maxQueued < 0
    ) {
      throw new RangeError(`maxQueued must be an integer >= 0, got ${this.#maxQueued}`);
    }
    this.#o = options;
    this.#store = options.store ?? memoryJobStore();
    this.#now = options.now ?? Date.now;
    this.#maxQueuedWeight = options.maxQueuedWeight ?? Infinity;
    if (options.pruneIntervalMs !== undefined) {
      this.#pruneTimer = setInterval(() => this.prune(), Math.max(1, options.pruneIntervalMs));
      // Pruning alone must not keep the process alive.
      Deno.unrefTimer(this.#pruneTimer);
    }
  }

  /** Why a job of `weight` would be refused now, or undefined when it would be taken. */
  refusal(weight = 0): JobRefusal | undefined {
    if (this.#closed) return "closed";
    if (this.#active.size < this.#o.maxRunning && this.#queue.length === 0) return undefined;
    if (this.#queue.length >= this.#maxQueued) return "full";
    if (this.#queuedWeight + weight > this.#maxQueuedWeight) return "weight";
    return undefined;
  }

  /**
   * Accepts a job; it starts at once when a slot is free and the store has recorded it. Throws
   * JobRefusedError when refused. `accepted` is called with the new job before anything of it
   * runs, for the service to register what it keeps beside it.
   */
  submit(
    input: Input,
    accepted?: (job: Job<Input, Result, Event>) => void,
  ): Job<Input, Result, Event> {
    this.prune();
    const weight = this.#o.weigh?.(input) ?? 0;
    const refused = this.refusal(weight);
    if (refused !== undefined) throw new JobRefusedError(refused);
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => settle = resolve);
    const job: Rec<Input, Result, Event> = {
      id: this.#o.newId?.() ?? crypto.randomUUID(),
      state: "queued",
      stage: undefined,
      createdAt: this.#now(),
      startedAt: null,
      finishedAt: null,
      input,
      weight,
      result: undefined,
      error: null,
      failure: undefined,
      events: typeof this.#o.events === "function"
        ? this.#o.events()
        : new EventLog(this.#o.events),
      controller: new AbortController(),
      get signal() {
        return this.controller.signal;
      },
      settled,
      settle,
      ending: false,
      recorded: false,
      whenRecorded: Promise.resolve(),
    };
    this.#jobs.set(job.id, job);
    this.#queue.push(job);
    this.#queuedWeight += weight;
    accepted?.(job);
    const recorded = () => {
      job.recorded = true;
      this.#pump();
    };
    const write = this.#store.insert(job);
    if (write) {
      job.whenRecorded = write.then(recorded, (error) => {
        this.#dequeue(job);
        this.#jobs.delete(job.id);
        job.settle();
        throw error;
      });
      // Whoever accepted the job awaits `recorded`; nobody else has to.
      job.whenRecorded.catch(() => {});
    } else recorded();
    return job;
  }

  /** The job, unless unknown or forgotten. */
  get(id: string): Job<Input, Result, Event> | undefined {
    this.prune();
    return this.#jobs.get(id);
  }

  /**
   * Resolves once the store has recorded the job (at once for an unknown one); rejects with the
   * store's error when it could not, and the job is then gone.
   */
  recorded(id: string): Promise<void> {
    return this.#jobs.get(id)?.whenRecorded ?? Promise.resolve();
  }

  /**
   * Cancels a job: a queued one at once; a running one is ended `cancelled` at once (its final
   * event out) and its work aborted, its slot free once the work settles. A finished or ending
   * job is left as it is.
   */
  cancel(
    id: string,
    error = this.#o.cancelMessage ?? DEFAULT_CANCEL,
  ): JobCancelOutcome<Job<Input, Result, Event>> {
    const job = this.#jobs.get(id);
    if (job === undefined) return { outcome: "unknown" };
    if (job.ending || isFinalState(job.state)) return { outcome: "finished", job };
    const wasQueued = job.state === "queued";
    if (wasQueued) this.#dequeue(job);
    const ended = this.#end(job, "cancelled", { error }, () => {
      job.controller.abort(new DOMException("The job was cancelled", "AbortError"));
    });
    if (wasQueued) job.settle();
    return { outcome: "cancelled", job, ended };
  }

  /** Jobs running and waiting now. */
  counts(): { queued: number; running: number } {
    let running = 0;
    // A job holding a slot runs from the moment it took it until its end is written.
    for (const job of this.#active) if (!isFinalState(job.state)) running++;
    return { queued: this.#queue.length, running };
  }

  /** Jobs not ended yet: queued, or holding a slot. */
  get active(): number {
    let active = this.#queue.length;
    for (const job of this.#active) if (!job.ending && !isFinalState(job.state)) active++;
    return active;
  }

  /** Slots taken: jobs whose work has not settled, cancelled ones still winding down included. */
  get slotsTaken(): number {
    return this.#active.size;
  }

  /** Jobs held (any state), after forgetting the expired. */
  get size(): number {
    this.prune();
    return this.#jobs.size;
  }

  /** Forgets finished jobs past their time to live or beyond the count kept; answers how many. */
  prune(): number {
    const ttl = this.#o.ttlMs ?? Infinity;
    const max = this.#o.maxFinished ?? Infinity;
    const now = this.#now();
    let pruned = 0;
    for (const [id, job] of this.#finished) {
      if (now - job.finishedAt! < ttl && this.#finished.size <= max) break;
      this.forget(id);
      pruned++;
    }
    return pruned;
  }

  /**
   * Releases the result of a finished job (for a service that bounds what finished jobs hold):
   * its log keeps only its final event, `final` in its place if given.
   */
  dropResult(id: string, final?: Event): void {
    const job = this.#finished.get(id);
    if (!job) return;
    job.result = undefined;
    job.events.compact(final);
  }

  /** Forgets a finished job now. */
  forget(id: string): void {
    const job = this.#finished.get(id);
    if (!job) return;
    this.#finished.delete(id);
    this.#jobs.delete(id);
    this.#o.onForgotten?.(job);
  }

  /** Ends, by the restart rule, what a previous process left unfinished; answers how many. */
  async recover(): Promise<number> {
    const rule = this.#o.restartRule;
    if (!rule || !this.#store.recover) return 0;
    return await this.#store.recover(rule);
  }

  /** Resolves once no job is queued or running. */
  async idle(): Promise<void> {
    while (this.#queue.length > 0 || this.#active.size > 0) {
      await Promise.all([...this.#queue, ...this.#active].map((job) => job.settled));
    }
  }

  /** Refuses new jobs, ends the unfinished ones as `options` says and waits for their work. */
  async close(options: CloseOptions = {}): Promise<void> {
    this.#closed = true;
    clearInterval(this.#pruneTimer);
    const queued = [...this.#queue];
    for (const job of queued) {
      if (options.queued === "fail") {
        this.#dequeue(job);
        await this.#end(job, "failed", { error: options.error ?? "The service stopped" });
        job.settle();
      } else this.cancel(job.id);
    }
    const running = [...this.#active];
    const mode = options.running ?? "cancel";
    const abort = (job: Rec<Input, Result, Event>) => () =>
      job.controller.abort(new DOMException("Stopped", "AbortError"));
    const ends: Promise<void>[] = [];
    for (const job of running) {
      if (mode === "cancel") this.cancel(job.id);
      else if (mode === "abort") abort(job)();
      else if (mode === "fail") {
        const error = options.error ?? "The service stopped";
        ends.push(
          this.#end(job, "failed", { error, failure: new JobStoppedError(error) }, abort(job)),
        );
      }
    }
    await Promise.allSettled(ends);
    const settled = Promise.all(running.map((job) => job.settled));
    if (mode === "finish" && options.graceMs !== undefined) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => timer = setTimeout(resolve, options.graceMs));
      await Promise.race([settled, grace]);
      clearTimeout(timer);
      for (const job of running) job.controller.abort(new DOMException("Stopped", "AbortError"));
    }
    await settled;
  }

  #dequeue(job: Rec<Input, Result, Event>): void {
    const at = this.#queue.indexOf(job);
    if (at < 0) return;
    this.#queue.splice(at, 1);
    this.#queuedWeight -= job.weight;
  }

  /** Starts the recorded jobs at the head of the queue while slots are free. */
  #pump(): void {
    while (this.#active.size < this.#o.maxRunning && this.#queue[0]?.recorded) {
      const job = this.#queue.shift()!;
      this.#queuedWeight -= job.weight;
      this.#start(job);
    }
  }

  /** Moves a job to running and hands it to the work, synchronously when the store allows. */
  #start(job: Rec<Input, Result, Event>): void {
    this.#active.add(job);
    const begin = (): Promise<void> => {
      // Cancelled or stopped while it waited for its turn.
      if (job.state !== "queued" || job.ending) return Promise.resolve();
      const moved = this.#move(job, "running", { at: this.#now() }, () => {
        job.startedAt = this.#now();
      });
      return moved ? moved.then(() => this.#work(job)) : this.#work(job);
    };
    const run = this.#o.startOnLaterTurn ? yieldToEventLoop().then(begin) : begin();
    run
      .catch((error) => console.error(`jobs: job ${job.id}:`, error))
      .finally(() => {
        this.#active.delete(job);
        job.settle();
        this.#pump();
      });
  }

  /** Calls the work (in this turn) and ends the job with what it answers. */
  #work(job: Rec<Input, Result, Event>): Promise<void> {
    if (job.state !== "running" || job.ending) return Promise.resolve();
    const input = job.input!;
    job.input = undefined; // the work keeps what it needs
    const context: WorkContext<Event> = {
      id: job.id,
      signal: job.signal,
      live: () => job.state === "running" && !job.ending,
      emit: (event) => {
        if (context.live()) job.events.append(event);
      },
      stage: (name) => {
        job.stage = name;
      },
    };
    let work: Promise<Result>;
    try {
      work = this.#o.work(input, context);
    } catch (error) {
      work = Promise.reject(error);
    }
    return work.then(
      (result) => this.#end(job, "succeeded", { result }),
      (error) => {
        const message = this.#o.failureMessage?.(error) ?? errorMessage(error);
        return this.#end(job, "failed", { error: message, failure: error });
      },
    );
  }

  /**
   * Ends a job unless someone else does already: `before` (an abort) once the job is marked
   * ending, then the store, then the record, then the final event.
   */
  #end(
    job: Rec<Input, Result, Event>,
    to: "succeeded" | "failed" | "cancelled",
    patch: Omit<JobMovePatch<Result>, "at">,
    before?: () => void,
  ): Promise<void> {
    if (job.ending || isFinalState(job.state)) return Promise.resolve();
    job.ending = true;
    // Its work no longer counts as live: whatever the abort makes it do is not kept.
    before?.();
    const at = this.#now();
    const done = this.#move(job, to, { at, ...patch }, () => {
      job.finishedAt = at;
      job.input = undefined;
      if (patch.result !== undefined) job.result = patch.result;
      if (patch.error !== undefined) job.error = patch.error;
      if (patch.failure !== undefined) job.failure = patch.failure;
      const final = this.#o.finalEvent?.(job);
      if (final !== undefined) job.events.append(final);
      this.#finished.set(job.id, job);
      this.#o.onFinished?.(job);
      // A service whose store holds finished jobs keeps nothing of them here (nor their result).
      if (this.#o.ttlMs === 0) this.forget(job.id);
    });
    return done ?? Promise.resolve();
  }

  /** Writes a move to the store, then applies it (at once when the store answers at once). */
  #move(
    job: Rec<Input, Result, Event>,
    to: JobState,
    patch: JobMovePatch<Result>,
    apply: () => void,
  ): Promise<void> | undefined {
    if (!canMove(job.state, to)) throw new JobTransitionError(job.state, to);
    const commit = () => {
      // A stop or cancel that was written meanwhile stands.
      if (!canMove(job.state, to)) return;
      job.state = to;
      apply();
    };
    const write = this.#store.move(job, to, patch);
    if (!write) {
      commit();
      return undefined;
    }
    return write.then(commit);
  }
}
