/**
 * Throughput of the runner's queue: 12 one-day and 4 five-day national-scale jobs (Calliope's
 * national-scale example, one copy of its locations) submitted at once to one runner service
 * instance over one Redis, solved first by one worker process, then by two (RUNNER_WORKERS=1
 * each). Each round gets a fresh redis-server (its own port and directory, append-only file on,
 * as the README asks of operators) and fresh worker processes; the clock runs from the first
 * POST to the last job completed, read through the service (`GET /run/{id}`).
 *
 *   deno run -A benchmarks/queue_throughput.ts [--one-day 12] [--five-day 4] [--max-workers 2]
 *     [--solver highs]
 *
 * `--solver` is the workers' RUNNER_SOLVER; without it each model's own choice applies (the
 * national-scale example names `cbc`, used when installed).
 * Prints one Markdown table: worker processes, wall time, jobs per minute, and the throughput
 * against one worker process.
 */
import { parseArgs } from "node:util";
import { createRunnerAppOverStore } from "../server/runner/app.ts";
import { RedisJobStore } from "../server/runner/queue/redis_job_store.ts";
import { parseRedisUrl } from "../server/runner/queue/redis_url.ts";
import { nationalScaleCopies } from "../tests/runner/_national_copies.ts";
import { startRedis, startWorker } from "../tests/server/runner/_redis.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    "one-day": { type: "string", default: "12" },
    "five-day": { type: "string", default: "4" },
    "max-workers": { type: "string", default: "2" },
    solver: { type: "string" },
  },
}).values;
const ONE_DAY = Number(args["one-day"]);
const FIVE_DAY = Number(args["five-day"]);
const MAX_WORKERS = Number(args["max-workers"]);
const WORKER_ENV: Record<string, string> = args.solver === undefined
  ? {}
  : { RUNNER_SOLVER: args.solver };

const oneDay = JSON.stringify(await nationalScaleCopies({ groups: 1, days: 1 }));
const fiveDay = JSON.stringify(await nationalScaleCopies({ groups: 1, days: 5 }));
const bodies = [...Array(ONE_DAY).fill(oneDay), ...Array(FIVE_DAY).fill(fiveDay)] as string[];

interface Round {
  workers: number;
  wallS: number;
  byWorker: Map<string, number>;
}

async function round(workerCount: number): Promise<Round> {
  const redis = await startRedis();
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () => startWorker(redis.url, WORKER_ENV)),
  );
  const store = new RedisJobStore({
    address: parseRedisUrl("RUNNER_QUEUE_URL", redis.url),
    maxQueued: 1000,
    maxQueuedBytes: 1024 * 1024 * 1024,
    ttlMs: 3_600_000,
    attempts: 2,
  });
  await store.ready();
  const app = createRunnerAppOverStore({
    runner: { solverName: "benchmark" },
    store,
    config: { maxBodyBytes: 64 * 1024 * 1024, keepaliveMs: 15_000 },
  });
  try {
    const started = performance.now();
    const ids: string[] = [];
    for (const body of bodies) {
      const res = await app.request("/run", {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json" },
      });
      if (res.status !== 202) throw new Error(`POST /run: ${res.status} ${await res.text()}`);
      ids.push((await res.json() as { job_id: string }).job_id);
    }
    const byWorker = new Map<string, number>();
    const open = new Set(ids);
    while (open.size > 0) {
      for (const id of [...open]) {
        const view = await (await app.request(`/run/${id}`)).json() as Record<string, string>;
        if (view["status"] === "pending" || view["status"] === "running") continue;
        if (view["status"] !== "completed") throw new Error(`job ${id}: ${JSON.stringify(view)}`);
        open.delete(id);
        byWorker.set(view["worker"]!, (byWorker.get(view["worker"]!) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { workers: workerCount, wallS: (performance.now() - started) / 1000, byWorker };
  } finally {
    for (const worker of workers) {
      worker.kill("SIGTERM");
      await worker.status;
    }
    await store.close();
    await redis.dispose();
  }
}

const rounds: Round[] = [];
for (let n = 1; n <= MAX_WORKERS; n++) rounds.push(await round(n));
const base = rounds[0]!;
console.log(
  `${ONE_DAY} one-day and ${FIVE_DAY} five-day national-scale jobs, one service, one Redis, ` +
    `${navigator.hardwareConcurrency} cores, solver ${args.solver ?? "each model's own"}\n`,
);
console.log("| worker processes | wall time (s) | jobs/min | throughput vs 1 | jobs per worker |");
console.log("|---|---|---|---|---|");
for (const r of rounds) {
  const perMinute = (bodies.length / r.wallS) * 60;
  console.log(
    `| ${r.workers} | ${r.wallS.toFixed(1)} | ${perMinute.toFixed(1)} | ` +
      `${(base.wallS / r.wallS).toFixed(2)}x | ${[...r.byWorker.values()].join(" / ")} |`,
  );
}
