/**
 * One app factory for both simulation services (hydrogen plant, carbon-capture chain): the
 * model is the only difference. It answers the documented routes (`POST /simulate`,
 * `GET|DELETE /jobs/{id}`, a WebSocket at `/`) and the routes the existing client calls under
 * its prefix (`/api/hydrogen/...` or `/api/ccs/...`), all over the same jobs; health, CORS for
 * every origin, `/openapi.json` and `/docs`. Errors are `{detail}` as the client reads them
 * (FastAPI's shape: a list `[{loc, msg}]` for validation failures).
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { SimulationJobs, type SimulationJobView } from "../../lib/simulation/simulation_jobs.ts";
import type { SimulationModel } from "../../lib/simulation/simulation_model.ts";
import { openCors } from "../middleware/open_cors.ts";
import { swaggerUiRoutes } from "../middleware/docs.ts";
import type { SimulationSettings } from "./config.ts";

/** The client's routes of one model, below `prefix`. */
export interface ClientRoutes {
  /** e.g. `/api/hydrogen`. */
  prefix: string;
  /** Submit paths below the prefix, e.g. `["/submit", "/simulate"]`. */
  submit: readonly string[];
}

/** The routes the existing client calls, by model name (`/api/<name>/simulate` otherwise). */
export function clientRoutesFor(name: string): ClientRoutes {
  if (name === "hydrogen") return { prefix: "/api/hydrogen", submit: ["/simulate"] };
  if (name === "ccs") return { prefix: "/api/ccs", submit: ["/submit", "/simulate"] };
  return { prefix: `/api/${name}`, submit: ["/simulate"] };
}

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
  /** Cancels every unfinished job, waits for the runs to stop and closes every socket. */
  close(): Promise<void>;
}

/** An error answer as the client reads it. */
function detail(c: Context, status: 400 | 404 | 409 | 413 | 422 | 426 | 500 | 503, text: unknown) {
  return c.json({ detail: text }, status);
}

/** Reads a JSON body of at most `max` bytes: the value, or an error answer. */
async function readJson(
  c: Context,
  max: number,
): Promise<{ value: unknown } | { response: Response }> {
  const length = Number(c.req.header("content-length") ?? NaN);
  const tooLarge = () => ({
    response: detail(c, 413, `Request body over ${max} bytes (${max / 1048576} MiB)`),
  });
  if (length > max) return tooLarge();
  const body = c.req.raw.body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (body) {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > max) return tooLarge();
      chunks.push(chunk);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") {
    return { response: detail(c, 400, "Request body is empty; send the payload as JSON") };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return {
      response: detail(c, 400, `Malformed JSON: ${error instanceof Error ? error.message : error}`),
    };
  }
}

