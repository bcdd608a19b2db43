/**
 * The backend's jobs: each one is a model submitted to the solver runner and followed through
 * the runner's event stream in the background. Runner events become the job's status and
 * progress (`lib/backend/job_progress.ts`), its log lines are kept in the store (batched), and
 * the job ends on `done` (the full result fetched from the runner and stored, a completed-run
 * record saved) or `error` (failed, message kept). A runner that cannot be reached, or whose
 * stream dies and that then does not answer its status within `reconnectMs`, fails the job
 * with a message that says so.
 *
 * Each running job keeps its events (`JobEventLog` of the runner service, so a late stream
 * client gets everything first); a finished job's stream is rebuilt from the store. The row in
 * the store is written at every change of status, before the change is visible anywhere else.
 */
import { BackendStore, JOB_LOG_COLUMNS, type JobRow } from "../../lib/backend/backend_store.ts";
import { JobProgress } from "../../lib/backend/job_progress.ts";
import { type RunnerClient, RunnerHttpError } from "../../lib/backend/runner_client.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import {
  CANCELLED,
  type CancelOutcome,
  doneEvent,
  INTERRUPTED,
  isFinished,
  type JobSubmission,
  type JobView,
  rowView,
  runRecord,
} from "./job_view.ts";
import { type BatchAppender, createBatchAppender } from "../../lib/store/batch_appender.ts";
import { JobEventLog, type RunEvent } from "../runner/job_events.ts";
import { abortableDelay } from "../../lib/concurrency/abortable_delay.ts";

/** What the job manager is built from. */
export interface BackendJobsOptions {
  store: BackendStore;
  runner: RunnerClient;
  /** The current time; default the system clock. */
  clock?: () => Date;
  /** One line to the server log. */
  log?: (message: string) => void;
  /**
   * How long a job keeps trying to reach the runner after its stream ended early, ms
   * (default 6000): within it the job follows the runner again, after it the job fails.
   */
  reconnectMs?: number;
  /** Batching of log lines (default: 500 rows or 250 ms). */
  logBatch?: { maxRows?: number; maxDelayMs?: number };
}

interface ActiveJob {
  row: JobRow;
  modelName: string;
  model: Record<string, unknown> | undefined;
  readonly events: JobEventLog;
  readonly progress: JobProgress;
  readonly controller: AbortController;
  readonly lines: string[];
  /** Set by whoever ends the job first (the follower, a cancel, a stop). */
  finalizing: boolean;
  lastProgress: number;
  settled: Promise<void>;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The jobs of one backend. */
export class BackendJobs {
  readonly #store: BackendStore;
  readonly #runner: RunnerClient;
  readonly #clock: () => Date;
  readonly #log: (message: string) => void;
  readonly #reconnectMs: number;
  readonly #active = new Map<string, ActiveJob>();
  readonly #appender: BatchAppender;
  #closing: Promise<void> | undefined;

