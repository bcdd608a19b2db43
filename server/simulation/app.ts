/**
 * One app factory for both simulation services (hydrogen plant, carbon-capture chain): the
 * model is the only difference. It answers the documented routes (`POST /simulate`,
 * `GET|DELETE /jobs/{id}`, a WebSocket at `/`) and the routes the existing client calls under
 * its prefix (`/api/hydrogen/...` or `/api/ccs/...`, `client_routes.ts`), all over the same
 * jobs (`job_handlers.ts`, `job_sockets.ts`); health, CORS for every origin, `/openapi.json`
 * (`openapi_document.ts`) and `/docs`. Errors are `{detail}` as the client reads them
 * (FastAPI's shape: a list `[{loc, msg}]` for validation failures), never over 64 KiB.
 *
 * Bounds (issue 18), all in `config.ts`: a body over SIM_MAX_BODY_MB is 413 and one nested
 * deeper than 64 levels 400; a payload whose result would carry more than
 * SIM_MAX_RESULT_VALUES values (steps × series) or weigh more than SIM_MAX_RESULTS_MB is 422
 * naming the limit; beyond SIM_MAX_QUEUED waiting jobs a submit is 503; finished results beyond
 * SIM_MAX_RESULTS_MB are dropped oldest first (their job answers 410); results go out as a
 * stream of JSON pieces, never as one string; a socket with more than SIM_WS_MAX_BUFFER_MB
 * unsent is closed (1008).
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { SimulationJobs } from "../../lib/simulation/simulation_jobs.ts";
import type { SimulationModel } from "../../lib/simulation/simulation_model.ts";
import { openCors } from "../middleware/open_cors.ts";
import { swaggerUiRoutes } from "../middleware/docs.ts";
import { detail } from "./answers.ts";
import {
  type ClientRoutes,
  clientRoutesFor,
  healthPaths,
  mountClientRoutes,
} from "./client_routes.ts";
import type { SimulationSettings } from "./config.ts";
import { jobHandlers } from "./job_handlers.ts";
import { jobSockets } from "./job_sockets.ts";
import { documentRoutes } from "./openapi_document.ts";

/** What the app is built from. */
export interface SimulationAppOptions<Payload> {
  model: SimulationModel<Payload>;
  /** Job limits and body cap; the port is the caller's business. */
  settings: Omit<SimulationSettings, "port">;
  /** The client's routes; default `clientRoutesFor(model.name)`. */
  routes?: ClientRoutes;
  /** The service's shutdown signal: open sockets close on it. */
  shutdown?: AbortSignal;
  /** Options of the job manager beyond the settings (tests: clock, slice, frame interval). */
  jobOptions?: {
    now?: () => number;
    sliceMs?: number;
    minFrameIntervalMs?: number;
  };
}

/** The built service. */
export interface SimulationApp<Payload> {
  app: OpenAPIHono;
  jobs: SimulationJobs<Payload>;
  /** WebSockets open (a socket closed for not reading leaves at once). */
  readonly openSockets: number;
  /** Cancels every unfinished job, waits for the runs to stop and closes every socket. */
  close(): Promise<void>;
}

/** Room left beside the largest result frame in a socket's buffer bound, bytes. */
const FRAME_ROOM_BYTES = 64 * 1024;

/** Builds a simulation service over `model`. */
export function createSimulationApp<Payload>(
  options: SimulationAppOptions<Payload>,
): SimulationApp<Payload> {
  const { model, settings } = options;
  const routes = options.routes ?? clientRoutesFor(model.name);
  const { prefix } = routes;
  const jobs = new SimulationJobs<Payload>({
    model,
    maxRunning: settings.maxJobs,
    maxQueued: settings.maxQueued,
    ttlMs: settings.jobTtlMs,
    maxHeldBytes: settings.maxResultsBytes,
    // A result frame may fill the socket's buffer bound but for room for progress frames not
    // yet sent, so a reading client always gets it.
    maxFrameBytes: Math.max(0, settings.wsMaxBufferBytes - FRAME_ROOM_BYTES),
    ...options.jobOptions,
  });
  const handlers = jobHandlers(model, settings, jobs);
  const sockets = jobSockets({
    jobs,
    prefix,
    bufferBound: settings.wsMaxBufferBytes,
    find: handlers.find,
  });
  // On stop, unfinished jobs are cancelled first (their sockets get the cancel frame), then
  // any socket still open is closed, so the listener's graceful shutdown can complete.
  options.shutdown?.addEventListener("abort", () => {
    void jobs.close();
    sockets.closeAll(1001, "service stopping");
  }, { once: true });

  const app = new OpenAPIHono();
  app.use("*", openCors());
  app.onError((error, c) =>
    detail(c, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`)
  );
  app.notFound((c) => detail(c, 404, `Not found: ${c.req.method} ${c.req.path}`));

  const health = (c: Context) =>
    c.json({
      status: "ok" as const,
      engine_ready: true as const,
      engine_error: null,
      active_jobs: jobs.active,
      model: model.name,
    });

  for (const path of healthPaths(prefix)) app.get(path, health);
  // Documented routes.
  app.post("/simulate", handlers.submit);
  app.get("/jobs/:id", handlers.status(true));
  app.delete("/jobs/:id", handlers.cancel);
  app.get("/", (c) => {
    if (c.req.header("upgrade")) return sockets.open(c, c.req.query("job_id") || undefined);
    return c.json({
      service: model.name,
      title: model.title,
      docs: "/docs",
      openapi: "/openapi.json",
    });
  });
  mountClientRoutes(app, routes, handlers, sockets);

  documentRoutes(app, model, routes);
  app.route("/", swaggerUiRoutes({ path: "/docs", title: `${model.title} API` }));
  app.doc("/openapi.json", {
    openapi: "3.0.3",
    info: {
      title: `${model.title} (simulation service)`,
      version: "2.0.0",
      description: "Submit a payload (schema version 2.0), follow the run on the WebSocket " +
        "(`/` with `{job_id}` or `?job_id=`; frames `{type: progress|result|error}`; text " +
        '"ping" gets "pong") or by polling, read the result. Every origin may call it. ' +
        "Errors: `{detail}` (a list `[{loc, msg}]` for validation failures).",
    },
  });

  return {
    app,
    jobs,
    get openSockets() {
      return sockets.size;
    },
    async close() {
      await jobs.close();
      sockets.closeAll(1001, "service stopping");
    },
  };
}
