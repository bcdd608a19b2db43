/**
 * A worker process's side of the queue: a BullMQ Worker takes up to `concurrency` jobs at once
 * and solves each in a Deno Worker of its own (`runBodyInWorker`). Log lines, progress and
 * stats go to the job's Redis stream while the job is this worker's; the result and the final
 * status are written in one script. A cancel arrives on a pub/sub channel (and, should that
 * message be missed, is seen by a check of the status every second) and terminates the solve's
 * Worker. While Redis is away the client keeps the commands and resends them; the final write
 * is retried until it is through, so a result is never dropped by an outage. `close()` stops
 * taking jobs and hands the running ones back to the queue for another worker.
 */
import { Buffer } from "node:buffer";
import { type Job as BullJob, WaitingError, Worker } from "bullmq";
import { runBodyInWorker } from "../../../lib/runner/run_body_in_worker.ts";
import type { BodyRun } from "../../../lib/runner/model_runner.ts";
import type { RunEvent } from "../../../lib/runner/run_events.ts";
import { refusalMessage } from "../../../lib/runner/model_refusal.ts";
import { processName } from "../run_job_store.ts";
import { StatsMeter } from "../run_stats.ts";
import {
  bodyKey,
  CANCEL_CHANNEL,
  endKeys,
  eventsKey,
  jobKey,
  LOCK_DURATION_MS,
  QUEUE_NAME,
  QUEUED_BYTES_KEY,
  redisClient,
  resultKey,
  STALLED_INTERVAL_MS,
  withScripts,
} from "./queue_keys.ts";
import type { RedisAddress } from "./redis_url.ts";

/** What a queue worker is built from. */
export interface QueueWorkerOptions {
  address: RedisAddress;
  /** Solves at once (RUNNER_WORKERS). */
  concurrency: number;
  /** The solver over each model's own choice (RUNNER_SOLVER). */
  solver?: string;
  /** Workers that may take a job before it is failed as "worker lost" (RUNNER_ATTEMPTS). */
  attempts: number;
  /** How long a finished job is kept, ms (RUNNER_JOB_TTL_S). */
  ttlMs: number;
  /** A `stats` event this often while a job runs, ms. */
  statsMs: number;
  /** This worker's name in `GET /run/{id}` (default `host:pid`). */
  name?: string;
  /** Runs one body (default `runBodyInWorker`); tests may pass another. */
  runBody?: (body: Uint8Array, hooks: Parameters<typeof runBodyInWorker>[1]) => Promise<BodyRun>;
}

/** A running queue worker. */
export interface QueueWorker {
  readonly name: string;
  /** Stops taking jobs, hands the running ones back to the queue, closes the connections. */
  close(): Promise<void>;
}

/** How often a running job's status is looked at, in case a cancel message was missed, ms. */
const CANCEL_POLL_MS = 1000;

/** Pause between two tries of a final write while Redis is away, ms. */
const RETRY_MS = 1000;

