/**
 * The runner's jobs on the job engine (`lib/jobs/`): a registry of runs by UUID, a FIFO queue in
 * front of at most `workers` runs at once, cancellation through each run's AbortSignal, and
 * pruning of finished jobs once their time to live has passed. A job is the raw bytes of its
 * model body until a worker takes it: the runner parses, validates, builds and solves it off
 * this thread (`runBody`), and an invalid model ends the job `failed` with its problems. Each
 * job keeps its events (`JobEventLog`) for its streams and its encoded result, stored before
 * `done` is appended. This file names the engine's states in the runner's words.
 */
import type { Job as EngineJob } from "../../lib/jobs/job.ts";
import { JobQueue } from "../../lib/jobs/job_queue.ts";
import { errorMessage, JobRefusedError, type WorkContext } from "../../lib/jobs/job_engine.ts";
import type { StatusWords } from "../../lib/jobs/job_states.ts";
import type { ModelProblem } from "../../lib/model/model_problem.ts";
import { refusalMessage } from "../../lib/runner/model_refusal.ts";
import type { EncodedRunResult, ModelRefusal, ModelRunner } from "../../lib/runner/model_runner.ts";
import { JobEventLog, type RunEvent } from "../../lib/runner/run_events.ts";
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
  /** The worker process that took the job, `host:pid`; null while it waits. */
  worker: string | null;
}

