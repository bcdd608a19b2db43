/**
 * The runner across processes: a real redis-server, worker processes started with
 * `deno run -A server/runner/worker_main.ts`, and service instances in this process
 * (`app.request()`) over the same Redis. One test in steps, sharing the Redis and the workers:
 * starting processes is the slow part.
 */
import assert from "node:assert/strict";
import { createRunnerAppOverStore } from "../../../server/runner/app.ts";
import { createRunnerModule } from "../../../server/runner/module.ts";
import { RedisJobStore } from "../../../server/runner/queue/redis_job_store.ts";
import { parseRedisUrl } from "../../../server/runner/queue/redis_url.ts";
import { nationalScaleCopies } from "../../runner/_national_copies.ts";
import { dataOf, FrameReader } from "./_app.ts";
import { startRedis, startWorker, type TestRedis } from "./_redis.ts";
import { createTestRunner, runRequest } from "./_runner.ts";

type Json = Record<string, unknown>;

interface Service {
  app: ReturnType<typeof createRunnerAppOverStore>;
  store: RedisJobStore;
}

async function service(
  redis: TestRedis,
  options: { attempts?: number; maxQueued?: number } = {},
): Promise<Service> {
  const store = new RedisJobStore({
    address: parseRedisUrl("RUNNER_QUEUE_URL", redis.url),
    maxQueued: options.maxQueued ?? 100,
    maxQueuedBytes: 1024 * 1024 * 1024,
    ttlMs: 3_600_000,
    attempts: options.attempts ?? 2,
  });
  await store.ready();
  const app = createRunnerAppOverStore({
    runner: { solverName: "HiGHS (queue test)" },
    store,
    config: { maxBodyBytes: 64 * 1024 * 1024, keepaliveMs: 15_000 },
  });
  return { app, store };
}

async function call(s: Service, path: string, init?: RequestInit) {
  const res = await s.app.request(path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) as Json : undefined };
}

async function submit(s: Service, body: unknown): Promise<string> {
  const { status, body: answer } = await call(s, "/run", runRequest(body));
  assert.equal(status, 202, JSON.stringify(answer));
  return answer!["job_id"] as string;
}

