/**
 * The runner's names in Redis and the scripts that move a job's record. BullMQ owns the queue
 * (`bull:runner:*`); the runner keeps beside it, per job, its status record, its body, its
 * events and its result, so that any service instance answers for any job. Every move of a
 * record is one Lua script: a check of where the job is and the move happen at once, so that a
 * cancel on one machine and a worker's finish on another cannot both win, and a job's final
 * event is written with its final status.
 */
import { Redis as IORedis } from "ioredis";
import type { RedisAddress } from "./redis_url.ts";

/** The BullMQ queue of the runner's jobs. */
export const QUEUE_NAME = "runner";

/** The status record (HASH): status, times, termination, error, problems, worker, bytes. */
export const jobKey = (id: string) => `runner:job:${id}`;
/** The model body's bytes (STRING), until the job ends. */
export const bodyKey = (id: string) => `runner:body:${id}`;
/** The job's events in order (STREAM, one field `e` holding the event's JSON). */
export const eventsKey = (id: string) => `runner:events:${id}`;
/** The encoded result of a completed job (STRING). */
export const resultKey = (id: string) => `runner:result:${id}`;
/** Body bytes of the jobs waiting for a worker, all together (RUNNER_MAX_QUEUED_MB). */
export const QUEUED_BYTES_KEY = "runner:queued_bytes";
/** The pub/sub channel a cancel of a running job is announced on (message: the job id). */
export const CANCEL_CHANNEL = "runner:cancel";
/** BullMQ's hash of one job (its stalled count `stc` is read from it). */
export const bullJobKey = (id: string) => `bull:${QUEUE_NAME}:${id}`;

/**
 * A worker's lock on a job lasts this long and is renewed every half of it; the stalled check
 * runs this often. A worker killed mid-solve is noticed 10 to 20 s later.
 */
export const LOCK_DURATION_MS = 10_000;
export const STALLED_INTERVAL_MS = 5_000;

/** An ioredis client as BullMQ wants it (it cannot load ioredis itself under Deno). */
export function redisClient(
  address: RedisAddress,
  options: { failFast?: boolean } = {},
): IORedis {
  const client = new IORedis({
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.password === undefined ? {} : { password: address.password }),
    // A service answers 503 at once while Redis is away (failFast); a worker waits and resends.
    maxRetriesPerRequest: options.failFast ? 1 : null,
    enableOfflineQueue: !options.failFast,
    ...(options.failFast ? { commandTimeout: 5_000 } : {}),
    retryStrategy: (times: number) => Math.min(100 * times, 1_000),
  });
  // Unreachable Redis is reported by the calls that fail; unheard, ioredis would print every
  // failed reconnection.
  client.on("error", () => {});
  return client;
}

const FINAL = `
local function final(job, events, status, at, err, event, ttl)
  redis.call('HSET', job, 'status', status, 'finished_at', at)
  if err ~= '' then redis.call('HSET', job, 'error', err) end
  redis.call('XADD', events, '*', 'e', event)
  redis.call('EXPIRE', job, ttl)
  redis.call('EXPIRE', events, ttl)
end
`;

/**
 * A worker takes a job: KEYS job, events, queued bytes, body; ARGV worker, now, stalls (BullMQ's
 * count of lost workers so far), attempts, ttl. Answers `run`, `lost` (failed now: too many
 * workers lost) or `skip` (cancelled or gone meanwhile).
 */
const TAKE = FINAL + `
local s = redis.call('HGET', KEYS[1], 'status')
if s == 'pending' or s == 'running' then
  if tonumber(ARGV[3]) >= tonumber(ARGV[4]) then
    if s == 'pending' then redis.call('DECRBY', KEYS[3], redis.call('HGET', KEYS[1], 'bytes') or 0) end
    final(KEYS[1], KEYS[2], 'failed', ARGV[2], 'worker lost',
      '{"type":"error","error":"worker lost"}', ARGV[5])
    redis.call('DEL', KEYS[4])
    return 'lost'
  end
  local before = redis.call('HGET', KEYS[1], 'worker')
  if s == 'pending' then
    redis.call('DECRBY', KEYS[3], redis.call('HGET', KEYS[1], 'bytes') or 0)
    if redis.call('HEXISTS', KEYS[1], 'started_at') == 0 then
      redis.call('HSET', KEYS[1], 'started_at', ARGV[2])
    end
  end
  redis.call('HSET', KEYS[1], 'status', 'running', 'worker', ARGV[1])
  if s == 'running' and before then
    redis.call('XADD', KEYS[2], '*', 'e', cjson.encode({type = 'log', line =
      '[runner] worker ' .. before .. ' was lost; ' .. ARGV[1] .. ' takes the job (attempt ' ..
      (tonumber(ARGV[3]) + 1) .. ' of ' .. ARGV[4] .. ')'}))
  end
  return 'run'
end
return 'skip'
`;