  constructor(options: BackendJobsOptions) {
    this.#store = options.store;
    this.#runner = options.runner;
    this.#clock = options.clock ?? (() => new Date());
    this.#log = options.log ?? ((line) => console.error(`backend: ${line}`));
    this.#reconnectMs = options.reconnectMs ?? 6000;
    this.#appender = createBatchAppender(options.store.store, "job_logs", JOB_LOG_COLUMNS, {
      maxRows: options.logBatch?.maxRows ?? 500,
      maxDelayMs: options.logBatch?.maxDelayMs ?? 250,
    });
  }

  #now(): string {
    return this.#clock().toISOString();
  }

  /**
   * Marks jobs left pending or running by a previous process as failed (`interrupted by
   * restart`) and asks the runner to drop them (best effort, so an orphan does not hold a
   * worker). Returns how many there were.
   */
  async recover(): Promise<number> {
    const left = await this.#store.jobsWithStatus(["pending", "running"]);
    const now = this.#now();
    for (const row of left) {
      await this.#store.updateJob(row.id, {
        status: "failed",
        error: INTERRUPTED,
        finished_at: now,
      });
    }
    await Promise.allSettled(
      left.filter((r) => r.runner_job_id !== null).map((r) =>
        this.#runner.cancel(r.runner_job_id!)
      ),
    );
    return left.length;
  }

  /** Records a job (committed), then submits and follows it in the background. */
  async submit(submission: JobSubmission): Promise<JobView> {
    if (this.#closing) throw new Error("The backend is stopping");
    const row: JobRow = {
      id: crypto.randomUUID(),
      model_id: submission.modelId,
      status: "pending",
      progress: 0,
      created_at: this.#now(),
      started_at: null,
      finished_at: null,
      error: null,
      runner_job_id: null,
    };
    await this.#store.insertJob(row);
    const job: ActiveJob = {
      row,
      modelName: submission.modelName,
      model: submission.model,
      events: new JobEventLog(),
      progress: new JobProgress(),
      controller: new AbortController(),
      lines: [],
      finalizing: false,
      lastProgress: 0,
      settled: Promise.resolve(),
    };
    this.#active.set(row.id, job);
    for (const note of submission.notes ?? []) this.#addLine(job, `[backend] ${note}`);
    job.settled = this.#run(job).catch((error) => {
      this.#log(`job ${row.id}: ${message(error)}`);
      return this.#fail(job, `The backend failed to follow the job: ${message(error)}`);
    });
    return this.#view(job);
  }

  /** The job's view; undefined when unknown. */
  async view(id: string): Promise<JobView | undefined> {
    const job = this.#active.get(id);
    if (job) return this.#view(job);
    const row = await this.#store.getJob(id);
    return row ? rowView(row) : undefined;
  }

  /** The views of a model's jobs, the newest first. */
  async listForModel(modelId: string): Promise<JobView[]> {
    const rows = await this.#store.listJobs(modelId);
    return rows.map((row) => {
      const job = this.#active.get(row.id);
      return job ? this.#view(job) : rowView(row);
    });
  }

  /** The job's log lines so far; undefined when unknown. */
  async logs(id: string): Promise<string[] | undefined> {
    const job = this.#active.get(id);
    if (job) return [...job.lines];
    if (!await this.#store.getJob(id)) return undefined;
    return this.#store.jobLogs(id);
  }

  /** The job's events: live for a running job, rebuilt from the store for a finished one. */
  async events(id: string): Promise<JobEventLog | undefined> {
    const job = this.#active.get(id);
    if (job) return job.events;
    const row = await this.#store.getJob(id);
    if (!row) return undefined;
    const log = new JobEventLog();
    for (const line of await this.#store.jobLogs(id)) log.append({ type: "log", line });
    if (row.status === "completed") {
      const text = await this.#store.jobResult(id);
      const result = (text ? JSON.parse(text) : {}) as RunResult;
      log.append(doneEvent(result));
    } else {
      log.append({ type: "error", error: row.error ?? row.status });
    }
    return log;
  }

  /** The stored result (JSON text) of a completed job, else its status; undefined unknown. */
  async result(id: string): Promise<{ status: JobRow["status"]; body?: string } | undefined> {
    const job = this.#active.get(id);
    if (job) return { status: job.row.status };
    const row = await this.#store.getJob(id);
    if (!row) return undefined;
    if (row.status !== "completed") return { status: row.status };
    const body = await this.#store.jobResult(id);
    return body === undefined ? { status: row.status } : { status: row.status, body };
  }

  /** Cancels a job through the runner; a finished one is left as it is. */
  async cancel(id: string): Promise<CancelOutcome> {
    const job = this.#active.get(id);
    if (!job) {
      const row = await this.#store.getJob(id);
      return row ? { outcome: "finished", status: row.status } : { outcome: "unknown" };
    }
    if (job.finalizing) return { outcome: "finished", status: job.row.status };
    await this.#end(job, "cancelled", CANCELLED, true);
    return { outcome: "cancelled", job: this.#view(job) };
  }

  /** Cancels every unfinished job of a model (before it is deleted). */
  async cancelModel(modelId: string): Promise<void> {
    const jobs = [...this.#active.values()].filter((j) => j.row.model_id === modelId);
    await Promise.all(jobs.map((job) => this.cancel(job.row.id)));
  }

  /** Jobs running (started by a runner worker) and queued (not yet started) now. */
  counts(): { running: number; queued: number } {
    let running = 0;
    let queued = 0;
    for (const job of this.#active.values()) {
      if (job.row.status === "running") running++;
      else if (job.row.status === "pending") queued++;
    }
    return { running, queued };
  }

  /**
   * Ends every unfinished job as failed (`interrupted by restart`), asks the runner to drop
   * them, and writes the last log lines. Calling it again returns the same promise.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const jobs = [...this.#active.values()].filter((j) => !j.finalizing);
      await Promise.all(jobs.map((job) => this.#end(job, "failed", INTERRUPTED, true)));
      await Promise.allSettled([...this.#active.values()].map((j) => j.settled));
      await this.#appender.close().catch((error) => this.#log(message(error)));
    })();
    return this.#closing;
  }

  #view(job: ActiveJob): JobView {
    return {
      ...rowView(job.row),
      progress: isFinished(job.row.status) ? job.row.progress : job.progress.value(Date.now()),
    };
  }

  #addLine(job: ActiveJob, line: string): void {
    job.lines.push(line);
    try {
      this.#appender.append([job.row.id, job.lines.length, line]);
    } catch {
      // closed: the backend is stopping and the job is being ended
    }
    job.events.append({ type: "log", line });
  }

  /** Appends a progress event when the integer changed. */
  #emitProgress(job: ActiveJob): void {
    const value = job.progress.value(Date.now());
    if (value === job.lastProgress) return;
    job.lastProgress = value;
    const phase = job.progress.phase === "build" || job.progress.phase === "waiting"
      ? "build"
      : "solve";
    job.events.append({ type: "progress", phase, pct: value });
  }

  async #run(job: ActiveJob): Promise<void> {
    const signal = job.controller.signal;
    let runnerId: string;
    try {
      // Not aborted by a cancel: a cancel during the upload would leave a job the runner may
      // already have accepted running unwatched. The submit is bounded by its own timeout, and a
      // job cancelled meanwhile is cancelled on the runner right after (below).
      runnerId = await this.#runner.submit(job.model);
    } catch (error) {
      if (signal.aborted) return;
      await this.#fail(
        job,
        error instanceof RunnerHttpError
          ? `The runner refused the model (HTTP ${error.status}): ${error.message}`
          : message(error),
      );
      return;
    }
    job.model = undefined;
    job.row.runner_job_id = runnerId;
    await this.#store.updateJob(job.row.id, { runner_job_id: runnerId });
    if (signal.aborted) {
      await this.#runner.cancel(runnerId).catch(() => false);
      return;
    }
    await this.#follow(job, runnerId);
  }

  async #follow(job: ActiveJob, runnerId: string): Promise<void> {
    const signal = job.controller.signal;
    let seen = 0;
    let deadline: number | undefined;
    for (;;) {
      let lost: string;
      try {
        let index = 0;
        for await (const event of this.#runner.stream(runnerId, signal)) {
          // A reconnected stream replays the runner's history: skip what was handled.
          if (index++ < seen) continue;
          seen++;
          deadline = undefined;
          if (await this.#onEvent(job, runnerId, event)) return;
        }
        lost = "the runner closed the event stream before the job ended";
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof RunnerHttpError && error.status === 404) {
          await this.#fail(job, lostJob(this.#runner.baseUrl, runnerId));
          return;
        }
        lost = message(error);
      }
      if (signal.aborted || job.finalizing) return;
      deadline ??= performance.now() + this.#reconnectMs;
      // Is the runner still there, and the job? Then follow it again.
      try {
        const status = await this.#runner.status(runnerId);
        if (status.status === "completed") {
          await this.#complete(job, runnerId, undefined);
          return;
        }
        if (status.status === "failed" || status.status === "cancelled") {
          await this.#fail(job, status.error ?? `The runner reports the job ${status.status}`);
          return;
        }
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof RunnerHttpError && error.status === 404) {
          await this.#fail(job, lostJob(this.#runner.baseUrl, runnerId));
          return;
        }
        if (performance.now() >= deadline) {
          await this.#fail(
            job,
            `The connection to the runner at ${this.#runner.baseUrl} was lost during the run ` +
              `and it does not answer: ${lost}; ${message(error)}`,
          );
          return;
        }
      }
      await abortableDelay(500, signal);
    }
  }

  /** Handles one runner event; true when it ended the job. */
  async #onEvent(
    job: ActiveJob,
    runnerId: string,
    event: Record<string, unknown>,
  ): Promise<boolean> {
    switch (event["type"]) {
      case "log": {
        this.#addLine(job, String(event["line"] ?? ""));
        job.progress.onLog();
        this.#emitProgress(job);
        return false;
      }
      case "progress": {
        if (job.row.status === "pending" && !job.finalizing) {
          const startedAt = this.#now();
          await this.#store.updateJob(job.row.id, { status: "running", started_at: startedAt });
          job.row.status = "running";
          job.row.started_at = startedAt;
        }
        job.progress.onProgress(String(event["phase"]), Number(event["pct"]), Date.now());
        this.#emitProgress(job);
        return false;
      }
      case "stats":
        job.events.append(event as unknown as RunEvent);
        this.#emitProgress(job);
        return false;
      case "done":
        await this.#complete(job, runnerId, event);
        return true;
      case "error": {
        const error = String(event["error"] ?? "The run failed");
        await this.#fail(job, error === CANCELLED ? "The runner cancelled the job" : error);
        return true;
      }
      default:
        return false;
    }
  }

  /** Fetches and stores the full result, then ends the job `completed`. */
  async #complete(
    job: ActiveJob,
    runnerId: string,
    done: Record<string, unknown> | undefined,
  ): Promise<void> {
    if (job.finalizing) return;
    job.finalizing = true;
    let result: RunResult;
    try {
      result = await this.#runner.result(runnerId) as RunResult;
    } catch (error) {
      job.finalizing = false;
      await this.#fail(job, `The run ended but its result could not be read: ${message(error)}`);
      return;
    }
    await this.#flushLogs();
    await this.#store.saveJobResult(job.row.id, JSON.stringify(result));
    job.progress.onDone();
    const finishedAt = this.#now();
    await this.#store.updateJob(job.row.id, {
      status: "completed",
      progress: 100,
      finished_at: finishedAt,
      ...(job.row.started_at === null ? { started_at: finishedAt } : {}),
    });
    Object.assign(job.row, {
      status: "completed",
      progress: 100,
      finished_at: finishedAt,
      started_at: job.row.started_at ?? finishedAt,
    });
    await this.#saveRecord(job, result);
    this.#emitProgress(job);
    // The result is stored before `done` goes out: a client reads /results as soon as it sees it.
    job.events.append(done ? done as unknown as RunEvent : doneEvent(result));
    this.#active.delete(job.row.id);
  }

  /** Ends the job `failed` with `error`, unless something ended it first. */
  async #fail(job: ActiveJob, error: string): Promise<void> {
    if (job.finalizing) return;
    await this.#end(job, "failed", error, false);
  }

  /**
   * Ends the job with a final status: stops following it (and cancels it on the runner when
   * `cancelRunner`), stores the status, saves a record of a failed run, and ends its events.
   */
  async #end(
    job: ActiveJob,
    status: "failed" | "cancelled",
    error: string,
    cancelRunner: boolean,
  ): Promise<void> {
    job.finalizing = true;
    job.controller.abort();
    const runnerId = job.row.runner_job_id;
    if (cancelRunner && runnerId !== null) {
      await this.#runner.cancel(runnerId).catch(() => false);
    }
    await this.#flushLogs();
    const finishedAt = this.#now();
    const progress = job.progress.value(Date.now());
    await this.#store.updateJob(job.row.id, { status, error, finished_at: finishedAt, progress });
    Object.assign(job.row, { status, error, finished_at: finishedAt, progress });
    if (status === "failed") await this.#saveRecord(job, { error });
    job.events.append({ type: "error", error });
    this.#active.delete(job.row.id);
  }

  async #flushLogs(): Promise<void> {
    await this.#appender.flush().catch((error) => this.#log(`job logs: ${message(error)}`));
  }

  /** The run-history record of a finished job, in the frontend's form (and the spec's keys). */
  async #saveRecord(job: ActiveJob, result: Record<string, unknown>): Promise<void> {
    const row = job.row;
    const record = runRecord(row, job.modelName, result, job.lines);
    try {
      await this.#store.upsertCompletedRun({
        id: row.id,
        model_id: row.model_id,
        model_name: job.modelName,
        status: row.status,
        body: JSON.stringify(record),
      }, this.#now());
    } catch (error) {
      this.#log(`job ${row.id}: the run record was not saved: ${message(error)}`);
    }
  }
}

function lostJob(base: string, runnerId: string): string {
  return `The runner at ${base} no longer knows job ${runnerId} (it may have restarted)`;
}
