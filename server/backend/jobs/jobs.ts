/**
 * The backend's jobs, on the job engine (`lib/jobs/`): each one is a model submitted to the
 * solver runner and followed through the runner's event stream in the background (its work,
 * `job_follower.ts`), its log lines kept in the store in batches (`job_log_writer.ts`), ended
 * `completed`, `failed` or `cancelled` with a completed-run record where one is due, the
 * engine writing every end through the backend's store (`job_rows.ts`). The runner queues the
 * runs: the engine here bounds nothing.
 *
 * A running job's events are kept live (`active_job.ts`); a finished job's stream is rebuilt
 * from the store. The row in the store is written at every change of status, before the change
 * is visible anywhere else.
 *
 * A model's deletion and the submissions of its runs are serialised (`model_queues.ts`): a
 * submission records its job only while the model exists, and a deletion first ends every job
 * of the model (cancelled on the runner, an upload in flight waited for and then cancelled)
 * and waits until nothing of them runs, then deletes the model with its jobs. Nothing is
 * written for such a job afterwards, and it gets no run record (issue 18).
 */
import type { BackendStore, JobRow } from "../../../lib/backend/backend_store.ts";
import type { RunnerClient } from "../../../lib/backend/runner_client.ts";
import { JobQueue } from "../../../lib/jobs/job_queue.ts";
import type { RunResult } from "../../../lib/runner/model_runner.ts";
import { JobEventLog, type RunEvent } from "../../../lib/runner/run_events.ts";
import { ActiveJob, activeView, type Completion } from "./active_job.ts";
import { errorMessage } from "../../../lib/jobs/job_engine.ts";
import { JobFollower } from "./job_follower.ts";
import { type JobLogBatch, JobLogWriter } from "./job_log_writer.ts";
import { jobRows } from "./job_rows.ts";
import {
  CANCELLED,
  type CancelOutcome,
  doneEvent,
  INTERRUPTED,
  type JobSubmission,
  type JobView,
  rowView,
} from "./job_view.ts";
import { ModelQueues } from "./model_queues.ts";

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
  logBatch?: JobLogBatch;
}

/** The jobs of one backend. */
export class BackendJobs {
  readonly #store: BackendStore;
  readonly #now: () => string;
  readonly #log: (message: string) => void;
  readonly #active = new Map<string, ActiveJob>();
  readonly #logs: JobLogWriter;
  readonly #engine: JobQueue<JobSubmission, Completion, RunEvent>;
  /** One queue per model with work in it: its deletion and its submissions, one at a time. */
  readonly #modelQueues = new ModelQueues();
  #closing: Promise<void> | undefined;

