/**
 * One app factory for both simulation services (hydrogen plant, carbon-capture chain): the
 * model is the only difference. It answers the documented routes (`POST /simulate`,
 * `GET|DELETE /jobs/{id}`, a WebSocket at `/`) and the routes the existing client calls under
 * its prefix (`/api/hydrogen/...` or `/api/ccs/...`), all over the same jobs; health, CORS for
 * every origin, `/openapi.json` and `/docs`. Errors are `{detail}` as the client reads them
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
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  QueueFullError,
  SimulationJobs,
  type SimulationJobView,
} from "../../lib/simulation/simulation_jobs.ts";
import { resultWeightOf, type SimulationModel } from "../../lib/simulation/simulation_model.ts";
import { JsonDepthScanner, MAX_JSON_DEPTH } from "../../lib/validation/json_depth.ts";
import { openCors } from "../middleware/open_cors.ts";
import { swaggerUiRoutes } from "../middleware/docs.ts";
import type { SimulationSettings } from "./config.ts";
import { boundedDetail, type DetailIssue } from "./error_detail.ts";
import { jsonStream } from "./json_stream.ts";

/** The client's routes of one model, below `prefix`. */
export interface ClientRoutes {
  /** e.g. `/api/hydrogen`. */
  prefix: string;
  /** Submit paths below the prefix, e.g. `["/submit", "/simulate"]`. */
  submit: readonly string[];
  /**
   * Whether `{prefix}/status/{id}` carries the result once done: the carbon-capture client reads
   * it there; the hydrogen client ignores it there ("/status always returns result:null") and
   * reads `{prefix}/result/{id}`, so its status stays small. `/jobs/{id}` always carries it.
   */
  statusResult: boolean;
}

/** The routes the existing client calls, by model name (`/api/<name>/simulate` otherwise). */
export function clientRoutesFor(name: string): ClientRoutes {
  if (name === "hydrogen") {
    return { prefix: "/api/hydrogen", submit: ["/simulate"], statusResult: false };
  }
  if (name === "ccs") {
    return { prefix: "/api/ccs", submit: ["/submit", "/simulate"], statusResult: true };
  }
  return { prefix: `/api/${name}`, submit: ["/simulate"], statusResult: true };
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
  /** WebSockets open (a socket closed for not reading leaves at once). */
  readonly openSockets: number;
  /** Cancels every unfinished job, waits for the runs to stop and closes every socket. */
  close(): Promise<void>;
}

/** An error answer as the client reads it, never over 64 KiB. */
function detail(
  c: Context,
  status: 400 | 404 | 409 | 410 | 413 | 422 | 426 | 500 | 503,
  text: string | readonly DetailIssue[],
) {
  return c.json({ detail: boundedDetail(text) }, status);
}

const MIB = 1024 * 1024;

/** Bytes as MiB for messages (`8`, `0.5`). */
function mib(bytes: number): string {
  return String(Math.round((bytes / MIB) * 1000) / 1000);
}

