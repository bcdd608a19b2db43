/**
 * `deno task runner-worker`: a worker process of the runner's queue. It takes jobs from the
 * BullMQ queue on RUNNER_QUEUE_URL, solves RUNNER_WORKERS of them at once (each in its own Deno
 * Worker) and writes their events and results to Redis, where every runner service instance
 * reads them. Start any number, on any number of machines. SIGINT or SIGTERM: it stops taking
 * jobs, hands the running ones back to the queue and exits.
 *
 * Settings: RUNNER_QUEUE_URL (required), RUNNER_WORKERS (default 1), RUNNER_SOLVER,
 * RUNNER_ATTEMPTS (default 2), RUNNER_JOB_TTL_S (default 3600).
 */
import { readRunnerSettings } from "./config.ts";
import { startQueueWorker } from "./queue/queue_worker.ts";
import { describeRedis } from "./queue/redis_url.ts";
import { logOrphansRemoved } from "./module.ts";
import { warmRunWorkers } from "../../lib/runner/run_body_in_worker.ts";

async function main(): Promise<number> {
  let settings;
  try {
    settings = readRunnerSettings(Deno.env.toObject());
    if (settings.queue === undefined) {
      throw new TypeError("RUNNER_QUEUE_URL: required (redis://[:password@]host:6379[/0])");
    }
  } catch (error) {
    console.error(`runner-worker: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  await logOrphansRemoved((line) => console.log(`runner-worker: ${line}`));
  const worker = await startQueueWorker({
    address: settings.queue,
    concurrency: settings.workers,
    attempts: settings.attempts,
    ttlMs: settings.jobTtlMs,
    statsMs: settings.statsMs,
    ...(settings.solver === undefined ? {} : { solver: settings.solver }),
  });
  console.log(
    `runner-worker ${worker.name}: taking jobs from ${describeRedis(settings.queue)}, ` +
      `${settings.workers} solve(s) at once, solver ${settings.solver ?? "each model's own"}`,
  );
  const stopped = Promise.withResolvers<void>();
  const stop = () => stopped.resolve();
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await stopped.promise;
  console.log(`runner-worker ${worker.name}: stopping`);
  await worker.close();
  warmRunWorkers.close();
  console.log(`runner-worker ${worker.name}: stopped`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
