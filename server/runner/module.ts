/**
 * The solver runner as a module. It needs no data store and owns no state file: jobs live in
 * memory for RUNNER_JOB_TTL_S after they finish. The model runner is handed in as a factory,
 * so `server/services.ts` picks the real one (HiGHS) and tests may pass another.
 */
import type { ModelRunner } from "../../lib/runner/model_runner.ts";
import type { ServiceModule } from "../service_module.ts";
import { createRunnerApp } from "./app.ts";
import { readRunnerSettings } from "./config.ts";

/** How long a stop waits for cancelled runs to settle, ms (the solver's hard stop is sooner). */
export const RUN_STOP_WAIT_MS = 5000;

/** The solver-runner service (RUNNER_PORT, default 5000) over the runner `makeRunner` makes. */
export function createRunnerModule(
  makeRunner: () => ModelRunner | Promise<ModelRunner>,
): ServiceModule {
  return {
    name: "runner",
    configure(env) {
      const settings = readRunnerSettings(env);
      return {
        port: settings.port,
        async start(context) {
          const runner = await makeRunner();
          const runnerApp = createRunnerApp({
            runner,
            config: settings,
            shutdown: context.shutdown,
          });
          context.log(`solver ${runner.solverName}, ${settings.workers} worker(s)`);
          return {
            fetch: (request, info) => runnerApp.app.fetch(request, info),
            async close() {
              let timer: ReturnType<typeof setTimeout> | undefined;
              await Promise.race([
                runnerApp.close(),
                new Promise((resolve) => timer = setTimeout(resolve, RUN_STOP_WAIT_MS)),
              ]);
              clearTimeout(timer);
            },
          };
        },
      };
    },
  };
}