/** The status record of a job that `worker` runs (null while it waits). */
export function jobStatusView(job: Job, worker: string | null): JobStatusView {
  return {
    id: job.id,
    status: job.status,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    termination: job.termination,
    error: job.error,
    problems: job.problems?.map(({ path, message }) => ({ path, message })) ?? null,
    worker: job.status === "pending" ? null : worker,
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

/** The runner's word for each state of the engine. */
const STATUS: StatusWords<JobStatus> = {
  queued: "pending",
  running: "running",
  succeeded: "completed",
  failed: "failed",
  cancelled: "cancelled",
};

/** A run that ended without a result because its model is invalid. */
class ModelRefusedError extends Error {
  constructor(readonly refusal: ModelRefusal) {
    super(refusalMessage(refusal));
  }
}

/** What a job holds besides its engine record: the termination of its run, once it has one. */
interface RunNote {
  termination: string | null;
}

type Engine = JobQueue<{ body: Uint8Array; note: RunNote }, EncodedRunResult, RunEvent>;
type Record = EngineJob<{ body: Uint8Array; note: RunNote }, EncodedRunResult, RunEvent>;

/** The runner's view of an engine job, read live. */
class RunnerJob implements Job {
  constructor(readonly record: Record, readonly note: RunNote) {}
  get id(): string {
    return this.record.id;
  }
  get status(): JobStatus {
    return STATUS[this.record.state];
  }
  get createdAt(): Date {
    return new Date(this.record.createdAt);
  }
  get startedAt(): Date | null {
    return this.record.startedAt === null ? null : new Date(this.record.startedAt);
  }
  get finishedAt(): Date | null {
    return this.record.finishedAt === null ? null : new Date(this.record.finishedAt);
  }
  get termination(): string | null {
    return this.note.termination;
  }
  get error(): string | null {
    return this.record.error;
  }
  get problems(): readonly ModelProblem[] | null {
    const failure = this.record.failure;
    return failure instanceof ModelRefusedError ? failure.refusal.problems : null;
  }
  get result(): EncodedRunResult | undefined {
    return this.record.result;
  }
  get events(): JobEventLog {
    return this.record.events as JobEventLog;
  }
}

/** Longest pause between two prunings while nothing calls the registry, ms. */
const MAX_PRUNE_INTERVAL_MS = 60_000;

/** The refusal words of the runner for the engine's. */
const REFUSED = { closed: "closed", full: "queue_full", weight: "queue_bytes_full" } as const;

/** The jobs of one runner service. */
export class JobRegistry {
  readonly #engine: Engine;
  readonly #workers: number;
  readonly #statsMs: number;
  readonly #probe: SystemProbe;
  readonly #jobs = new Map<string, RunnerJob>();

  constructor(options: JobRegistryOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) {
      throw new RangeError(`workers: must be an integer >= 1, got ${options.workers}`);
    }
    const clock = options.clock ?? (() => new Date());
    this.#workers = options.workers;
    this.#statsMs = options.statsMs;
    this.#probe = options.probe ?? systemProbe;
    const runner = options.runner;
    this.#engine = new JobQueue({
      work: ({ body, note }, context) => this.#run(runner, body, note, context),
      events: () => new JobEventLog(),
      maxRunning: options.workers,
      ...(options.maxQueued !== undefined ? { maxQueued: options.maxQueued } : {}),
      ...(options.maxQueuedBytes !== undefined ? { maxQueuedWeight: options.maxQueuedBytes } : {}),
      weigh: ({ body }) => body.length,
      ttlMs: options.ttlMs,
      pruneIntervalMs: Math.min(options.ttlMs, MAX_PRUNE_INTERVAL_MS),
      now: () => clock().getTime(),
      cancelMessage: CANCELLED,
      finalEvent: (job) => finalEvent(job),
      failureMessage: (error) => errorMessage(error) || "The run failed",
      onForgotten: (job) => this.#jobs.delete(job.id),
    });
  }

  /**
   * Why a body of `bytes` would be refused now, or undefined when it would be taken: asked
   * before a body is read, so that a full queue does not cost reading it.
   */
  refusal(bytes = 0): Refused | undefined {
    const refused = this.#engine.refusal(bytes);
    return refused && REFUSED[refused];
  }

  /**
   * Queues a model body (UTF-8 JSON whose shape the caller has checked); it starts at once when
   * a worker is free. The registry owns the bytes from here on.
   */
  submit(body: Uint8Array): SubmitOutcome {
    this.#engine.prune();
    const ahead = this.#engine.counts().queued;
    const mustWait = this.#engine.slotsTaken >= this.#workers;
    const note: RunNote = { termination: null };
    let record: Record;
    try {
      record = this.#engine.submit({ body, note });
    } catch (error) {
      if (error instanceof JobRefusedError) return { ok: false, reason: REFUSED[error.reason] };
      throw error;
    }
    const job = new RunnerJob(record, note);
    this.#jobs.set(job.id, job);
    if (mustWait) {
      job.events.append({
        type: "log",
        line: `[runner] queued: waiting for a free worker (${ahead} job(s) ahead)`,
      });
    }
    return { ok: true, job };
  }

  /** The job, unless unknown or pruned. */
  get(id: string): Job | undefined {
    return this.#engine.get(id) && this.#jobs.get(id);
  }

  /**
   * Cancels a job: a pending one at once; a running one is marked cancelled, its stream ends
   * with `error: "cancelled"` at once and its run is aborted (its worker is free once `run()`
   * settles). A finished job is left as it is.
   */
  cancel(id: string): CancelOutcome {
    const job = this.#jobs.get(id);
    const outcome = this.#engine.cancel(id);
    if (outcome.outcome === "unknown" || job === undefined) return { outcome: "unknown" };
    return { outcome: outcome.outcome, job };
  }

  /** Jobs running and waiting now. */
  counts(): { running: number; queued: number } {
    return this.#engine.counts();
  }

  /** Forgets finished jobs whose time to live has passed; returns how many. */
  prune(): number {
    return this.#engine.prune();
  }

  /** Refuses new jobs, cancels every unfinished one and waits until their runs have settled. */
  close(): Promise<void> {
    return this.#engine.close();
  }

  /** One run: stats while it runs, its log and progress as events, an invalid model refused. */
  async #run(
    runner: ModelRunner,
    body: Uint8Array,
    note: RunNote,
    context: WorkContext<RunEvent>,
  ): Promise<EncodedRunResult> {
    const meter = new StatsMeter(this.#probe);
    const stats = setInterval(() => {
      if (context.live()) context.emit(meter.next());
    }, this.#statsMs);
    try {
      const outcome = await runner.runBody(body, {
        log: (line) => context.emit({ type: "log", line }),
        progress: ({ phase, pct }) => context.emit({ type: "progress", phase, pct }),
        signal: context.signal,
      });
      if (!outcome.ok) throw new ModelRefusedError(outcome);
      // Kept even when the job was cancelled meanwhile: the status says how the run ended.
      note.termination = outcome.result.termination;
      return outcome.result;
    } catch (error) {
      if (!(error instanceof ModelRefusedError) && context.live()) {
        console.error(`runner: job ${context.id} failed:`, error);
      }
      throw error;
    } finally {
      clearInterval(stats);
    }
  }
}

/** The event that ends a job's stream. */
function finalEvent(job: Record): RunEvent {
  if (job.state === "succeeded" && job.result) {
    const result = job.result;
    return {
      type: "done",
      result: result.summary,
      objective: result.objective,
      termination: result.termination,
      success: result.success,
    };
  }
  const failure = job.failure;
  if (failure instanceof ModelRefusedError) {
    return { type: "error", error: job.error!, problems: failure.refusal.problems };
  }
  return { type: "error", error: job.error ?? CANCELLED };
}