  constructor(options: BackendJobsOptions) {
    const { store, runner } = options;
    const clock = options.clock ?? (() => new Date());
    const now = () => clock().toISOString();
    const log = options.log ?? ((line: string) => console.error(`backend: ${line}`));
    const logs = new JobLogWriter(store, options.logBatch, log);
    this.#store = store;
    this.#now = now;
    this.#log = log;
    this.#logs = logs;
    const follower = new JobFollower({
      store,
      runner,
      now,
      logs,
      reconnectMs: options.reconnectMs ?? 6000,
    });
    this.#engine = new JobQueue<JobSubmission, Completion, RunEvent>({
      work: (_submission, context) => follower.run(this.#active.get(context.id)!),
      events: () => new JobEventLog(),
      // The runner queues and bounds the runs.
      maxRunning: Infinity,
      // The store holds finished jobs.
      ttlMs: 0,
      store: jobRows({ store, runner, now, log, logs, active: (id) => this.#active.get(id) }),
      restartRule: { state: "failed", error: INTERRUPTED },
      now: () => clock().getTime(),
      cancelMessage: CANCELLED,
      // The result is stored before `done` goes out: a client reads /results as soon as it sees it.
      finalEvent: (job) =>
        job.state === "succeeded" && job.result
          ? job.result.done ?? doneEvent(job.result.result)
          : { type: "error", error: job.error ?? CANCELLED },
      onFinished: (job) => this.#active.delete(job.id),
    });
  }

  /**
   * Marks jobs left pending or running by a previous process as failed (`interrupted by
   * restart`) and asks the runner to drop them (best effort, so an orphan does not hold a
   * worker). Returns how many there were.
   */
  recover(): Promise<number> {
    return this.#engine.recover();
  }

  /**
   * Records a job (committed), then submits and follows it in the background; undefined when
   * the model no longer exists (deleted since the caller read it).
   */
  submit(submission: JobSubmission): Promise<JobView | undefined> {
    return this.#modelQueues.run(submission.modelId, async () => {
      if (this.#closing) throw new Error("The backend is stopping");
      if (!await this.#store.hasModel(submission.modelId)) return undefined;
      return this.#submit(submission);
    });
  }

  async #submit(submission: JobSubmission): Promise<JobView> {
    let active!: ActiveJob;
    const job = this.#engine.submit(submission, (job) => {
      const row: JobRow = {
        id: job.id,
        model_id: submission.modelId,
        status: "pending",
        progress: 0,
        created_at: new Date(job.createdAt).toISOString(),
        started_at: null,
        finished_at: null,
        error: null,
        runner_job_id: null,
      };
      active = new ActiveJob(job as ActiveJob["job"], row, submission);
      this.#active.set(job.id, active);
    });
    try {
      await this.#engine.recorded(job.id);
    } catch (error) {
      this.#active.delete(job.id);
      throw error;
    }
    for (const note of submission.notes ?? []) this.#logs.add(active, `[backend] ${note}`);
    return activeView(active);
  }

  /** The job's view; undefined when unknown. */
  async view(id: string): Promise<JobView | undefined> {
    const job = this.#active.get(id);
    if (job) return activeView(job);
    const row = await this.#store.getJob(id);
    return row ? rowView(row) : undefined;
  }

  /** The views of a model's jobs, the newest first. */
  async listForModel(modelId: string): Promise<JobView[]> {
    const rows = await this.#store.listJobs(modelId);
    return rows.map((row) => {
      const job = this.#active.get(row.id);
      return job ? activeView(job) : rowView(row);
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
    await this.#cancel(job);
    return { outcome: "cancelled", job: activeView(job) };
  }

  /** Cancels a job on the engine; resolves once its end is written. */
  #cancel(job: ActiveJob): Promise<void> {
    const outcome = this.#engine.cancel(job.row.id);
    if (outcome.outcome !== "cancelled") return Promise.resolve();
    job.ending = outcome.ended;
    return outcome.ended;
  }

  /**
   * Deletes a model with its jobs, their logs and results; false when it does not exist. Its
   * unfinished jobs are ended first (cancelled on the runner, uploads in flight waited for and
   * cancelled) and nothing of them is written afterwards; no submission of the model gets in
   * between. Run records of jobs that finished before stay in the history.
   */
  deleteModel(modelId: string): Promise<boolean> {
    return this.#modelQueues.run(modelId, async () => {
      if (!await this.#store.hasModel(modelId)) return false;
      const jobs = [...this.#active.values()].filter((j) => j.row.model_id === modelId);
      await Promise.all(jobs.map((job) => this.#discard(job)));
      // Log lines still batched would land after the deletion: write them first.
      await this.#logs.flush();
      return await this.#store.deleteModel(modelId);
    });
  }

  /** Ends a job of a model being deleted and waits until nothing of it runs. */
  async #discard(job: ActiveJob): Promise<void> {
    job.discarded = true;
    if (!job.finalizing) {
      this.#cancel(job).catch((error) => this.#log(`job ${job.row.id}: ${errorMessage(error)}`));
    }
    await Promise.allSettled([job.job.settled, job.ending]);
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
      await this.#engine.close({ running: "fail", error: INTERRUPTED });
      await this.#logs.close();
    })();
    return this.#closing;
  }
}