/** An event of a running job: KEYS job, events; ARGV worker, event JSON. Ignored otherwise. */
const APPEND = `
if redis.call('HGET', KEYS[1], 'status') == 'running' and
  redis.call('HGET', KEYS[1], 'worker') == ARGV[1] then
  redis.call('XADD', KEYS[2], '*', 'e', ARGV[2])
  return 1
end
return 0
`;

/**
 * A worker's end of a job: KEYS job, events, result, body; ARGV worker, status, now, termination,
 * error, problems JSON, final event JSON, ttl, result bytes (completed only). Only while the job
 * is still this worker's and running (a cancel or a takeover wins otherwise): answers 1 or 0.
 */
const FINISH = FINAL + `
if redis.call('HGET', KEYS[1], 'status') ~= 'running' or
  redis.call('HGET', KEYS[1], 'worker') ~= ARGV[1] then return 0 end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'termination', ARGV[4]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'problems', ARGV[6]) end
if ARGV[2] == 'completed' then
  redis.call('SET', KEYS[3], ARGV[9], 'EX', ARGV[8])
end
final(KEYS[1], KEYS[2], ARGV[2], ARGV[3], ARGV[5], ARGV[7], ARGV[8])
redis.call('DEL', KEYS[4])
return 1
`;

/**
 * A worker that stops hands its job back: KEYS job, events, queued bytes; ARGV worker. Running
 * and this worker's: pending again, its bytes counted as waiting. Answers 1 or 0.
 */
const RELEASE = `
if redis.call('HGET', KEYS[1], 'status') ~= 'running' or
  redis.call('HGET', KEYS[1], 'worker') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'pending', 'worker', '')
redis.call('INCRBY', KEYS[3], redis.call('HGET', KEYS[1], 'bytes') or 0)
redis.call('XADD', KEYS[2], '*', 'e', cjson.encode({type = 'log', line =
  '[runner] worker ' .. ARGV[1] .. ' stopped; the job is back in the queue'}))
return 1
`;

/**
 * A cancel: KEYS job, events, queued bytes, body; ARGV now, ttl. Answers the status the job had
 * (`pending` or `running`: it is cancelled now), `finished:<status>`, or `unknown`.
 */
const CANCEL = FINAL + `
local s = redis.call('HGET', KEYS[1], 'status')
if not s then return 'unknown' end
if s ~= 'pending' and s ~= 'running' then return 'finished:' .. s end
if s == 'pending' then redis.call('DECRBY', KEYS[3], redis.call('HGET', KEYS[1], 'bytes') or 0) end
final(KEYS[1], KEYS[2], 'cancelled', ARGV[1], 'cancelled', '{"type":"error","error":"cancelled"}',
  ARGV[2])
redis.call('DEL', KEYS[4])
return s
`;

/**
 * A job whose workers were lost too often (BullMQ gave up on it): KEYS job, events, queued bytes,
 * body; ARGV now, ttl, error. Pending or running: failed with `error`. Answers 1 or 0.
 */
const LOST = FINAL + `
local s = redis.call('HGET', KEYS[1], 'status')
if s ~= 'pending' and s ~= 'running' then return 0 end
if s == 'pending' then redis.call('DECRBY', KEYS[3], redis.call('HGET', KEYS[1], 'bytes') or 0) end
final(KEYS[1], KEYS[2], 'failed', ARGV[1], ARGV[3], cjson.encode({type = 'error', error = ARGV[3]}),
  ARGV[2])
redis.call('DEL', KEYS[4])
return 1
`;

/** The scripts as commands of a client. */
export interface RunnerScripts {
  runnerTake(...args: (string | number)[]): Promise<string>;
  runnerAppend(...args: (string | number)[]): Promise<number>;
  runnerFinish(...args: (string | number | Uint8Array)[]): Promise<number>;
  runnerRelease(...args: (string | number)[]): Promise<number>;
  runnerCancel(...args: (string | number)[]): Promise<string>;
  runnerLost(...args: (string | number)[]): Promise<number>;
}

/** `client` with the runner's scripts defined on it. */
export function withScripts(client: IORedis): IORedis & RunnerScripts {
  client.defineCommand("runnerTake", { numberOfKeys: 4, lua: TAKE });
  client.defineCommand("runnerAppend", { numberOfKeys: 2, lua: APPEND });
  client.defineCommand("runnerFinish", { numberOfKeys: 4, lua: FINISH });
  client.defineCommand("runnerRelease", { numberOfKeys: 3, lua: RELEASE });
  client.defineCommand("runnerCancel", { numberOfKeys: 4, lua: CANCEL });
  client.defineCommand("runnerLost", { numberOfKeys: 4, lua: LOST });
  return client as IORedis & RunnerScripts;
}

/** The keys of the lost and cancel scripts for a job. */
export function endKeys(id: string): [string, string, string, string] {
  return [jobKey(id), eventsKey(id), QUEUED_BYTES_KEY, bodyKey(id)];
}