/** A count with thousands separators, for messages. */
function count(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * Reads a JSON body of at most `max` bytes nested at most 64 levels: the value, or an error
 * answer. The depth is followed as the bytes arrive, so a deep body is refused before parsing.
 */
async function readJson(
  c: Context,
  max: number,
): Promise<{ value: unknown } | { response: Response }> {
  const length = Number(c.req.header("content-length") ?? NaN);
  const tooLarge = () => ({
    response: detail(
      c,
      413,
      `Request body over ${max} bytes (SIM_MAX_BODY_MB = ${mib(max)}); a valid payload ` +
        "weighs less (a profile of one point per step for a year at 1-minute steps fits)",
    ),
  });
  if (length > max) return tooLarge();
  const body = c.req.raw.body;
  const chunks: Uint8Array[] = [];
  const depth = new JsonDepthScanner(MAX_JSON_DEPTH);
  let size = 0;
  if (body) {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > max) return tooLarge();
      if (depth.feed(chunk)) {
        return {
          response: detail(
            c,
            400,
            `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels; flatten it`,
          ),
        };
      }
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

/** A JSON answer streamed in pieces (results run to hundreds of MB; see `json_stream.ts`). */
function streamed(c: Context, value: unknown): Response {
  return c.body(jsonStream(value), 200, { "content-type": "application/json" });
}

const jobViewSchema = z.object({
  job_id: z.string(),
  status: z.enum(["queued", "running", "done", "error", "cancelled"]),
  progress_pct: z.number(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable().optional().describe(
    "Present once done (`null` on /api/hydrogen/status, whose client reads /result)",
  ),
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

/** Room left beside the largest result frame in a socket's buffer bound, bytes. */
const FRAME_ROOM_BYTES = 64 * 1024;

/** Longest WebSocket message read (a `{job_id}`), characters. */
const MAX_MESSAGE_CHARS = 1024;

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
    maxQueued: settings.maxQueued,
    ttlMs: settings.jobTtlMs,
    maxHeldBytes: settings.maxResultsBytes,
    // A result frame may fill the socket's buffer bound but for room for progress frames not
    // yet sent, so a reading client always gets it.
    maxFrameBytes: Math.max(0, settings.wsMaxBufferBytes - FRAME_ROOM_BYTES),
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

  /** What the payload's result would weigh against the limits, as messages naming them. */
  const weightProblems = (payload: Payload): string[] => {
    const weight = resultWeightOf(model, payload);
    const out: string[] = [];
    const steps = `${count(weight.steps)} steps (simulation.t_end_s / simulation.dt_s)`;
    if (weight.values > settings.maxResultValues) {
      out.push(
        `The result would carry ${count(weight.values)} values: ${steps} × ${weight.series} ` +
          `series, more than SIM_MAX_RESULT_VALUES = ${count(settings.maxResultValues)}; ` +
          `at most ${count(Math.floor(settings.maxResultValues / weight.series))} steps: ` +
          "use a longer dt_s or a shorter t_end_s",
      );
    } else if (weight.bytes > settings.maxResultsBytes) {
      out.push(
        `The result would hold about ${mib(weight.bytes)} MiB: ${steps} × ${weight.series} ` +
          `series × 8 bytes, more than SIM_MAX_RESULTS_MB = ${mib(settings.maxResultsBytes)}; ` +
          "use a longer dt_s or a shorter t_end_s",
      );
    }
    return out;
  };

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
    const problems = [...model.limits(parsed.data), ...weightProblems(parsed.data)];
    if (problems.length > 0) return detail(c, 422, problems.join("; "));
    let view: SimulationJobView;
    try {
      view = jobs.submit(parsed.data);
    } catch (error) {
      if (error instanceof QueueFullError) {
        c.header("Retry-After", "10");
        return detail(
          c,
          503,
          `Queue full: ${error.maxRunning} job(s) run and ${error.maxQueued} wait, the most ` +
            `this service queues (SIM_MAX_JOBS = ${error.maxRunning}, SIM_MAX_QUEUED = ` +
            `${error.maxQueued}); retry when one has finished`,
        );
      }
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
  const dropped = (c: Context, id: string) =>
    detail(
      c,
      410,
      `Job ${id} finished, but its result was dropped to keep the memory finished results hold ` +
        `under SIM_MAX_RESULTS_MB = ${mib(settings.maxResultsBytes)} (oldest first); submit ` +
        "the payload again",
    );
  /** A job's view: the result, when there is one, streamed. */
  const viewAnswer = (c: Context, view: SimulationJobView, withResult = true) => {
    if (!view.result) return c.json(view);
    return withResult ? streamed(c, view) : c.json({ ...view, result: null });
  };
  const status = (withResult: boolean) => (c: Context) => {
    const id = c.req.param("id") ?? "";
    const view = jobs.get(id);
    if (!view) return unknown(c, id);
    if (view.result_dropped) return dropped(c, id);
    return viewAnswer(c, view, withResult);
  };
  const result = (c: Context) => {
    const id = c.req.param("id") ?? "";
    const view = jobs.get(id);
    if (!view) return unknown(c, id);
    if (view.result_dropped) return dropped(c, id);
    if (view.status !== "done") {
      return detail(
        c,
        409,
        view.error
          ? `Job ${id} is ${view.status}: ${view.error}`
          : `Job ${id} is ${view.status}; no result yet`,
      );
    }
    return streamed(c, { job_id: id, status: view.status, result: view.result });
  };
  const cancel = (c: Context) => {
    const id = c.req.param("id") ?? "";
    const view = jobs.cancel(id);
    return view ? viewAnswer(c, view) : unknown(c, id);
  };

  const bufferBound = settings.wsMaxBufferBytes;
  /**
   * Sends a text unless the socket has more than the bound waiting: a client that does not
   * read is closed (1008) instead of buffered for. False when nothing was sent.
   */
  const send = (socket: WebSocket, text: string): boolean => {
    if (socket.readyState !== WebSocket.OPEN) return false;
    if (socket.bufferedAmount + text.length > bufferBound) {
      socket.close(
        1008,
        `over ${mib(bufferBound)} MiB unsent (SIM_WS_MAX_BUFFER_MB): the client does not read`,
      );
      sockets.delete(socket);
      return false;
    }
    socket.send(text);
    return true;
  };

  /** Opens a socket following `jobId` (or the job a `{job_id}` message names). */
  const socket = (c: Context, jobId: string | undefined) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return detail(c, 426, "WebSocket upgrade expected at this path");
    }
    if (jobId !== undefined && !jobs.get(jobId)) return unknown(c, jobId);
    if (jobId !== undefined && jobs.get(jobId)?.result_dropped) return dropped(c, jobId);
    const { socket, response } = Deno.upgradeWebSocket(c.req.raw);
    let unsubscribe: (() => void) | undefined;
    const follow = (id: string) => {
      unsubscribe?.();
      unsubscribe = jobs.subscribe(id, (frame, text) => {
        if (frame.type === "result_ready") {
          // Too large for a frame: the client's polling fallback reads it, streamed.
          text = JSON.stringify({
            ...frame,
            job_id: id,
            result_url: `${prefix}/result/${id}`,
            detail: `${frame.detail}: GET ${prefix}/result/${id} or /jobs/${id}`,
          });
        }
        if (!send(socket, text)) throw new Error("socket closed or not reading");
        // The final frame ends the conversation; the client then has all it needs.
        if (frame.type !== "progress") socket.close(1000, "job finished");
      });
      if (!unsubscribe) {
        send(socket, JSON.stringify({ type: "error", error: `Unknown or expired job: ${id}` }));
        socket.close(1008, "unknown job");
      }
    };
    socket.onopen = () => {
      sockets.add(socket);
      if (jobId !== undefined) follow(jobId);
    };
    socket.onmessage = (event) => {
      if (socket.readyState !== WebSocket.OPEN) return; // closing: nothing more is sent
      if (event.data === "ping") return void send(socket, "pong");
      let id: unknown;
      // Only a short `{job_id}` is expected: anything longer is not parsed.
      if (typeof event.data === "string" && event.data.length <= MAX_MESSAGE_CHARS) {
        try {
          const message = JSON.parse(event.data);
          id = message?.job_id ?? message?.jobId ?? message?.id;
        } catch {
          id = undefined;
        }
      }
      if (typeof id === "string" && id !== "") follow(id);
      else {
        send(
          socket,
          JSON.stringify({
            type: "error",
            error: `Send {"job_id": "..."} (at most ${MAX_MESSAGE_CHARS} characters) or "ping"`,
          }),
        );
      }
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
  app.get("/jobs/:id", status(true));
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
  app.get(`${prefix}/status/:id`, status(routes.statusResult));
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
    get openSockets() {
      return sockets.size;
    },
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
    410: json(
      errorSchema,
      "Done, but its result was dropped to bound the memory results hold (SIM_MAX_RESULTS_MB)",
    ),
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
    400: json(errorSchema, "Malformed JSON, or nested deeper than 64 levels"),
    413: json(errorSchema, "Body over SIM_MAX_BODY_MB (32 MiB)"),
    422: json(
      errorSchema,
      "Invalid payload (`detail` lists the wrong fields as {loc, msg}, at most 20), or over a " +
        "limit, named in `detail` with the payload's figure: 1,000,000 steps, 527,041 profile " +
        "points, SIM_MAX_RESULT_VALUES values (steps × series), SIM_MAX_RESULTS_MB",
    ),
    503: json(errorSchema, "SIM_MAX_QUEUED jobs wait already (with Retry-After), or stopping"),
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
      summary: "Status of a job (with its result once done, streamed)",
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
      description: (path === "/"
        ? "Open with `?job_id=` or send `{job_id}`. Without an Upgrade header: service index. "
        : "Follows the job in the path. A late client gets the latest frame and the result. ") +
        "A result over SIM_WS_MAX_BUFFER_MB less 64 KiB comes as `{type: result_ready, result_url}` " +
        "instead (read it over HTTP, streamed); a client with more than SIM_WS_MAX_BUFFER_MB " +
        "unsent is closed with 1008.",
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
