/**
 * The solver runner as a module. It needs no data store and owns no state file: without
 * RUNNER_QUEUE_URL jobs live in memory for RUNNER_JOB_TTL_S after they finish and are solved in
 * this process; with it they live in Redis and `deno task runner-worker` processes solve them.
 * The model runner is handed in as a factory, so `server/services.ts` picks the real one (HiGHS)
 * and tests may pass another.
 */
import type { ModelRunner } from "../../lib/runner/model_runner.ts";
import type { RunningService, ServiceContext } from "../service_module.ts";
import type { ServiceModule } from "../service_module.ts";
import { createRunnerApp, createRunnerAppOverStore } from "./app.ts";
import { readRunnerSettings, type RunnerSettings } from "./config.ts";
import { RedisJobStore } from "./queue/redis_job_store.ts";
import { describeRedis, type RedisAddress } from "./queue/redis_url.ts";
import { removeOrphanSolveDirs } from "../../lib/solver/native/orphan_solve_dirs.ts";
import { warmRunWorkers } from "../../lib/runner/run_body_in_worker.ts";

/** How long a stop waits for cancelled runs to settle, ms (the solver's hard stop is sooner). */
export const RUN_STOP_WAIT_MS = 5000;

/** What the model runner is made with: the operator's solver (RUNNER_SOLVER), if any. */
export interface RunnerFactoryOptions {
  readonly solver?: string;
}

/** The solver-runner service (RUNNER_PORT, default 5000) over the runner `makeRunner` makes. */
export function createRunnerModule(
  makeRunner: (options: RunnerFactoryOptions) => ModelRunner | Promise<ModelRunner>,
): ServiceModule {
  return {
    name: "runner",
    configure(env) {
      const settings = readRunnerSettings(env);
      return {
        port: settings.port,
        async start(context) {
          const runner = await makeRunner(
            settings.solver === undefined ? {} : { solver: settings.solver },
          );
          if (settings.queue !== undefined) {
            return startQueued(runner, settings, settings.queue, context);
          }
          await logOrphansRemoved(context.log);
          const runnerApp = createRunnerApp({
            runner,
            config: settings,
            shutdown: context.shutdown,
          });
          context.log(`solver ${runner.solverName}, ${settings.workers} worker(s)`);
          return {
            fetch: (request, info) => runnerApp.app.fetch(request, info),
            // The job Workers kept warm between runs are ended with the service.
            close: () => withinStopWait(runnerApp.close()).finally(() => warmRunWorkers.close()),
          };
        },
      };
    },
  };
}

/** Removes what command-line solves of killed processes left in the temporary directory. */
export async function logOrphansRemoved(log: (line: string) => void): Promise<void> {
  const removed = await removeOrphanSolveDirs();
  if (removed.length > 0) {
    const what = removed.length === 1 ? "directory" : "directories";
    log(`removed ${removed.length} solve ${what} left by processes that ended`);
  }
}

/** The service over the queue: jobs go to Redis, worker processes solve them. */
function startQueued(
  runner: ModelRunner,
  settings: RunnerSettings,
  queue: RedisAddress,
  context: ServiceContext,
): RunningService {
  const store = new RedisJobStore({
    address: queue,
    maxQueued: settings.maxQueued,
    maxQueuedBytes: settings.maxQueuedBytes,
    ttlMs: settings.jobTtlMs,
    attempts: settings.attempts,
  });
  const app = createRunnerAppOverStore({
    runner,
    store,
    config: settings,
    shutdown: context.shutdown,
  });
  context.log(
    `jobs on the queue at ${describeRedis(queue)} (solved by \`deno task ` +
      "runner-worker` processes)",
  );
  return {
    fetch: (request, info) => app.fetch(request, info),
    // Jobs are the workers' and Redis's: nothing is cancelled, the connections are closed.
    close: () => withinStopWait(store.close()),
  };
}

/** Waits for `closing`, at most RUN_STOP_WAIT_MS. */
async function withinStopWait(closing: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    closing,
    new Promise((resolve) => timer = setTimeout(resolve, RUN_STOP_WAIT_MS)),
  ]);
  clearTimeout(timer);
}
