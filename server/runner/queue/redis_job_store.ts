/**
 * The runner's jobs on Redis and a BullMQ queue, as one service instance sees them: `submit`
 * writes the job's record, body and first event, then puts the job on the queue; worker
 * processes (`queue_worker.ts`) take it. Status, result and events are read from Redis, so any
 * instance behind a load balancer answers for any job. While Redis is unreachable every call
 * answers 503 at once (the client fails fast); what a worker writes meanwhile waits in the
 * worker. The instance also runs BullMQ's stalled-job check (a Worker that takes no jobs), so a
 * job whose only worker died is failed as "worker lost" even when no other worker is left.
 */
import { Buffer } from "node:buffer";
import { Queue, QueueEvents, Worker } from "bullmq";
import type { Redis as IORedis } from "ioredis";
import { isFinal, type RunEvent } from "../../../lib/runner/run_events.ts";
import { httpError } from "../../middleware/errors.ts";
import type { JobStatus, JobStatusView, Refused } from "../jobs.ts";
import type {
  EventSubscription,
  RunJobStore,
  StoreCancelOutcome,
  StoreResult,
  StoreSubmitOutcome,
} from "../run_job_store.ts";
import {
  bodyKey,
  bullJobKey,
  CANCEL_CHANNEL,
  endKeys,
  eventsKey,
  jobKey,
  LOCK_DURATION_MS,
  QUEUE_NAME,
  QUEUED_BYTES_KEY,
  redisClient,
  resultKey,
  type RunnerScripts,
  STALLED_INTERVAL_MS,
  withScripts,
} from "./queue_keys.ts";
import type { RedisAddress } from "./redis_url.ts";

/** What a Redis job store is built from. */
export interface RedisJobStoreOptions {
  address: RedisAddress;
  /** Most jobs waiting for a worker; more are refused (503). */
  maxQueued: number;
  /** Most body bytes waiting, all jobs together. */
  maxQueuedBytes: number;
  /** How long a finished job is kept, ms. */
  ttlMs: number;
  /** Workers that may take a job before it is failed as "worker lost". */
  attempts: number;
}

/** The message of a 503 while Redis is unreachable. */
export const QUEUE_UNAVAILABLE = "The job queue (Redis) is unreachable; try again later";

/** The error of a job whose workers were lost `attempts` times. */
export const WORKER_LOST = "worker lost";

/** BullMQ's reason for a job that stalled more often than allowed. */
const STALLED_REASON = "job stalled more than allowable limit";

/** Events read per Redis call while a stream replays. */
const PAGE = 1000;

/** How long one blocking read of a stream waits before it looks again, ms. */
const BLOCK_MS = 10_000;

type Client = IORedis & RunnerScripts;

/** The jobs of a runner service whose workers are other processes. */
export class RedisJobStore implements RunJobStore {
  readonly #o: RedisJobStoreOptions;
  readonly #redis: Client;
  readonly #queue: Queue;
  readonly #events: QueueEvents;
  readonly #stallCheck: Worker;
  readonly #readers = new Set<IORedis>();
  /** The clients handed to BullMQ as instances: it treats them as shared and never closes them. */
  readonly #handed: IORedis[];
  #closed = false;