const jobViewSchema = z.object({
  job_id: z.string(),
  status: z.enum(["queued", "running", "done", "error", "cancelled"]),
  progress_pct: z.number(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).optional().describe("Present once done"),
}).openapi("SimulationJob");
const ackSchema = z.object({
  job_id: z.string(),
  status: z.literal("queued"),
  message: z.string(),
}).openapi("SimulationAccepted");
const errorSchema = z.object({
  detail: z.union([z.string(), z.array(z.object({ loc: z.array(z.unknown()), msg: z.string() }))]),
}).openapi("SimulationError");
const healthSchema = z.object({
  status: z.literal("ok"),
  engine_ready: z.literal(true),
  engine_error: z.null(),
  active_jobs: z.number().int(),
  model: z.string(),
}).openapi("SimulationHealth");

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const idParam = z.object({ id: z.string().describe("The job id of the acknowledgement") });

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
    ttlMs: settings.jobTtlMs,
    ...options.jobOptions,
  });
  const sockets = new Set<WebSocket>();
  const closeSockets = (code: number, reason: string) => {
    for (const socket of sockets) {
      try {
        socket.close(code, reason);
      } catch {
        // already closing
      }
    }
    sockets.clear();
  };
  // On stop, unfinished jobs are cancelled first (their sockets get the cancel frame), then
  // any socket still open is closed, so the listener's graceful shutdown can complete.
  options.shutdown?.addEventListener("abort", () => {
    void jobs.close();
    closeSockets(1001, "service stopping");
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

  const submit = async (c: Context) => {
    const read = await readJson(c, settings.maxBodyBytes);
    if ("response" in read) return read.response;
    const parsed = model.payloadSchema.safeParse(read.value);
    if (!parsed.success) {
      return detail(
        c,
        422,
        parsed.error.issues.map((issue) => ({
          loc: ["body", ...issue.path.map((p) => typeof p === "symbol" ? String(p) : p)],
          msg: issue.message,
          type: issue.code,
        })),
      );
    }
    const problems = model.limits(parsed.data);
    if (problems.length > 0) return detail(c, 413, problems.join("; "));
    let view: SimulationJobView;
    try {
      view = jobs.submit(parsed.data);
    } catch (error) {
      return detail(c, 503, error instanceof Error ? error.message : String(error));
    }
    // Only these three keys: a `time_s` or `electrolyzer` here would read as a finished result.
    return c.json({
      job_id: view.job_id,
      status: "queued" as const,
      message: `${model.title}: job queued; follow it at /jobs/${view.job_id} or the WebSocket`,
    }, 202);
  };

  const unknown = (c: Context, id: string) => detail(c, 404, `Unknown or expired job: ${id}`);
  const status = (c: Context) => {
    const id = c.req.param("id") ?? "";
    const view = jobs.get(id);
    return view ? c.json(view) : unknown(c, id);
  };
  const result = (c: Context) => {
    const id = c.req.param("id") ?? "";
    const view = jobs.get(id);
    if (!view) return unknown(c, id);
    if (view.status !== "done") {
      return detail(
        c,
        409,
        view.error
          ? `Job ${id} is ${view.status}: ${view.error}`
          : `Job ${id} is ${view.status}; no result yet`,
      );
    }
    return c.json({ job_id: id, status: view.status, result: view.result });
  };
  const cancel = (c: Context) => {
    const id = c.req.param("id") ?? "";
    const view = jobs.cancel(id);
    return view ? c.json(view) : unknown(c, id);
  };

  /** Opens a socket following `jobId` (or the job a `{job_id}` message names). */
  const socket = (c: Context, jobId: string | undefined) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return detail(c, 426, "WebSocket upgrade expected at this path");
    }
    if (jobId !== undefined && !jobs.get(jobId)) return unknown(c, jobId);
    const { socket, response } = Deno.upgradeWebSocket(c.req.raw);
    let unsubscribe: (() => void) | undefined;
    const follow = (id: string) => {
      unsubscribe?.();
      unsubscribe = jobs.subscribe(id, (frame, text) => {
        if (socket.readyState !== WebSocket.OPEN) throw new Error("socket closed");
        socket.send(text);
        // The final frame ends the conversation; the client then has all it needs.
        if (frame.type !== "progress") socket.close(1000, "job finished");
      });
      if (!unsubscribe) {
        socket.send(JSON.stringify({ type: "error", error: `Unknown or expired job: ${id}` }));
        socket.close(1008, "unknown job");
      }
    };
    socket.onopen = () => {
      sockets.add(socket);
      if (jobId !== undefined) follow(jobId);
    };
    socket.onmessage = (event) => {
      if (event.data === "ping") return socket.send("pong");
      let id: unknown;
      try {
        const message = JSON.parse(String(event.data));
        id = message?.job_id ?? message?.jobId ?? message?.id;
      } catch {
        id = undefined;
      }
      if (typeof id === "string" && id !== "") follow(id);
      else {socket.send(
          JSON.stringify({ type: "error", error: 'Send {"job_id": "..."} or "ping"' }),
        );}
    };
    socket.onclose = () => {
      unsubscribe?.();
      sockets.delete(socket);
    };
    socket.onerror = () => {};
    return response;
  };

  // Health, three places the client probes.
  for (const path of ["/health", "/api/health", `${prefix}/health`]) app.get(path, health);
  // Documented routes.
  app.post("/simulate", submit);
  app.get("/jobs/:id", status);
  app.delete("/jobs/:id", cancel);
  app.get("/", (c) => {
    if (c.req.header("upgrade")) return socket(c, c.req.query("job_id") || undefined);
    return c.json({
      service: model.name,
      title: model.title,
      docs: "/docs",
      openapi: "/openapi.json",
    });
  });
  // The client's routes.
  for (const path of routes.submit) app.post(`${prefix}${path}`, submit);
  app.get(`${prefix}/status/:id`, status);
  app.get(`${prefix}/result/:id`, result);
  app.delete(`${prefix}/jobs/:id`, cancel);
  app.get(`${prefix}/ws/:id`, (c) => socket(c, c.req.param("id")));

  document(app, model, routes);
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
    async close() {
      await jobs.close();
      closeSockets(1001, "service stopping");
    },
  };
}

