/**
 * The runner service's settings from environment variables, read by a pure function. The
 * interface it binds is the shared HOST (`server/config.ts`), like every other service.
 */
import { type Env, integer, port, positive, text } from "../env.ts";
import { parseRedisUrl, type RedisAddress } from "./queue/redis_url.ts";

/** Everything the runner service is configured with. */
export interface RunnerSettings {
  /** Port of the runner service (RUNNER_PORT, default 5000, where the frontend looks). */
  port: number;
  /** Most runs solving at once (RUNNER_WORKERS, default 1); the rest wait in FIFO order. */
  workers: number;
  /** Most jobs waiting for a worker (RUNNER_MAX_QUEUED, default 100); more answer 503. */
  maxQueued: number;
  /**
   * Most model bytes waiting for a worker, all queued jobs together, bytes (RUNNER_MAX_QUEUED_MB,
   * default 1024 MiB): a queued job is its raw body until a worker takes it. More answer 503.
   */
  maxQueuedBytes: number;
  /** How long a finished job stays readable, ms (RUNNER_JOB_TTL_S, default 3600 s). */
  jobTtlMs: number;
  /** Largest accepted model body, bytes (RUNNER_MAX_BODY_MB, default 64 MiB). */
  maxBodyBytes: number;
  /** A `: keepalive` comment after this long without a frame, ms (15 s; not an env setting). */
  keepaliveMs: number;
  /** A `stats` event this often while a job runs, ms (10 s; not an env setting). */
  statsMs: number;
  /**
   * The Redis of the job queue (RUNNER_QUEUE_URL, `redis://[:password@]HOST:PORT[/DB]`): jobs go
   * to a BullMQ queue that `deno task runner-worker` processes take. Absent: jobs run in this
   * process, as `workers` says.
   */
  queue?: RedisAddress;
  /** The solver of every run over the model's own choice (RUNNER_SOLVER); absent: the model's. */
  solver?: string;
  /**
   * How many workers may take a job before it is failed as "worker lost" (RUNNER_ATTEMPTS,
   * default 2): a worker that dies mid-solve returns its job to the queue. Queue mode only.
   */
  attempts: number;
}

/** Defaults of the settings. */
export const RUNNER_DEFAULTS = {
  port: 5000,
  workers: 1,
  maxQueued: 100,
  maxQueuedMb: 1024,
  jobTtlSeconds: 3600,
  maxBodyMb: 64,
  keepaliveMs: 15_000,
  statsMs: 10_000,
  attempts: 2,
} as const;

/** Reads the runner settings; throws RangeError naming the variable at fault. */
export function readRunnerSettings(env: Env): RunnerSettings {
  const bodyMb = positive(
    "RUNNER_MAX_BODY_MB",
    env["RUNNER_MAX_BODY_MB"],
    RUNNER_DEFAULTS.maxBodyMb,
  );
  const queuedMb = positive(
    "RUNNER_MAX_QUEUED_MB",
    env["RUNNER_MAX_QUEUED_MB"],
    RUNNER_DEFAULTS.maxQueuedMb,
  );
  const queueUrl = text(env, "RUNNER_QUEUE_URL");
  const solver = text(env, "RUNNER_SOLVER");
  return {
    port: port("RUNNER_PORT", env["RUNNER_PORT"], RUNNER_DEFAULTS.port),
    workers: integer(env, "RUNNER_WORKERS", RUNNER_DEFAULTS.workers, 1),
    maxQueued: integer(env, "RUNNER_MAX_QUEUED", RUNNER_DEFAULTS.maxQueued, 0),
    maxQueuedBytes: Math.floor(queuedMb * 1024 * 1024),
    jobTtlMs: positive("RUNNER_JOB_TTL_S", env["RUNNER_JOB_TTL_S"], RUNNER_DEFAULTS.jobTtlSeconds) *
      1000,
    // MiB, as the 413 message says; a fraction is allowed (0.5 = 512 KiB).
    maxBodyBytes: Math.floor(bodyMb * 1024 * 1024),
    keepaliveMs: RUNNER_DEFAULTS.keepaliveMs,
    statsMs: RUNNER_DEFAULTS.statsMs,
    attempts: integer(env, "RUNNER_ATTEMPTS", RUNNER_DEFAULTS.attempts, 1),
    ...(queueUrl === undefined ? {} : { queue: parseRedisUrl("RUNNER_QUEUE_URL", queueUrl) }),
    ...(solver === undefined ? {} : { solver }),
  };
}
