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
 *
 * A model's deletion and the submissions of its runs are serialised (one queue per model): a
 * submission records its job only while the model exists, and a deletion first ends every job
 * of the model (cancelled on the runner, an upload in flight waited for and then cancelled)
 * and waits until nothing of them runs, then deletes the model with its jobs. Nothing is
 * written for such a job afterwards, and it gets no run record (issue 18).
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
import { type Enqueue, serialQueue } from "../../lib/concurrency/serial_queue.ts";

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
  /** Set when its model is being deleted: the job writes no run record and no result. */
  discarded: boolean;
  lastProgress: number;
  /** The background work: submit, follow, complete or fail. */
  settled: Promise<void>;
  /** An ending begun outside the background work (a cancel, a stop, a deletion). */
  ending: Promise<void> | undefined;
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
  /** One queue per model with work in it: its deletion and its submissions, one at a time. */
  readonly #modelQueues = new Map<string, { enqueue: Enqueue; users: number }>();
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

  /** Runs `task` after every earlier deletion or submission of the same model has settled. */
  async #exclusive<T>(modelId: string, task: () => Promise<T>): Promise<T> {
    let queue = this.#modelQueues.get(modelId);
    if (!queue) {
      queue = { enqueue: serialQueue(), users: 0 };
      this.#modelQueues.set(modelId, queue);
    }
    queue.users++;
    try {
      return await queue.enqueue(task);
    } finally {
      if (--queue.users === 0) this.#modelQueues.delete(modelId);
    }
  }

  /**
   * Records a job (committed), then submits and follows it in the background; undefined when
   * the model no longer exists (deleted since the caller read it).
   */
  submit(submission: JobSubmission): Promise<JobView | undefined> {
    return this.#exclusive(submission.modelId, async () => {
      if (this.#closing) throw new Error("The backend is stopping");
      if (!await this.#store.hasModel(submission.modelId)) return undefined;
      return this.#submit(submission);
    });
  }

  async #submit(submission: JobSubmission): Promise<JobView> {
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
      discarded: false,
      lastProgress: 0,
      settled: Promise.resolve(),
      ending: undefined,
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

  /**
   * Deletes a model with its jobs, their logs and results; false when it does not exist. Its
   * unfinished jobs are ended first (cancelled on the runner, uploads in flight waited for and
   * cancelled) and nothing of them is written afterwards; no submission of the model gets in
   * between. Run records of jobs that finished before stay in the history.
   */
  deleteModel(modelId: string): Promise<boolean> {
    return this.#exclusive(modelId, async () => {
      if (!await this.#store.hasModel(modelId)) return false;
      const jobs = [...this.#active.values()].filter((j) => j.row.model_id === modelId);
      await Promise.all(jobs.map((job) => this.#discard(job)));
      // Log lines still batched would land after the deletion: write them first.
      await this.#flushLogs();
      return await this.#store.deleteModel(modelId);
    });
  }

  /** Ends a job of a model being deleted and waits until nothing of it runs. */
  async #discard(job: ActiveJob): Promise<void> {
    job.discarded = true;
    if (!job.finalizing) {
      this.#end(job, "cancelled", CANCELLED, true).catch((error) =>
        this.#log(`job ${job.row.id}: ${message(error)}`)
      );
    }
    // A completion in progress stops at its result download, which this aborts.
    job.controller.abort();
    await Promise.allSettled([job.settled, job.ending]);
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
          // Ended meanwhile (a cancel, a deletion): its final status stands.
          if (!job.finalizing) {
            job.row.status = "running";
            job.row.started_at = startedAt;
          }
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
      result = await this.#runner.result(runnerId, job.controller.signal) as RunResult;
    } catch (error) {
      if (job.discarded) return this.#drop(job);
      job.finalizing = false;
      await this.#fail(job, `The run ended but its result could not be read: ${message(error)}`);
      return;
    }
    if (job.discarded) return this.#drop(job);
    await this.#flushLogs();
    await this.#store.saveJobResult(job.row.id, JSON.stringify(result));
    job.progress.onDone();
    const finishedAt = this.#now();
    const final: JobRow = {
      ...job.row,
      status: "completed",
      progress: 100,
      finished_at: finishedAt,
      started_at: job.row.started_at ?? finishedAt,
    };
    await this.#store.updateJob(job.row.id, {
      status: "completed",
      progress: 100,
      finished_at: finishedAt,
      ...(job.row.started_at === null ? { started_at: finishedAt } : {}),
    });
    // The record is saved before the job shows as completed: whoever sees it finished finds it.
    await this.#saveRecord(job, final, result);
    const { status, progress, finished_at, started_at } = final;
    Object.assign(job.row, { status, progress, finished_at, started_at });
    this.#emitProgress(job);
    // The result is stored before `done` goes out: a client reads /results as soon as it sees it.
    job.events.append(done ? done as unknown as RunEvent : doneEvent(result));
    this.#active.delete(job.row.id);
  }

  /** Forgets a job of a deleted model without writing anything more of it. */
  #drop(job: ActiveJob): void {
    job.events.append({ type: "error", error: CANCELLED });
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
  #end(
    job: ActiveJob,
    status: "failed" | "cancelled",
    error: string,
    cancelRunner: boolean,
  ): Promise<void> {
    job.finalizing = true;
    const ending = this.#endNow(job, status, error, cancelRunner);
    job.ending = ending.catch(() => {});
    return ending;
  }

  async #endNow(
    job: ActiveJob,
    status: "failed" | "cancelled",
    error: string,
    cancelRunner: boolean,
  ): Promise<void> {
    job.controller.abort();
    const runnerId = job.row.runner_job_id;
    if (cancelRunner && runnerId !== null) {
      await this.#runner.cancel(runnerId).catch(() => false);
    }
    await this.#flushLogs();
    const finishedAt = this.#now();
    const progress = job.progress.value(Date.now());
    const ended = { status, error, finished_at: finishedAt, progress };
    await this.#store.updateJob(job.row.id, ended);
    // The record is saved before the job shows as failed: whoever sees it finished finds it.
    if (status === "failed") await this.#saveRecord(job, { ...job.row, ...ended }, { error });
    Object.assign(job.row, ended);
    job.events.append({ type: "error", error });
    this.#active.delete(job.row.id);
  }

  async #flushLogs(): Promise<void> {
    await this.#appender.flush().catch((error) => this.#log(`job logs: ${message(error)}`));
  }

  /** The run-history record of a finished job, in the frontend's form (and the spec's keys). */
  async #saveRecord(
    job: ActiveJob,
    row: JobRow,
    result: Record<string, unknown>,
  ): Promise<void> {
    // A job of a model being deleted leaves no history.
    if (job.discarded) return;
    const record = runRecord(row, job.modelName, result, job.lines);
    try {
      await this.#store.upsertCompletedRun({
        id: row.id,
        model_id: row.model_id,
        model_name: job.modelName,
        status: row.status,
        completed_at: row.finished_at,
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
