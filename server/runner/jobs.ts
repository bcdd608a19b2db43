/**
 * The runner's jobs: a registry of runs by UUID, a FIFO queue in front of at most `workers`
 * runs at once, cancellation through each run's AbortSignal, and pruning of finished jobs once
 * their time to live has passed. A job is the raw bytes of its model body until a worker takes
 * it: the runner parses, validates, builds and solves it off this thread (`runBody`), and an
 * invalid model ends the job `failed` with its problems. Each job keeps its events
 * (`JobEventLog`) for its streams and its encoded result, stored before `done` is appended.
 */
import type { ModelProblem } from "../../lib/model/model_problem.ts";
import { refusalMessage } from "../../lib/runner/model_refusal.ts";
import type {
  BodyRun,
  EncodedRunResult,
  ModelRefusal,
  ModelRunner,
} from "../../lib/runner/model_runner.ts";
import { JobEventLog } from "./job_events.ts";
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
  /** The first problems of a model refused as invalid (at most MAX_LISTED_PROBLEMS). */
  readonly problems: readonly ModelProblem[] | null;
  /** The result of a completed job: its summary and its full JSON as bytes. */
  readonly result: EncodedRunResult | undefined;
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
  problems: { path: string; message: string }[] | null;
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
    problems: job.problems?.map(({ path, message }) => ({ path, message })) ?? null,
  };
}

/** What the registry is built from. */
export interface JobRegistryOptions {
  runner: ModelRunner;
  /** Most runs at once (>= 1). */
  workers: number;
  /** Most jobs waiting for a worker; default unbounded. */
  maxQueued?: number;
  /** Most body bytes of the jobs waiting for a worker, together; default unbounded. */
  maxQueuedBytes?: number;
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
  | { readonly ok: false; readonly reason: Refused };

/** Why a job is refused: too many waiting, too many bytes waiting, or the service stops. */
export type Refused = "queue_full" | "queue_bytes_full" | "closed";

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
  problems: readonly ModelProblem[] | null = null;
  result: EncodedRunResult | undefined = undefined;
  readonly events = new JobEventLog();
  readonly controller = new AbortController();
  /** The model body; handed to the run (and released here) when a worker takes the job. */
  body: Uint8Array | undefined;
  /** Its size, counted against the bytes waiting while the job is queued. */
  readonly bodyBytes: number;
  /** Settles when the run has (no rejection). */
  settled: Promise<void> = Promise.resolve();

  constructor(readonly createdAt: Date, body: Uint8Array) {
    this.body = body;
    this.bodyBytes = body.length;
  }
}

/** Longest pause between two prunings while nothing calls the registry, ms. */
const MAX_PRUNE_INTERVAL_MS = 60_000;

/** The jobs of one runner service. */
export class JobRegistry {
  readonly #runner: ModelRunner;
  readonly #workers: number;
  readonly #maxQueued: number;
  readonly #maxQueuedBytes: number;
  /** Body bytes of the queued jobs. */
  #queuedBytes = 0;
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
    this.#maxQueuedBytes = options.maxQueuedBytes ?? Infinity;
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

  /**
   * Why a body of `bytes` would be refused now, or undefined when it would be taken: asked
   * before a body is read, so that a full queue does not cost reading it.
   */
  refusal(bytes = 0): Refused | undefined {
    if (this.#closed) return "closed";
    if (this.#active.size < this.#workers) return undefined;
    if (this.#queue.length >= this.#maxQueued) return "queue_full";
    if (this.#queuedBytes + bytes > this.#maxQueuedBytes) return "queue_bytes_full";
    return undefined;
  }

  /**
   * Queues a model body (UTF-8 JSON whose shape the caller has checked); it starts at once when
   * a worker is free. The registry owns the bytes from here on.
   */
  submit(body: Uint8Array): SubmitOutcome {
    this.prune();
    const refused = this.refusal(body.length);
    if (refused !== undefined) return { ok: false, reason: refused };
    const mustWait = this.#active.size >= this.#workers;
    const job = new JobState(this.#clock(), body);
    this.#jobs.set(job.id, job);
    if (mustWait) {
      job.events.append({
        type: "log",
        line: `[runner] queued: waiting for a free worker (${this.#queue.length} job(s) ahead)`,
      });
    }
    this.#queue.push(job);
    this.#queuedBytes += job.bodyBytes;
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
      this.#queuedBytes -= job.bodyBytes;
      job.body = undefined;
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
      const job = this.#queue.shift()!;
      this.#queuedBytes -= job.bodyBytes;
      this.#start(job);
    }
  }

  #start(job: JobState): void {
    // The bytes go to the run (moved to its Worker); the job keeps nothing of its model.
    const body = job.body!;
    job.body = undefined;
    job.status = "running";
    job.startedAt = this.#clock();
    this.#active.add(job);
    const meter = new StatsMeter(this.#probe);
    const stats = setInterval(() => {
      if (job.status === "running") job.events.append(meter.next());
    }, this.#statsMs);
    const live = () => job.status === "running";
    let run: Promise<BodyRun>;
    try {
      run = this.#runner.runBody(body, {
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
      .then(
        (outcome) => outcome.ok ? this.#complete(job, outcome.result) : this.#refuse(job, outcome),
        (error) => this.#fail(job, error),
      )
      .finally(() => {
        clearInterval(stats);
        this.#active.delete(job);
        this.#pump();
      });
  }

  #complete(job: JobState, result: EncodedRunResult): void {
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
      result: result.summary,
      objective: result.objective,
      termination: result.termination,
      success: result.success,
    });
  }

  /** An invalid model: failed, with its problems kept for the status and the stream. */
  #refuse(job: JobState, refusal: ModelRefusal): void {
    if (job.status === "cancelled") return;
    job.status = "failed";
    job.error = refusalMessage(refusal);
    job.problems = refusal.problems;
    job.finishedAt = this.#clock();
    job.events.append({ type: "error", error: job.error, problems: refusal.problems });
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