/** Starts taking jobs. */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const name = options.name ?? processName();
  const ttl = Math.max(1, Math.ceil(options.ttlMs / 1000));
  const redis = withScripts(redisClient(options.address));
  redis.on("error", () => {});
  const subscriber = redisClient(options.address);
  subscriber.on("error", () => {});
  const runBody = options.runBody ??
    ((body, hooks) => runBodyInWorker(body, hooks, options.solver));
  /** The abort of each job this process solves. */
  const running = new Map<string, AbortController>();
  let closing = false;

  await subscriber.subscribe(CANCEL_CHANNEL);
  subscriber.on("message", (_channel: string, id: string) => running.get(id)?.abort());

  const append = (id: string, event: RunEvent) => {
    redis.runnerAppend(jobKey(id), eventsKey(id), name, JSON.stringify(event)).catch(() => {});
  };

  /** Retries `write` until Redis takes it (or the process is told to stop). */
  const persist = async (write: () => Promise<unknown>) => {
    for (;;) {
      try {
        return await write();
      } catch (error) {
        console.error(`runner-worker ${name}: Redis write failed, retrying:`, String(error));
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  };

  async function process(job: BullJob, token?: string): Promise<void> {
    const id = job.id!;
    const now = () => new Date().toISOString();
    const taken = await redis.runnerTake(
      ...endKeys(id),
      name,
      now(),
      job.stalledCounter ?? 0,
      options.attempts,
      ttl,
    );
    if (taken !== "run") return;
    const controller = new AbortController();
    running.set(id, controller);
    const meter = new StatsMeter();
    const stats = setInterval(() => append(id, meter.next()), options.statsMs);
    const poll = setInterval(() => {
      redis.hget(jobKey(id), "status").then((status) => {
        if (status !== "running") controller.abort();
      }, () => {});
    }, CANCEL_POLL_MS);
    let outcome: BodyRun | Error;
    try {
      const stored = await redis.getBuffer(bodyKey(id));
      if (stored === null) throw new Error("The job's model body is gone from Redis");
      // Its own buffer, so that it moves to the solve's Worker without a copy.
      const body = new Uint8Array(stored.byteLength);
      body.set(stored);
      outcome = await runBody(body, {
        log: (line) => append(id, { type: "log", line }),
        progress: ({ phase, pct }) => append(id, { type: "progress", phase, pct }),
        signal: controller.signal,
      });
    } catch (error) {
      outcome = error instanceof Error ? error : new Error(String(error));
    } finally {
      clearInterval(stats);
      clearInterval(poll);
      running.delete(id);
    }
    if (controller.signal.aborted) {
      if (!closing) return; // cancelled: the cancel wrote the job's end
      // This worker stops: the job goes back to the queue for another one.
      await persist(() => redis.runnerRelease(jobKey(id), eventsKey(id), QUEUED_BYTES_KEY, name));
      await job.moveToWait(token);
      throw new WaitingError();
    }
    await persist(() => finish(id, outcome));
  }

  /** Writes the job's end: result and status and final event at once. */
  const finish = (id: string, outcome: BodyRun | Error) => {
    const keys = [jobKey(id), eventsKey(id), resultKey(id), bodyKey(id)] as const;
    const at = new Date().toISOString();
    /** A failed end: its error, the model's problems when it was refused (else none). */
    const failed = (error: string, problems?: { path: string; message: string }[]) => {
      const event: RunEvent = { type: "error", error, ...(problems ? { problems } : {}) };
      const problemsJson = problems ? JSON.stringify(problems) : "";
      return redis.runnerFinish(
        ...keys,
        name,
        "failed",
        at,
        "",
        error,
        problemsJson,
        JSON.stringify(event),
        ttl,
      );
    };
    if (outcome instanceof Error) {
      console.error(`runner-worker ${name}: job ${id} failed:`, outcome.message);
      return failed(outcome.message || "The run failed");
    }
    if (!outcome.ok) {
      const problems = outcome.problems.map(({ path, message }) => ({ path, message }));
      return failed(refusalMessage(outcome), problems);
    }
    const result = outcome.result;
    const event: RunEvent = {
      type: "done",
      result: result.summary,
      objective: result.objective,
      termination: result.termination,
      success: result.success,
    };
    return redis.runnerFinish(
      ...keys,
      name,
      "completed",
      at,
      result.termination,
      "",
      "",
      JSON.stringify(event),
      ttl,
      Buffer.from(result.json.buffer, result.json.byteOffset, result.json.byteLength),
    );
  };

  // BullMQ leaves a client it was given open on close: this one is closed below.
  const workerClient = redisClient(options.address);
  const worker = new Worker(QUEUE_NAME, process, {
    connection: workerClient,
    concurrency: options.concurrency,
    lockDuration: LOCK_DURATION_MS,
    stalledInterval: STALLED_INTERVAL_MS,
    maxStalledCount: options.attempts - 1,
    autorun: false,
  });
  worker.on("error", () => {});
  // A job BullMQ failed itself (its workers lost too often) ends as "worker lost" here too.
  worker.on("failed", (job, error) => {
    if (job?.id === undefined || error instanceof WaitingError) return;
    if (!/stalled/.test(error?.message ?? "")) return;
    redis.runnerLost(...endKeys(job.id), new Date().toISOString(), ttl, "worker lost")
      .catch(() => {});
  });
  void worker.run().catch((error) => console.error(`runner-worker ${name}:`, error));
  await worker.waitUntilReady();

  return {
    name,
    async close() {
      closing = true;
      const stopping = worker.close();
      for (const controller of running.values()) controller.abort();
      await stopping.catch(() => {});
      await subscriber.quit().catch(() => subscriber.disconnect());
      await redis.quit().catch(() => redis.disconnect());
      workerClient.disconnect();
    },
  };
}
