/**
 * The runner's jobs: a registry of runs by UUID, a FIFO queue in front of at most `workers`
 * runs at once, cancellation through each run's AbortSignal, and pruning of finished jobs once
 * their time to live has passed. Each job keeps its events (`JobEventLog`) for its streams and
 * its full result, stored before the `done` event is appended.
 */
import type { ResolvedModel } from "../../lib/model/resolved_model.ts";
import type { ModelRunner, RunResult } from "../../lib/runner/model_runner.ts";
import { JobEventLog } from "./job_events.ts";
import { summarizeResult } from "./result_summary.ts";
import { StatsMeter, type SystemProbe, systemProbe } from "./run_stats.ts";

/** Where a job is. */
export type JobStatus = "pending" | "running" | "completed" | "failed" | "cancelled";

/** Every job status, in lifecycle order. */
export const JOB_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;

/** The error of a cancelled job's stream. */
export const CANCELLED = "cancelled";

/** Whether a status is final. */
export function isFinished(status: JobStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** One job as the registry exposes it. */
export interface Job {
  /** UUID v4. */
  readonly id: string;
  readonly status: JobStatus;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  /** The run's termination (`optimal`, `infeasible`, ...) once it has one. */
  readonly termination: string | null;
  /** Why a failed job failed, or `cancelled`. */
  readonly error: string | null;
  /** The full result of a completed job. */
  readonly result: RunResult | undefined;
  readonly events: JobEventLog;
}

/** The job's status record, as `GET /run/{id}` answers it. */
export interface JobStatusView {
  id: string;
  status: JobStatus;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  termination: string | null;
  error: string | null;
}

/** The status record of a job. */
export function jobStatusView(job: Job): JobStatusView {
  return {
    id: job.id,
    status: job.status,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    termination: job.termination,
    error: job.error,
  };
}

/** What the registry is built from. */
export interface JobRegistryOptions {
  runner: ModelRunner;
  /** Most runs at once (>= 1). */
  workers: number;
  /** Most jobs waiting for a worker; default unbounded. */
  maxQueued?: number;
  /** How long a finished job is kept, ms. */
  ttlMs: number;
  /** A `stats` event this often while a job runs, ms. */
  statsMs: number;
  /** The current time; default the system clock. */
  clock?: () => Date;
  /** Reads CPU and memory figures for `stats`; default this process and machine. */
  probe?: SystemProbe;
}

/** Accepted, or why not. */
export type SubmitOutcome =
  | { readonly ok: true; readonly job: Job }
  | { readonly ok: false; readonly reason: "queue_full" | "closed" };

/** What a cancel did. */
export type CancelOutcome =
  | { readonly outcome: "cancelled"; readonly job: Job }
  | { readonly outcome: "finished"; readonly job: Job }
  | { readonly outcome: "unknown" };

class JobState implements Job {
  readonly id = crypto.randomUUID();
  status: JobStatus = "pending";
  startedAt: Date | null = null;
  finishedAt: Date | null = null;
  termination: string | null = null;
  error: string | null = null;
  result: RunResult | undefined = undefined;
  readonly events = new JobEventLog();
  readonly controller = new AbortController();
  /** Released once the run settles, so a kept job does not hold its model. */
  model: ResolvedModel | undefined;
  /** Settles when the run has (no rejection). */
  settled: Promise<void> = Promise.resolve();

  constructor(readonly createdAt: Date, model: ResolvedModel) {
    this.model = model;
  }
}

/** Longest pause between two prunings while nothing calls the registry, ms. */
const MAX_PRUNE_INTERVAL_MS = 60_000;

/** The jobs of one runner service. */
export class JobRegistry {
  readonly #runner: ModelRunner;
  readonly #workers: number;
  readonly #maxQueued: number;
  readonly #ttlMs: number;
  readonly #statsMs: number;
  readonly #clock: () => Date;
  readonly #probe: SystemProbe;
  readonly #jobs = new Map<string, JobState>();
  readonly #queue: JobState[] = [];
  /** Runs whose `run()` has not settled yet, cancelled ones included: each holds a worker. */
  readonly #active = new Set<JobState>();
  readonly #pruneTimer: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(options: JobRegistryOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) {
      throw new RangeError(`workers: must be an integer >= 1, got ${options.workers}`);
    }
    this.#runner = options.runner;
    this.#workers = options.workers;
    this.#maxQueued = options.maxQueued ?? Infinity;
    this.#ttlMs = options.ttlMs;
    this.#statsMs = options.statsMs;
    this.#clock = options.clock ?? (() => new Date());
    this.#probe = options.probe ?? systemProbe;
    this.#pruneTimer = setInterval(
      () => this.prune(),
      Math.max(1, Math.min(this.#ttlMs, MAX_PRUNE_INTERVAL_MS)),
    );
    // Pruning alone must not keep the process alive.
    Deno.unrefTimer(this.#pruneTimer);
  }

  /** Queues a prepared model; it starts at once when a worker is free. */
  submit(model: ResolvedModel): SubmitOutcome {
    this.prune();
    if (this.#closed) return { ok: false, reason: "closed" };
    const mustWait = this.#active.size >= this.#workers;
    if (mustWait && this.#queue.length >= this.#maxQueued) {
      return { ok: false, reason: "queue_full" };
    }
    const job = new JobState(this.#clock(), model);
    this.#jobs.set(job.id, job);
    if (mustWait) {
      job.events.append({
        type: "log",
        line: `[runner] queued: waiting for a free worker (${this.#queue.length} job(s) ahead)`,
      });
    }
    this.#queue.push(job);
    this.#pump();
    return { ok: true, job };
  }

  /** The job, unless unknown or pruned. */
  get(id: string): Job | undefined {
    this.prune();
    return this.#jobs.get(id);
  }

  /**
   * Cancels a job: a pending one at once; a running one is marked cancelled, its stream ends
   * with `error: "cancelled"` at once and its run is aborted (its worker is free once `run()`
   * settles). A finished job is left as it is.
   */
  cancel(id: string): CancelOutcome {
    const job = this.#jobs.get(id);
    if (job === undefined) return { outcome: "unknown" };
    if (isFinished(job.status)) return { outcome: "finished", job };
    if (job.status === "pending") {
      this.#queue.splice(this.#queue.indexOf(job), 1);
      job.model = undefined;
    }
    job.status = "cancelled";
    job.error = CANCELLED;
    job.finishedAt = this.#clock();
    job.controller.abort(new DOMException("The job was cancelled", "AbortError"));
    job.events.append({ type: "error", error: CANCELLED });
    return { outcome: "cancelled", job };
  }

  /** Jobs running and waiting now. */
  counts(): { running: number; queued: number } {
    let running = 0;
    for (const job of this.#active) if (job.status === "running") running++;
    return { running, queued: this.#queue.length };
  }

  /** Forgets finished jobs whose time to live has passed; returns how many. */
  prune(): number {
    const now = this.#clock().getTime();
    let pruned = 0;
    for (const [id, job] of this.#jobs) {
      if (job.finishedAt !== null && now - job.finishedAt.getTime() >= this.#ttlMs) {
        this.#jobs.delete(id);
        pruned++;
      }
    }
    return pruned;
  }

  /** Refuses new jobs, cancels every unfinished one and waits until their runs have settled. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#pruneTimer);
    for (const job of [...this.#queue, ...this.#active]) this.cancel(job.id);
    await Promise.all([...this.#active].map((job) => job.settled));
  }

  #pump(): void {
    while (this.#active.size < this.#workers && this.#queue.length > 0) {
      this.#start(this.#queue.shift()!);
    }
  }

  #start(job: JobState): void {
    const model = job.model!;
    job.status = "running";
    job.startedAt = this.#clock();
    this.#active.add(job);
    const meter = new StatsMeter(this.#probe);
    const stats = setInterval(() => {
      if (job.status === "running") job.events.append(meter.next());
    }, this.#statsMs);
    const live = () => job.status === "running";
    let run: Promise<RunResult>;
    try {
      run = this.#runner.run(model, {
        log: (line) => {
          if (live()) job.events.append({ type: "log", line });
        },
        progress: ({ phase, pct }) => {
          if (live()) job.events.append({ type: "progress", phase, pct });
        },
        signal: job.controller.signal,
      });
    } catch (error) {
      run = Promise.reject(error);
    }
    job.settled = run
      .then((result) => this.#complete(job, result), (error) => this.#fail(job, error))
      .finally(() => {
        clearInterval(stats);
        job.model = undefined;
        this.#active.delete(job);
        this.#pump();
      });
  }

  #complete(job: JobState, result: RunResult): void {
    if (job.status === "cancelled") {
      // Cancelled first: the answer of the interrupted run is not kept.
      job.termination = result.termination;
      return;
    }
    // Stored before `done` goes out: a client reads /result as soon as it sees `done`.
    job.result = result;
    job.termination = result.termination;
    job.status = "completed";
    job.finishedAt = this.#clock();
    job.events.append({
      type: "done",
      result: summarizeResult(result),
      objective: result.objective,
      termination: result.termination,
      success: result.success,
    });
  }

  #fail(job: JobState, error: unknown): void {
    if (job.status === "cancelled") return;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`runner: job ${job.id} failed:`, error);
    job.status = "failed";
    job.error = message || "The run failed";
    job.finishedAt = this.#clock();
    job.events.append({ type: "error", error: job.error });
  }
}