/** Registers every route in the OpenAPI document (handled above without its validator). */
function document(app: OpenAPIHono, model: SimulationModel<unknown>, routes: ClientRoutes) {
  const { prefix } = routes;
  const errors = {
    404: json(errorSchema, "Unknown or expired job"),
  };
  const body = {
    content: {
      "application/json": {
        schema: z.record(z.string(), z.unknown()).describe(
          `The ${model.name} payload (schema version 2.0, both spellings the client uses)`,
        ),
      },
    },
    required: true,
  };
  const submitResponses = {
    202: json(ackSchema, "Queued"),
    400: json(errorSchema, "Malformed JSON"),
    413: json(errorSchema, "Body over 8 MiB, or over the model's step or profile limits"),
    422: json(errorSchema, "Invalid payload: `detail` lists every wrong field as {loc, msg}"),
  };
  const registry = app.openAPIRegistry;
  for (const path of ["/simulate", ...routes.submit.map((p) => `${prefix}${p}`)]) {
    registry.registerPath({
      method: "post",
      path,
      tags: [path === "/simulate" ? "Jobs" : "Client routes"],
      summary: `Submit a ${model.name} simulation`,
      request: { body },
      responses: submitResponses,
    });
  }
  for (const path of ["/jobs/{id}", `${prefix}/status/{id}`]) {
    registry.registerPath({
      method: "get",
      path,
      tags: [path.startsWith("/jobs") ? "Jobs" : "Client routes"],
      summary: "Status of a job (with its result once done)",
      request: { params: idParam },
      responses: { 200: json(jobViewSchema, "The job"), ...errors },
    });
  }
  registry.registerPath({
    method: "get",
    path: `${prefix}/result/{id}`,
    tags: ["Client routes"],
    summary: "Result of a finished job: {job_id, status, result}",
    request: { params: idParam },
    responses: {
      200: json(jobViewSchema, "The result"),
      409: json(errorSchema, "Not done (yet)"),
      ...errors,
    },
  });
  for (const path of ["/jobs/{id}", `${prefix}/jobs/{id}`]) {
    registry.registerPath({
      method: "delete",
      path,
      tags: [path.startsWith("/jobs") ? "Jobs" : "Client routes"],
      summary: "Cancel a queued or running job (stops within 100 ms)",
      request: { params: idParam },
      responses: {
        200: json(jobViewSchema, "The job, cancelled unless it had finished"),
        ...errors,
      },
    });
  }
  for (const path of ["/", `${prefix}/ws/{id}`]) {
    registry.registerPath({
      method: "get",
      path,
      tags: ["Telemetry"],
      summary: "WebSocket: progress frames about every 1 % (at most 20/s), then the result",
      description: path === "/"
        ? "Open with `?job_id=` or send `{job_id}`. Without an Upgrade header: service index."
        : "Follows the job in the path. A late client gets the latest frame and the result.",
      ...(path === "/" ? {} : { request: { params: idParam } }),
      responses: { 101: { description: "Switching protocols" }, ...errors },
    });
  }
  for (const path of ["/health", "/api/health", `${prefix}/health`]) {
    registry.registerPath({
      method: "get",
      path,
      tags: ["Service"],
      summary: "Health",
      responses: { 200: json(healthSchema, "The service runs") },
    });
  }
}
