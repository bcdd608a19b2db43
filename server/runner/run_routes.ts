/**
 * The job routes, mounted at `/run`: submit a model, follow its events, read its status and
 * result, cancel it. `POST /run` checks only the body's shape as it streams in (media type,
 * size, JSON syntax, nesting, a non-empty object) and queues the raw bytes: the model is parsed,
 * validated, built and solved in the job's Worker, and an invalid one ends the job `failed`
 * with its problems by JSON path. Errors are `{ error, details? }`.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import {
  createOpenAPIApp,
  detailedErrorSchema,
  errorResponse,
  httpError,
} from "../middleware/errors.ts";
import { isFinished, type Refused } from "./jobs.ts";
import type { RunJobStore } from "./run_job_store.ts";
import { readModelBody } from "./read_model_body.ts";
import {
  cancelledSchema,
  jobParamsSchema,
  jobStatusSchema,
  runAcceptedSchema,
  runEventSchema,
  runRequestSchema,
  runResultSchema,
} from "./schemas.ts";
import { runEventStream } from "../middleware/run_event_stream.ts";

export { EMPTY_MODEL_MESSAGE } from "./read_model_body.ts";
export { MAX_LISTED_PROBLEMS } from "../../lib/runner/model_refusal.ts";

/** What the job routes use. */
export interface RunRouteDeps {
  jobs: RunJobStore;
  /** Largest model body, bytes. */
  maxBodyBytes: number;
  keepaliveMs: number;
  shutdown: AbortSignal;
}

const apiError = (description: string) => errorResponse(description, detailedErrorSchema);
const UNKNOWN_JOB = apiError("Unknown job id, or a finished job past its time to live");

const submitRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["Runs"],
  summary: "Submit a model to solve",
  description: "Checks the body's shape only and queues it: at most RUNNER_WORKERS jobs run at " +
    "once, the rest wait in order. Each job's Worker parses, validates (every problem at once, " +
    "by JSON path), pre-processes, builds and solves the model; an invalid model ends the job " +
    "`failed` with `error` `Invalid model: <first problems>` and `problems` " +
    "(`[{ path, message }]`) in `GET /run/{id}` and in the stream's `error` event. Follow it " +
    "with `/run/{id}/stream`.",
  request: {
    body: { required: true, content: { "application/json": { schema: runRequestSchema } } },
  },
  responses: {
    202: {
      description: "Accepted and queued (the model is checked by its job)",
      content: { "application/json": { schema: runAcceptedSchema } },
    },
    400: apiError(
      "A body of the wrong shape: malformed JSON (the reason and the byte offset are named), " +
        "nested deeper than 64 levels, not an object, or an empty model " +
        "(`Empty model payload`). An invalid model is not a 400: its job fails with the " +
        "problems",
    ),
    413: apiError("Body larger than RUNNER_MAX_BODY_MB (default 64 MiB)"),
    415: apiError("Body not sent as application/json"),
    503: apiError(
      "The service is stopping, or RUNNER_MAX_QUEUED jobs (or RUNNER_MAX_QUEUED_MB of model " +
        "bodies) are waiting already",
    ),
  },
});

/** The 503 of a refused submission. */
function refusedError(reason: Refused) {
  switch (reason) {
    case "closed":
      return httpError(503, "The runner service is stopping");
    case "queue_full":
      return httpError(503, "Too many jobs are waiting for a worker; try again later");
    case "queue_bytes_full":
      return httpError(
        503,
        "Too much model data is waiting for a worker (RUNNER_MAX_QUEUED_MB); try again later",
      );
  }
}

const streamRoute = createRoute({
  method: "get",
  path: "/{id}/stream",
  tags: ["Runs"],
  summary: "The job's events as server-sent events",
  description: "`: connected` first; then each event as one unnamed `data: <json>` line and a " +
    "blank line (no `event:` or `id:` lines), every event since the job was submitted first; " +
    "a `: keepalive` comment after 15 s without a frame; `stats` every 10 s while the job " +
    "runs. The stream ends after `done` (the full result is readable at `/run/{id}/result` " +
    'by then) or `error` (`"cancelled"` for a cancelled job; for an invalid model the message ' +
    "names the first problems and `problems` lists them by JSON path). A stop of the service " +
    "ends it with an `error` event.",
  request: { params: jobParamsSchema },
  responses: {
    200: {
      description: "The event stream; each `data:` line holds one RunEvent",
      content: { "text/event-stream": { schema: runEventSchema } },
    },
    404: UNKNOWN_JOB,
  },
});

const statusRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["Runs"],
  summary: "The job's status and timestamps",
  description: "A job whose model is invalid is `failed`: `error` names the first problems, " +
    "`problems` lists them (`[{ path, message }]`, at most 500).",
  request: { params: jobParamsSchema },
  responses: {
    200: {
      description: "The job",
      content: { "application/json": { schema: jobStatusSchema } },
    },
    404: UNKNOWN_JOB,
  },
});

const resultRoute = createRoute({
  method: "get",
  path: "/{id}/result",
  tags: ["Runs"],
  summary: "The full result of a completed job",
  description: "Infeasible or unbounded is a result too: completed with `success: false`.",
  request: { params: jobParamsSchema },
  responses: {
    200: {
      description: "The result",
      content: { "application/json": { schema: runResultSchema } },
    },
    404: UNKNOWN_JOB,
    409: apiError(
      "No result: the job is pending or running (not yet), or failed or was cancelled; " +
        "`details.status` says which",
    ),
  },
});

const cancelRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags: ["Runs"],
  summary: "Cancel a job",
  description: "A pending job is dropped; a running solve is stopped. Either way the status " +
    'is `cancelled` at once and the stream ends with `error: "cancelled"`.',
  request: { params: jobParamsSchema },
  responses: {
    200: {
      description: "Cancelled",
      content: { "application/json": { schema: cancelledSchema } },
    },
    404: UNKNOWN_JOB,
    409: apiError("The job has finished already; `details.status` says how"),
  },
});

/** The job routes, to mount at `/run`. */
export function runRoutes(deps: RunRouteDeps): OpenAPIHono {
  const { jobs } = deps;
  const app = createOpenAPIApp({ details: true });
  const unknown = (id: string) => httpError(404, `Unknown job: ${id}`);

  // Not `app.openapi`: its validator would parse the whole body on this thread. The route is
  // documented from the same definition and handled here.
  app.openAPIRegistry.registerPath(submitRoute);
  app.post("/", async (c) => {
    if (deps.shutdown.aborted) throw refusedError("closed");
    // A full queue is answered before the body is read.
    const early = await jobs.refusal();
    if (early !== undefined) {
      await c.req.raw.body?.cancel();
      throw refusedError(early);
    }
    const body = await readModelBody(c.req.raw, deps.maxBodyBytes);
    if (deps.shutdown.aborted) throw refusedError("closed");
    const submitted = await jobs.submit(body);
    if (!submitted.ok) throw refusedError(submitted.reason);
    return c.json({ job_id: submitted.id }, 202);
  });

  app.openapi(streamRoute, async (c) => {
    const id = c.req.valid("param").id;
    const events = await jobs.events(id);
    if (events === undefined) throw unknown(id);
    // The stream is a raw Response: its media type is not JSON, so the typed helpers do not
    // apply.
    return runEventStream({ subscribe: events }, {
      shutdown: deps.shutdown,
      keepaliveMs: deps.keepaliveMs,
    }) as never;
  });

  app.openapi(statusRoute, async (c) => {
    const id = c.req.valid("param").id;
    const view = await jobs.status(id);
    if (view === undefined) throw unknown(id);
    return c.json(view, 200);
  });

  app.openapi(resultRoute, async (c) => {
    const id = c.req.valid("param").id;
    const result = await jobs.result(id);
    if (result === undefined) throw unknown(id);
    if (result.json !== undefined) {
      // The bytes the run's Worker encoded, served as they are (no parse, no stringify here).
      return new Response(result.json, {
        status: 200,
        headers: { "Content-Type": "application/json" },
      }) as never;
    }
    const details = { status: result.status };
    if (!isFinished(result.status)) {
      throw httpError(409, `Job ${id} is ${result.status}; its result is not ready yet`, details);
    }
    throw httpError(
      409,
      result.status === "cancelled"
        ? `Job ${id} was cancelled; it has no result`
        : `Job ${id} failed; it has no result: ${result.error}`,
      details,
    );
  });

  app.openapi(cancelRoute, async (c) => {
    const { id } = c.req.valid("param");
    const outcome = await jobs.cancel(id);
    if (outcome.outcome === "unknown") throw unknown(id);
    if (outcome.outcome === "finished") {
      throw httpError(409, `Job ${id} has finished already (${outcome.status})`, {
        status: outcome.status,
      });
    }
    return c.json({ cancelled: id, status: "cancelled" as const }, 200);
  });
  return app;
}