  constructor(options: RedisJobStoreOptions) {
    this.#o = options;
    this.#redis = withScripts(redisClient(options.address, { failFast: true }));
    // Without a listener, ioredis reports every failed reconnection on stderr.
    this.#redis.on("error", () => {});
    this.#queue = new Queue(QUEUE_NAME, { connection: this.#redis });
    this.#queue.on("error", () => {});
    const eventsClient = redisClient(options.address);
    const stallClient = redisClient(options.address);
    this.#handed = [eventsClient, stallClient];
    this.#events = new QueueEvents(QUEUE_NAME, { connection: eventsClient });
    this.#events.on("error", () => {});
    this.#events.on("stalled", ({ jobId }) => void this.#stalled(jobId).catch(() => {}));
    this.#events.on("failed", ({ jobId, failedReason }) => {
      if (failedReason === STALLED_REASON) void this.#lost(jobId).catch(() => {});
    });
    // A Worker that only runs the stalled check: it takes no jobs.
    this.#stallCheck = new Worker(QUEUE_NAME, undefined, {
      connection: stallClient,
      autorun: false,
      lockDuration: LOCK_DURATION_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      maxStalledCount: options.attempts - 1,
    });
    this.#stallCheck.on("error", () => {});
    void this.#stallCheck.startStalledCheckTimer().catch(() => {});
  }

  /** Resolves once the store's connections are ready. */
  async ready(): Promise<void> {
    await Promise.all([
      this.#queue.waitUntilReady(),
      this.#events.waitUntilReady(),
    ]);
  }

  async refusal(bytes = 0): Promise<Refused | undefined> {
    if (this.#closed) return "closed";
    const [waiting, queuedBytes] = await this.#call(() =>
      Promise.all([this.#queue.getWaitingCount(), this.#redis.get(QUEUED_BYTES_KEY)])
    );
    if (waiting >= this.#o.maxQueued) return "queue_full";
    if (Number(queuedBytes ?? 0) + bytes > this.#o.maxQueuedBytes) return "queue_bytes_full";
    return undefined;
  }

  async submit(body: Uint8Array): Promise<StoreSubmitOutcome> {
    const refused = await this.refusal(body.length);
    if (refused !== undefined) return { ok: false, reason: refused };
    const id = crypto.randomUUID();
    const ahead = await this.#call(() => this.#queue.getWaitingCount());
    const queued: RunEvent = {
      type: "log",
      line: `[runner] queued: waiting for a worker (${ahead} job(s) ahead)`,
    };
    await this.#call(() =>
      this.#redis.multi()
        .hset(jobKey(id), {
          status: "pending",
          created_at: new Date().toISOString(),
          bytes: body.length,
        })
        .set(bodyKey(id), Buffer.from(body.buffer, body.byteOffset, body.byteLength))
        .incrby(QUEUED_BYTES_KEY, body.length)
        .xadd(eventsKey(id), "*", "e", JSON.stringify(queued))
        .exec()
    );
    try {
      await this.#call(() =>
        this.#queue.add("run", { id }, { jobId: id, removeOnComplete: true, removeOnFail: true })
      );
    } catch (error) {
      // Not acknowledged: nothing of it is left behind (best effort while Redis is away).
      await this.#redis.multi().del(jobKey(id), bodyKey(id), eventsKey(id))
        .decrby(QUEUED_BYTES_KEY, body.length).exec().catch(() => {});
      throw error;
    }
    return { ok: true, id };
  }

  async status(id: string): Promise<JobStatusView | undefined> {
    const record = await this.#call(() => this.#redis.hgetall(jobKey(id)));
    if (record["status"] === undefined) return undefined;
    return statusView(id, record);
  }

  async result(id: string): Promise<StoreResult | undefined> {
    const [record, json] = await this.#call(() =>
      Promise.all([
        this.#redis.hmget(jobKey(id), "status", "error"),
        this.#redis.getBuffer(resultKey(id)),
      ])
    );
    const [status, error] = record;
    if (status === null || status === undefined) return undefined;
    if (status === "completed" && json !== null) {
      return { status: "completed", json: new Uint8Array(json) };
    }
    return { status: status as JobStatus, error: error ?? null };
  }

  async events(id: string): Promise<EventSubscription | undefined> {
    const exists = await this.#call(() => this.#redis.exists(jobKey(id)));
    if (exists === 0) return undefined;
    return (listener) => this.#follow(id, listener);
  }

  async cancel(id: string): Promise<StoreCancelOutcome> {
    const now = new Date().toISOString();
    const before = await this.#call(() =>
      this.#redis.runnerCancel(...endKeys(id), now, this.#ttlSeconds())
    );
    if (before === "unknown") return { outcome: "unknown" };
    if (before.startsWith("finished:")) {
      return { outcome: "finished", status: before.slice("finished:".length) as JobStatus };
    }
    if (before === "pending") {
      // Off the queue; a worker that fetched it meanwhile finds it cancelled and skips it.
      await this.#queue.remove(id).catch(() => 0);
    } else {
      await this.#call(() => this.#redis.publish(CANCEL_CHANNEL, id));
    }
    return { outcome: "cancelled", status: "cancelled" };
  }

  async counts(): Promise<{ running: number; queued: number }> {
    const counts = await this.#call(() => this.#queue.getJobCounts("active", "waiting"));
    return { running: counts["active"] ?? 0, queued: counts["waiting"] ?? 0 };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const reader of this.#readers) reader.disconnect();
    this.#readers.clear();
    await Promise.allSettled([this.#stallCheck.close(), this.#events.close()]);
    await this.#queue.close().catch(() => {});
    this.#redis.disconnect();
    for (const client of this.#handed) client.disconnect();
  }

  /** A stall BullMQ noticed: the job is failed when its workers were lost `attempts` times. */
  async #stalled(id: string): Promise<void> {
    const stalls = Number(await this.#redis.hget(bullJobKey(id), "stc") ?? 0);
    if (stalls >= this.#o.attempts) await this.#lost(id);
  }

  async #lost(id: string): Promise<void> {
    const now = new Date().toISOString();
    await this.#redis.runnerLost(...endKeys(id), now, this.#ttlSeconds(), WORKER_LOST);
    await this.#queue.remove(id).catch(() => 0);
  }

  #ttlSeconds(): number {
    return Math.max(1, Math.ceil(this.#o.ttlMs / 1000));
  }

  /** Replays the job's stream with XRANGE, then follows it with XREAD BLOCK on its own client. */
  #follow(id: string, listener: (event: RunEvent) => void): () => void {
    const reader = redisClient(this.#o.address);
    reader.on("error", () => {});
    this.#readers.add(reader);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      this.#readers.delete(reader);
      reader.disconnect();
    };
    const key = eventsKey(id);
    /** Hands on one entry; true when it was the last. */
    const deliver = (fields: string[]): boolean => {
      const json = fields[1];
      if (json === undefined || stopped) return stopped;
      const event = JSON.parse(json) as RunEvent;
      listener(event);
      return isFinal(event);
    };
    const run = async () => {
      let last = "-";
      for (;;) {
        const page = await reader.xrange(key, last === "-" ? "-" : `(${last}`, "+", "COUNT", PAGE);
        for (const [entryId, fields] of page) {
          last = entryId;
          if (deliver(fields)) return;
        }
        if (page.length < PAGE) break;
      }
      if (last === "-") last = "0-0";
      while (!stopped) {
        const answer = await reader.xread("COUNT", PAGE, "BLOCK", BLOCK_MS, "STREAMS", key, last);
        for (const [, entries] of answer ?? []) {
          for (const [entryId, fields] of entries) {
            last = entryId;
            if (deliver(fields)) return;
          }
        }
      }
    };
    run().catch(() => {}).finally(stop);
    return stop;
  }

  /** A Redis call; unreachable Redis is a 503. */
  async #call<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch {
      throw httpError(503, QUEUE_UNAVAILABLE);
    }
  }
}

/** The status record as `GET /run/{id}` answers it. */
function statusView(id: string, record: Record<string, string>): JobStatusView {
  const text = (name: string) => {
    const value = record[name];
    return value === undefined || value === "" ? null : value;
  };
  const problems = text("problems");
  const status = record["status"] as JobStatus;
  return {
    id,
    status,
    created_at: record["created_at"] ?? new Date(0).toISOString(),
    started_at: text("started_at"),
    finished_at: text("finished_at"),
    termination: text("termination"),
    error: text("error"),
    problems: problems === null ? null : JSON.parse(problems),
    worker: status === "pending" ? null : text("worker"),
  };
}