async function statusOf(s: Service, id: string): Promise<Json> {
  const { status, body } = await call(s, `/run/${id}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body!;
}

/** Polls until `check` holds, at most `ms`. */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const statusIs = (s: Service, id: string, wanted: string) => async () => {
  const view = await statusOf(s, id);
  return view["status"] === wanted ? view : undefined;
};

async function streamToEnd(s: Service, id: string): Promise<Json[]> {
  const res = await s.app.request(`/run/${id}/stream`);
  assert.equal(res.status, 200);
  return dataOf(await new FrameReader(res.body!).rest());
}

const SMALL = await nationalScaleCopies({ groups: 1, days: 1 });
/** A few seconds of solving on this machine: long enough to be caught mid-solve. */
const LONG = await nationalScaleCopies({ groups: 5, days: 5 });

Deno.test({
  name: "runner queue: two workers, two service instances, cancel, kill -9, Redis restarted",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const redis = await startRedis();
    const workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
    const a = await service(redis);
    const b = await service(redis);
    const extra: Service[] = [];
    const completed: string[] = [];
    try {
      await t.step("jobs spread over both workers; any instance answers for any job", async () => {
        const ids = completed;
        for (let i = 0; i < 4; i++) ids.push(await submit(a, SMALL));
        const names = new Set<string>();
        for (const id of ids) {
          const events = await streamToEnd(a, id);
          const last = events.at(-1)!;
          assert.equal(last["type"], "done", JSON.stringify(last));
          assert.equal(last["termination"], "optimal");
          assert.ok(events.some((e) => e["type"] === "log"));
          assert.ok(events.some((e) => e["type"] === "progress"));
          const view = await statusOf(b, id);
          assert.equal(view["status"], "completed");
          assert.equal(view["termination"], "optimal");
          assert.ok(view["started_at"] !== null && view["finished_at"] !== null);
          names.add(view["worker"] as string);
          const result = await b.app.request(`/run/${id}/result`);
          assert.equal(result.status, 200);
          const json = await result.json() as Json;
          assert.equal(json["termination"], "optimal");
          assert.equal(json["objective"], (last as Json)["objective"]);
        }
        assert.deepEqual([...names].sort(), workers.map((w) => w.name).sort());
        // A late client on the other instance replays the whole stream.
        const replayed = await streamToEnd(b, ids[0]!);
        assert.equal(replayed[0]!["type"], "log");
        assert.match(replayed[0]!["line"] as string, /^\[runner\] queued/);
        assert.equal(replayed.at(-1)!["type"], "done");
        const health = await call(b, "/health");
        assert.deepEqual(health.body!["jobs"], { running: 0, queued: 0 });
      });

      await t.step("the runner module with RUNNER_QUEUE_URL serves the queue's jobs", async () => {
        const module = createRunnerModule(() => createTestRunner("Double 1.0"));
        const lines: string[] = [];
        const service = await module.configure({ RUNNER_QUEUE_URL: redis.url, RUNNER_PORT: "0" })
          .start({
            shutdown: new AbortController().signal,
            dataStore: () => Promise.reject(new Error("not used")),
            osmStore: () => Promise.reject(new Error("not used")),
            log: (line) => lines.push(line),
          });
        try {
          assert.match(lines[0]!, /^jobs on the queue at redis:\/\/127\.0\.0\.1:\d+\/0/);
          const health = await service.fetch(new Request("http://x/health"));
          assert.deepEqual((await health.json() as Json)["jobs"], { running: 0, queued: 0 });
          const view = await service.fetch(new Request(`http://x/run/${completed[0]}`));
          assert.equal((await view.json() as Json)["status"], "completed");
        } finally {
          await service.close();
        }
      });

      await t.step("404, 409 and 503 as in process", async () => {
        const unknown = crypto.randomUUID();
        for (
          const [path, init] of [
            [`/run/${unknown}`, undefined],
            [`/run/${unknown}/result`, undefined],
            [`/run/${unknown}/stream`, undefined],
            [`/run/${unknown}`, { method: "DELETE" }],
          ] as const
        ) {
          const { status, body } = await call(a, path, init);
          assert.equal(status, 404, path);
          assert.equal(body!["error"], `Unknown job: ${unknown}`);
        }
        const id = await submit(a, LONG);
        await until("running", 20_000, statusIs(a, id, "running"));
        const early = await call(b, `/run/${id}/result`);
        assert.equal(early.status, 409);
        assert.deepEqual(early.body!["details"], { status: "running" });
        assert.equal((await call(b, `/run/${id}`, { method: "DELETE" })).status, 200);
        const again = await call(a, `/run/${id}`, { method: "DELETE" });
        assert.equal(again.status, 409);
        assert.deepEqual(again.body!["details"], { status: "cancelled" });
        const none = await call(a, `/run/${id}/result`);
        assert.equal(none.status, 409);
        assert.equal(none.body!["error"], `Job ${id} was cancelled; it has no result`);
        const finished = await call(a, `/run/${completed[0]}`, { method: "DELETE" });
        assert.equal(finished.status, 409);
        assert.deepEqual(finished.body!["details"], { status: "completed" });
        // An invalid model is a failed job with its problems, as in process.
        const invalid = await submit(b, { name: "x" });
        const events = await streamToEnd(a, invalid);
        const last = events.at(-1)!;
        assert.equal(last["type"], "error");
        assert.ok(Array.isArray(last["problems"]) && last["problems"].length > 0);
        const view = await statusOf(b, invalid);
        assert.equal(view["status"], "failed");
        assert.equal(view["error"], last["error"]);
        assert.deepEqual(view["problems"], last["problems"]);
        const full = await service(redis, { maxQueued: 0 });
        extra.push(full);
        const refused = await call(full, "/run", runRequest(SMALL));
        assert.equal(refused.status, 503);
        assert.match(refused.body!["error"] as string, /Too many jobs are waiting/);
      });

      await t.step(
        "cancel across processes: running ones stop within 1 s, a pending one at once",
        async () => {
          const running = [await submit(a, LONG), await submit(a, LONG)];
          for (const id of running) await until("running", 20_000, statusIs(a, id, "running"));
          const pending = await submit(a, LONG);
          assert.equal((await statusOf(b, pending))["worker"], null);
          const cancelledPending = await call(b, `/run/${pending}`, { method: "DELETE" });
          assert.deepEqual(cancelledPending.body, { cancelled: pending, status: "cancelled" });
          const view = await statusOf(a, pending);
          assert.equal(view["status"], "cancelled");
          assert.equal(view["error"], "cancelled");
          assert.deepEqual((await streamToEnd(a, pending)).at(-1), {
            type: "error",
            error: "cancelled",
          });

          const stream = (await a.app.request(`/run/${running[0]}/stream`)).body!;
          const started = performance.now();
          for (const id of running) {
            assert.equal((await call(b, `/run/${id}`, { method: "DELETE" })).status, 200);
          }
          const events = dataOf(await new FrameReader(stream).rest());
          assert.deepEqual(events.at(-1), { type: "error", error: "cancelled" });
          assert.ok(performance.now() - started < 1000, `${performance.now() - started} ms`);
          // Both solves stopped: their workers take the next job at once and it is done soon.
          const next = [await submit(a, SMALL), await submit(a, SMALL)];
          for (const id of next) await until("completed", 8_000, statusIs(a, id, "completed"));
          for (const id of running) assert.equal((await statusOf(a, id))["status"], "cancelled");
        },
      );

      await t.step("kill -9 of a worker mid-solve: another worker takes the job over", async () => {
        const id = await submit(a, LONG);
        const view = await until("running", 20_000, statusIs(a, id, "running"));
        const victim = workers.find((w) => w.name === view["worker"])!;
        const survivor = workers.find((w) => w !== victim)!;
        victim.kill("SIGKILL");
        await victim.status;
        const done = await until("completed", 60_000, statusIs(b, id, "completed"));
        assert.equal(done["worker"], survivor.name);
        const events = await streamToEnd(b, id);
        assert.ok(
          events.some((e) =>
            e["type"] === "log" &&
            /was lost; .* takes the job \(attempt 2 of 2\)/.test(e["line"] as string)
          ),
        );
        assert.equal(events.at(-1)!["type"], "done");
        workers.splice(workers.indexOf(victim), 1);
      });

      await t.step(
        "Redis shut down and started again: 503 meanwhile, the running job completes",
        async () => {
          const id = await submit(a, LONG);
          await until("running", 20_000, statusIs(a, id, "running"));
          await redis.shutdown();
          const refused = await call(a, "/run", runRequest(SMALL));
          assert.equal(refused.status, 503);
          assert.match(refused.body!["error"] as string, /Redis\) is unreachable/);
          assert.equal((await call(b, `/run/${id}`)).status, 503);
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await redis.restart();
          // The service answers again once it reaches Redis; the solve went on meanwhile.
          const after = await until(
            "Redis back",
            10_000,
            async () => (await statusOf(a, id))["status"],
          );
          assert.ok(after === "running" || after === "completed", String(after));
          const done = await until("completed", 60_000, statusIs(a, id, "completed"));
          assert.equal(done["termination"], "optimal");
          const result = await a.app.request(`/run/${id}/result`);
          assert.equal(result.status, 200);
          assert.equal((await result.json() as Json)["termination"], "optimal");
          assert.equal((await streamToEnd(b, id)).at(-1)!["type"], "done");
        },
      );

      await t.step("SIGTERM mid-solve: the worker hands its job back and exits", async () => {
        const id = await submit(a, LONG);
        await until("running", 20_000, statusIs(a, id, "running"));
        workers[0]!.kill("SIGTERM");
        assert.equal((await workers[0]!.status).code, 0);
        workers.splice(0, 1);
        const back = await until("pending", 5_000, statusIs(a, id, "pending"));
        assert.equal(back["worker"], null);
        const fresh = await startWorker(redis.url);
        workers.push(fresh);
        const done = await until("completed", 60_000, statusIs(b, id, "completed"));
        assert.equal(done["worker"], fresh.name);
      });

      await t.step("kill -9 of the only worker, one attempt: failed, worker lost", async () => {
        const strict = await service(redis, { attempts: 1 });
        extra.push(strict);
        const id = await submit(strict, LONG);
        await until("running", 20_000, statusIs(strict, id, "running"));
        workers[0]!.kill("SIGKILL");
        await workers[0]!.status;
        workers.splice(0, 1);
        const failed = await until("failed", 40_000, statusIs(a, id, "failed"));
        assert.equal(failed["error"], "worker lost");
        assert.deepEqual((await streamToEnd(a, id)).at(-1), {
          type: "error",
          error: "worker lost",
        });
      });
    } finally {
      for (const w of workers) {
        w.kill("SIGTERM");
        await w.status;
      }
      for (const s of [a, b, ...extra]) await s.store.close();
      await redis.dispose();
    }
  },
});
