/**
 * The modelling backend service: saved models, jobs run end to end on the solver runner, the
 * run history, and its health. Every route is under `/api`; `/api/openapi.json` and `/api/docs`
 * describe them. The cross-origin rule (`backend_cors.ts`) runs before every route, those that
 * `extraRoutes` adds (the catalogue proxy, the template library) included.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { BackendStore } from "../../lib/backend/backend_store.ts";
import { createReachabilityProbe, type ReachabilityProbe } from "../../lib/backend/reachability.ts";
import {
  createRunnerClient,
  type RunnerClient,
  type RunnerClientTimeouts,
} from "../../lib/backend/runner_client.ts";
import type { Store } from "../../lib/store/store.ts";
import { swaggerUiRoutes } from "../middleware/docs.ts";
import { createOpenAPIApp } from "../middleware/errors.ts";
import { createServiceApp } from "../middleware/service_app.ts";
import { guardJsonBody } from "../middleware/json_body_guard.ts";
import { backendCors } from "./backend_cors.ts";
import { completedRunRoutes } from "./completed_run_routes.ts";
import type { BackendSettings } from "./config.ts";
import { jobRoutes, type ModelTemplates } from "./job_routes.ts";
import { BackendJobs } from "./jobs/jobs.ts";
import { modelRoutes } from "./model_routes.ts";
import { healthSchema, jsonOf } from "./schemas.ts";

/** Version of the backend's interface, shown by `/api/health` and `/api/openapi.json`. */
export const BACKEND_VERSION = "1.0.0";

/** Path of the OpenAPI document. */
export const OPENAPI_PATH = "/api/openapi.json";

/** Path of the Swagger UI page. */
export const DOCS_PATH = "/api/docs";

/** A `: keepalive` comment on job streams after this long without a frame, ms. */
export const KEEPALIVE_MS = 15_000;

/** What the backend app is built from. */
export interface BackendAppDeps {
  /** The backend's own state store, open read-write; the caller closes it after `close()`. */
  store: Store;
  config: Pick<BackendSettings, "runnerUrl" | "catalogueUrl" | "maxBodyBytes">;
  /** The service's shutdown signal: new runs are refused, open streams end. */
  shutdown?: AbortSignal;
  /** Used for the runner and the health probes; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** The current time; default the system clock. */
  clock?: () => Date;
  /** Timeouts of the runner client (tests shorten them). */
  runnerTimeouts?: Partial<RunnerClientTimeouts>;
  /** How long a job tries to reach the runner again after its stream died, ms (default 6000). */
  reconnectMs?: number;
  keepaliveMs?: number;
  /** One line to the server log. */
  log?: (message: string) => void;
  /** Resolves `template` references of technologies before a run; absent: models run as saved. */
  templates?: ModelTemplates;
  /** More routes on the root app (mounted after the CORS rule), e.g. `/tech/*`, `/api/templates`. */
  extraRoutes?: (app: OpenAPIHono) => void;
  /**
   * Origins of the backend's own pages (`backendOwnOrigins(port, BACKEND_PUBLIC_ORIGIN)`),
   * allowed by the cross-origin rule besides the dev servers; default none.
   */
  ownOrigins?: readonly string[];
}

/** The built service. */
export interface BackendApp {
  app: OpenAPIHono;
  jobs: BackendJobs;
  runner: RunnerClient;
  /** Jobs found unfinished in the store at start, now failed `interrupted by restart`. */
  interrupted: number;
  /** Ends unfinished jobs and writes their last lines; the store stays open. */
  close(): Promise<void>;
}

/** Builds the backend over an open store: creates its tables and recovers interrupted jobs. */
export async function createBackendApp(deps: BackendAppDeps): Promise<BackendApp> {
  const shutdown = deps.shutdown ?? new AbortController().signal;
  const clock = deps.clock ?? (() => new Date());
  const store = new BackendStore(deps.store);
  await store.init();
  const runner = createRunnerClient({
    baseUrl: deps.config.runnerUrl,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.runnerTimeouts ? { timeouts: deps.runnerTimeouts } : {}),
  });
  const jobs = new BackendJobs({
    store,
    runner,
    clock,
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.reconnectMs !== undefined ? { reconnectMs: deps.reconnectMs } : {}),
  });
  const interrupted = await jobs.recover();
  const probe = (baseUrl: string): ReachabilityProbe =>
    createReachabilityProbe({ baseUrl, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  const runnerProbe = probe(deps.config.runnerUrl);
  const catalogueProbe = probe(deps.config.catalogueUrl);

  const app = createServiceApp({ details: true });
  app.use("*", backendCors({ ownOrigins: deps.ownOrigins ?? [] }));
  // Bodies of /api routes: within BACKEND_MAX_BODY_MB (413), nested at most 64 deep (400).
  app.use("/api/*", guardJsonBody(deps.config.maxBodyBytes));

  const api = createOpenAPIApp({ details: true });
  api.openAPIRegistry.registerPath({
    method: "get",
    path: "/health",
    tags: ["Service"],
    summary: "Liveness, the runner's and the catalogue's reachability, job counts",
    responses: { 200: jsonOf("The service runs", healthSchema) },
  });
  api.get("/health", async (c) => {
    const [runnerUp, catalogueUp] = await Promise.all([
      runnerProbe.reachable(),
      catalogueProbe.reachable(),
    ]);
    return c.json({
      status: "ok" as const,
      version: BACKEND_VERSION,
      runner: { url: runnerProbe.url, reachable: runnerUp },
      catalogue: { url: catalogueProbe.url, reachable: catalogueUp },
      jobs: jobs.counts(),
    });
  });
  const maxBodyBytes = deps.config.maxBodyBytes;
  modelRoutes(api, { store, jobs, maxBodyBytes, clock });
  jobRoutes(api, {
    store,
    jobs,
    maxBodyBytes,
    keepaliveMs: deps.keepaliveMs ?? KEEPALIVE_MS,
    shutdown,
    ...(deps.templates ? { templates: deps.templates } : {}),
  });
  completedRunRoutes(api, { store, maxBodyBytes, clock });
  app.route("/api", api);
  deps.extraRoutes?.(app);
  app.route("/api", swaggerUiRoutes({ path: "/docs", title: "Modelling backend API" }));
  app.doc(OPENAPI_PATH, {
    openapi: "3.0.3",
    info: {
      title: "Modelling backend",
      version: BACKEND_VERSION,
      description: "Save energy-system models, run them on the solver runner, follow and " +
        "cancel the runs, read their results and the run history. Errors: `{ error, details? }`. " +
        "Browser origins: none, empty or null, the frontend's dev servers (localhost and " +
        "127.0.0.1 on 5173/5174) and the backend's own pages (localhost and 127.0.0.1 on its " +
        "port, BACKEND_PUBLIC_ORIGIN); others 403.",
    },
  });
  return { app, jobs, runner, interrupted, close: () => jobs.close() };
}
