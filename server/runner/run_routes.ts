/**
 * The job routes, mounted at `/run`: submit a model, follow its events, read its status and
 * result, cancel it. Errors are `{ error, details? }`; a refused model lists every problem by
 * JSON path in `details`.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ModelRunner } from "../../lib/runner/model_runner.ts";
import { limitBody } from "../middleware/body_limit.ts";
import {
  createOpenAPIApp,
  detailedErrorSchema,
  errorResponse,
  httpError,
  MAX_PROBLEMS,
} from "../middleware/errors.ts";
import { isFinished, type Job, type JobRegistry, jobStatusView } from "./jobs.ts";
import {
  cancelledSchema,
  jobParamsSchema,
  jobStatusSchema,
  runAcceptedSchema,
  runEventSchema,
  runRequestSchema,
  runResultSchema,
} from "./schemas.ts";
import { runEventStream } from "./stream.ts";

/** What the job routes use. */
export interface RunRouteDeps {
  runner: ModelRunner;
  jobs: JobRegistry;
  /** Largest model body, bytes. */
  maxBodyBytes: number;
  keepaliveMs: number;
  shutdown: AbortSignal;
}

/** The message of an empty model (`{}`), as the predecessor worded it. */
export const EMPTY_MODEL_MESSAGE = "Empty model payload";

/** Most problems listed in `details` of a refused model; the message names the first 20. */
export const MAX_LISTED_PROBLEMS = 500;

const apiError = (description: string) => errorResponse(description, detailedErrorSchema);
const UNKNOWN_JOB = apiError("Unknown job id, or a finished job past its time to live");

const submitRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["Runs"],
  summary: "Submit a model to solve",
  description: "Validates the model (every problem at once, by JSON path), then queues it; " +
    "at most RUNNER_WORKERS runs solve at once, the rest wait in order. Follow it with " +
    "`/run/{id}/stream`.",
  request: {
    body: { required: true, content: { "application/json": { schema: runRequestSchema } } },
  },
  responses: {
    202: {
      description: "Accepted and queued",
      content: { "application/json": { schema: runAcceptedSchema } },
    },
    400: apiError(
      "Malformed JSON, a body that is not an object, an empty model (`Empty model payload`), " +
        "or an invalid model: `details` lists `[{ path, message }]`",
    ),
    413: apiError("Body larger than RUNNER_MAX_BODY_MB (default 64 MiB)"),
    415: apiError("Body not sent as application/json"),
    503: apiError("The service is stopping, or RUNNER_MAX_QUEUED jobs are waiting already"),
  },
});

const streamRoute = createRoute({
  method: "get",
  path: "/{id}/stream",
  tags: ["Runs"],
  summary: "The job's events as server-sent events",
  description: "`: connected` first; then each event as one unnamed `data: <json>` line and a " +
    "blank line (no `event:` or `id:` lines), every event since the job was submitted first; " +
    "a `: keepalive` comment after 15 s without a frame; `stats` every 10 s while the job " +
    "runs. The stream ends after `done` (the full result is readable at `/run/{id}/result` " +
    'by then) or `error` (`"cancelled"` for a cancelled job). A stop of the service ends it ' +
    "with an `error` event.",
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
  const { runner, jobs } = deps;
  const app = createOpenAPIApp({ details: true });
  const jobOf = (id: string): Job => {
    const job = jobs.get(id);
    if (job === undefined) throw httpError(404, `Unknown job: ${id}`);
    return job;
  };

  app.use("/", limitBody(deps.maxBodyBytes));
  app.openapi(submitRoute, (c) => {
    if (deps.shutdown.aborted) throw httpError(503, "The runner service is stopping");
    const body = c.req.valid("json");
    if (Object.keys(body).length === 0) throw httpError(400, EMPTY_MODEL_MESSAGE);
    const prepared = runner.prepare(body);
    if (!prepared.ok) {
      const { problems } = prepared;
      const named = problems.slice(0, MAX_PROBLEMS).map((p) =>
        `${p.path || "(model)"}: ${p.message}`
      );
      if (problems.length > MAX_PROBLEMS) {
        named.push(`and ${problems.length - MAX_PROBLEMS} more problems`);
      }
      throw httpError(
        400,
        `Invalid model: ${named.join("; ")}`,
        problems.slice(0, MAX_LISTED_PROBLEMS).map(({ path, message }) => ({ path, message })),
      );
    }
    const submitted = jobs.submit(prepared.model);
    if (!submitted.ok) {
      throw submitted.reason === "closed"
        ? httpError(503, "The runner service is stopping")
        : httpError(503, "Too many jobs are waiting for a worker; try again later");
    }
    return c.json({ job_id: submitted.job.id }, 202);
  });

  app.openapi(streamRoute, (c) => {
    const job = jobOf(c.req.valid("param").id);
    // The stream is a raw Response: its media type is not JSON, so the typed helpers do not
    // apply.
    return runEventStream(job.events, {
      shutdown: deps.shutdown,
      keepaliveMs: deps.keepaliveMs,
    }) as never;
  });

  app.openapi(statusRoute, (c) => c.json(jobStatusView(jobOf(c.req.valid("param").id)), 200));

  app.openapi(resultRoute, (c) => {
    const job = jobOf(c.req.valid("param").id);
    if (job.status === "completed" && job.result !== undefined) {
      return c.json(job.result as z.infer<typeof runResultSchema>, 200);
    }
    const details = { status: job.status };
    if (!isFinished(job.status)) {
      throw httpError(409, `Job ${job.id} is ${job.status}; its result is not ready yet`, details);
    }
    throw httpError(
      409,
      job.status === "cancelled"
        ? `Job ${job.id} was cancelled; it has no result`
        : `Job ${job.id} failed; it has no result: ${job.error}`,
      details,
    );
  });

  app.openapi(cancelRoute, (c) => {
    const { id } = c.req.valid("param");
    const outcome = jobs.cancel(id);
    if (outcome.outcome === "unknown") throw httpError(404, `Unknown job: ${id}`);
    if (outcome.outcome === "finished") {
      throw httpError(409, `Job ${id} has finished already (${outcome.job.status})`, {
        status: outcome.job.status,
      });
    }
    return c.json({ cancelled: id, status: "cancelled" as const }, 200);
  });
  return app;
}
