/**
 * `model-run` with RUNNER_QUEUE_URL: each run (one per scenario of a sweep) is a job on the
 * runner's queue, solved by whichever `deno task runner-worker` processes take it, on any
 * machine, all at once as far as there are workers. Each job's log is relayed as it arrives;
 * `onEnd` gets its result as it finishes. An abort (Ctrl-C) cancels every job still running.
 */
import type { RunEvent } from "../lib/runner/run_events.ts";
import type { RunResult } from "../lib/runner/model_runner.ts";
import type { RunnerSettings } from "../server/runner/config.ts";
import { Redis as IORedis } from "ioredis";
import { RedisJobStore } from "../server/runner/queue/redis_job_store.ts";
import { describeRedis, type RedisAddress } from "../server/runner/queue/redis_url.ts";

/** One job to submit: its label in the log and its model body (a ModelConfig, checked). */
export interface QueuedRun {
  readonly label: string;
  readonly body: unknown;
}

/** How a queued run ended: its result, or why there is none; and which worker took it. */
export type QueuedEnd =
  | { readonly ok: true; readonly result: RunResult; readonly worker: string | null }
  | { readonly ok: false; readonly error: string; readonly worker: string | null };

/** What a queued sweep reports to. */
export interface QueueHooks {
  /** Each line of each job's log, prefixed with its label when there are several. */
  log(line: string): void;
  /** Called once per run, as it ends (in the order they end). */
  onEnd(index: number, end: QueuedEnd): Promise<void>;
  /** Aborted: every job still waiting or running is cancelled. */
  readonly signal?: AbortSignal;
}

/** How long the queue may take to answer before the command gives up, ms. */
const CONNECT_TIMEOUT_MS = 10_000;

const REFUSALS: Record<string, string> = {
  queue_full: "the queue is full (RUNNER_MAX_QUEUED)",
  queue_bytes_full: "the queue holds too many model bytes (RUNNER_MAX_QUEUED_MB)",
  closed: "the queue is closing",
};

/**
 * Throws unless Redis answers a PING within CONNECT_TIMEOUT_MS. Asked before the job store is
 * made: a store whose Redis never answered waits for it without end, and so would its close.
 */
async function probe(address: RedisAddress): Promise<void> {
  // One connection attempt, no retries: a refused or silent address fails at once or on time.
  const client = new IORedis({
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.password === undefined ? {} : { password: address.password }),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
  } catch {
    // ioredis's reasons ("Stream isn't writeable ...") say less than this.
    throw new Error(
      `the job queue at ${describeRedis(address)} does not answer (is redis-server running ` +
        "there, and the password right?)",
    );
  } finally {
    client.disconnect();
  }
}

/** Follows a job's events to its final one, relaying its log lines. */
async function follow(
  store: RedisJobStore,
  id: string,
  log: (line: string) => void,
): Promise<RunEvent | undefined> {
  const subscribe = await store.events(id);
  if (subscribe === undefined) return undefined;
  return await new Promise((resolve) => {
    // The history may replay within subscribe(), before its unsubscribe function is returned.
    const handle: { ended: boolean; stop?: () => void } = { ended: false };
    handle.stop = subscribe((event) => {
      if (handle.ended) return;
      if (event.type === "log") log(event.line);
      if (event.type === "done" || event.type === "error") {
        handle.ended = true;
        handle.stop?.();
        resolve(event);
      }
    });
    if (handle.ended) handle.stop();
  });
}

/** How job `id` ended, read from the store once its final event is in. */
async function endOf(store: RedisJobStore, id: string, final: RunEvent | undefined) {
  const worker = (await store.status(id))?.worker ?? null;
  if (final === undefined) return { ok: false as const, error: "the job expired", worker };
  if (final.type === "error") return { ok: false as const, error: final.error, worker };
  const stored = await store.result(id);
  if (stored?.status !== "completed") {
    return { ok: false as const, error: `no result (${stored?.status ?? "expired"})`, worker };
  }
  const result = JSON.parse(new TextDecoder().decode(stored.json)) as RunResult;
  return { ok: true as const, result, worker };
}

/** Submits every run to the queue at `settings.queue` and reports each one's end. */
export async function runOnQueue(
  settings: RunnerSettings & { readonly queue: RedisAddress },
  runs: readonly QueuedRun[],
  hooks: QueueHooks,
): Promise<void> {
  await probe(settings.queue);
  const store = new RedisJobStore({
    address: settings.queue,
    maxQueued: settings.maxQueued,
    maxQueuedBytes: settings.maxQueuedBytes,
    ttlMs: settings.jobTtlMs,
    attempts: settings.attempts,
  });
  const ids = new Set<string>();
  const cancelAll = () => {
    for (const id of ids) void store.cancel(id).catch(() => {});
  };
  hooks.signal?.addEventListener("abort", cancelAll, { once: true });
  try {
    await store.ready();
    const submitted: (string | QueuedEnd)[] = [];
    for (const run of runs) {
      if (hooks.signal?.aborted) {
        submitted.push({ ok: false, error: "cancelled", worker: null });
        continue;
      }
      const bytes = new TextEncoder().encode(JSON.stringify(run.body));
      const outcome = await store.submit(bytes);
      if (!outcome.ok) {
        const error = `refused: ${REFUSALS[outcome.reason] ?? outcome.reason}`;
        submitted.push({ ok: false, error, worker: null });
        continue;
      }
      ids.add(outcome.id);
      submitted.push(outcome.id);
      hooks.log(`[queue] ${run.label}: job ${outcome.id} on ${describeRedis(settings.queue)}`);
    }
    const prefix = (label: string) => runs.length > 1 ? `[${label}] ` : "";
    await Promise.all(submitted.map(async (entry, i) => {
      if (typeof entry !== "string") return await hooks.onEnd(i, entry);
      const label = runs[i]!.label;
      const final = await follow(store, entry, (line) => hooks.log(`${prefix(label)}${line}`));
      await hooks.onEnd(i, await endOf(store, entry, final));
    }));
  } finally {
    hooks.signal?.removeEventListener("abort", cancelAll);
    await store.close();
  }
}
