/**
 * The solver-runner service: models in, jobs out. `POST /run` queues a model, `/run/{id}/stream`
 * follows it as server-sent events, `/run/{id}/result` returns its result and `DELETE /run/{id}`
 * stops it; `/health` says which solver answers. All origins may call it (the spec asks so; it
 * has no credentials to protect). `/openapi.json` and `/docs` are made from the same schemas.
 *
 * The modelling domain is a dependency (`ModelRunner`): the HiGHS runner in service, a small
 * test double in the job-mechanics tests.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { ModelRunner } from "../../lib/runner/model_runner.ts";
import { swaggerUiRoutes } from "../middleware/docs.ts";
import { createOpenAPIApp } from "../middleware/errors.ts";
import { createServiceApp } from "../middleware/service_app.ts";
import type { RunnerSettings } from "./config.ts";
import { JobRegistry } from "./jobs.ts";
import { openCors } from "../middleware/open_cors.ts";
import { registryJobStore, type RunJobStore } from "./run_job_store.ts";
import { runRoutes } from "./run_routes.ts";
import type { SystemProbe } from "./run_stats.ts";
import { healthSchema } from "./schemas.ts";
import { findNativeSolversOnce } from "../../lib/solver/native/find_native_solvers.ts";
import { BUILT_IN_SOLVER } from "../../lib/solver/solver_names.ts";

/** Version of the runner's interface, shown by `/health` and `/openapi.json`. */
export const RUNNER_VERSION = "1.0.0";

/** Path of the OpenAPI document. */
export const OPENAPI_PATH = "/openapi.json";

/** Path of the Swagger UI page. */
export const DOCS_PATH = "/docs";

/** What the runner app is built from. */
export interface RunnerAppOptions {
  runner: ModelRunner;
  /** Only the limits and intervals are read; the port is the caller's business. */
  config: Omit<RunnerSettings, "port">;
  /** The service's shutdown signal: open streams end on it and new jobs are refused. */
  shutdown?: AbortSignal;
  /** The current time, for timestamps and time to live; default the system clock. */
  clock?: () => Date;
  /** CPU and memory figures of `stats` events; default this process and machine. */
  probe?: SystemProbe;
}

/** The built service. */
export interface RunnerApp {
  app: OpenAPIHono;
  jobs: JobRegistry;
  /** The routes' view of `jobs`. */
  store: RunJobStore;
  /** Refuses new jobs, cancels the unfinished ones and waits until their runs have settled. */
  close(): Promise<void>;
}

/** What the service is built from when its jobs live elsewhere (a queue). */
export interface RunnerAppOverStoreOptions {
  runner: Pick<ModelRunner, "solverName">;
  store: RunJobStore;
  config: Pick<RunnerSettings, "maxBodyBytes" | "keepaliveMs">;
  shutdown?: AbortSignal;
}

const healthRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Service"],
  summary: "Liveness, solver and job counts",
  responses: {
    200: {
      description: "The service runs",
      content: { "application/json": { schema: healthSchema } },
    },
  },
});

/** The built-in solver and the command-line solvers on this machine's PATH (looked up once). */
async function solversHere(
  runner: Pick<ModelRunner, "solverName">,
): Promise<{ name: string; version: string; path: string | null }[]> {
  const found = await findNativeSolversOnce();
  return [
    { name: BUILT_IN_SOLVER, version: runner.solverName, path: null },
    ...found.map((s) => ({ name: s.name, version: s.description, path: s.path })),
  ];
}

/** Builds the runner service over a model runner. */
export function createRunnerApp(options: RunnerAppOptions): RunnerApp {
  const { runner, config } = options;
  const shutdown = options.shutdown ?? new AbortController().signal;
  const jobs = new JobRegistry({
    runner,
    workers: config.workers,
    maxQueued: config.maxQueued,
    maxQueuedBytes: config.maxQueuedBytes,
    ttlMs: config.jobTtlMs,
    statsMs: config.statsMs,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.probe ? { probe: options.probe } : {}),
  });

  const store = registryJobStore(jobs);
  const app = createRunnerAppOverStore({ runner, store, config, shutdown });
  return { app, jobs, store, close: () => jobs.close() };
}

/** The service's routes over any job store: the in-process registry or a queue's. */
export function createRunnerAppOverStore(options: RunnerAppOverStoreOptions): OpenAPIHono {
  const { runner, store: jobs, config } = options;
  const shutdown = options.shutdown ?? new AbortController().signal;
  const app = createServiceApp({ details: true });
  app.use("*", openCors());

  const health = createOpenAPIApp({ details: true });
  health.openapi(healthRoute, async (c) =>
    c.json({
      status: "ok" as const,
      version: RUNNER_VERSION,
      solver: runner.solverName,
      solvers: await solversHere(runner),
      jobs: await jobs.counts(),
    }, 200));
  app.route("/health", health);
  app.route(
    "/run",
    runRoutes({
      jobs,
      maxBodyBytes: config.maxBodyBytes,
      keepaliveMs: config.keepaliveMs,
      shutdown,
    }),
  );
  app.route("/", swaggerUiRoutes({ path: DOCS_PATH, title: "Solver runner service API" }));
  app.doc(OPENAPI_PATH, {
    openapi: "3.0.3",
    info: {
      title: "Solver runner service",
      version: RUNNER_VERSION,
      description: "Calliope 0.6 models solved as linear programs by HiGHS (WebAssembly): " +
        "submit a model, follow the solver's log as server-sent events, read the result, " +
        "cancel a solve. A model is parsed, validated, built and solved in its job's own " +
        "Worker: `POST /run` checks only the body's shape, and an invalid model is a failed " +
        "job that lists its problems. Every origin may call it. Errors: `{ error, details? }`.",
    },
  });

  return app;
}
