/**
 * Jobs: run a saved model, follow it, read its result, cancel it. A run resolves the model's
 * templates, applies the request's overrides and checks the model as the runner will (400 with
 * every problem by JSON path, no job created) before the job is recorded and submitted.
 */
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { BackendStore } from "../../lib/backend/backend_store.ts";
import type { ModelProblem } from "../../lib/model/model_problem.ts";
import { buildRunModel, readRunOverrides } from "../../lib/backend/run_model.ts";
import { buildSweepModels } from "../../lib/backend/run_sweep.ts";
import { refusalMessage, refuseModel } from "../../lib/runner/model_refusal.ts";
import { httpError } from "../middleware/errors.ts";
import { runEventStream } from "../middleware/run_event_stream.ts";
import type { BackendJobs } from "./jobs/jobs.ts";
import type { JobSubmission, JobView } from "./jobs/job_view.ts";
import { readJsonObject } from "../middleware/json_object_body.ts";
import { modelMeta } from "./model_routes.ts";
import {
  anyObjectSchema,
  errorOf,
  idParamsSchema,
  jobViewSchema,
  jsonOf,
  runRequestSchema,
  sweepJobsSchema,
} from "./schemas.ts";

/** Resolves `template: "id"` references of a model's technologies (the template library). */
export interface ModelTemplates {
  resolveModel(
    model: unknown,
  ): { ok: true; model: unknown } | { ok: false; problems: { path: string; message: string }[] };
}

/** What the job routes use. */
export interface JobRouteDeps {
  store: BackendStore;
  jobs: BackendJobs;
  maxBodyBytes: number;
  keepaliveMs: number;
  shutdown: AbortSignal;
  templates?: ModelTemplates;
}

/**
 * The 400 of a model that cannot run, every problem in `details` (the first MAX_LISTED_PROBLEMS):
 * the runner's refusal, in the backend's wording (`and 12 more`, not `and 12 more problems`).
 */
export function invalidModel(problems: readonly ModelProblem[], what = "Invalid model") {
  const refusal = refuseModel(problems);
  return httpError(400, refusalMessage(refusal, what), refusal.problems);
}

/** Registers the job routes on the `/api` app. */
export function jobRoutes(app: OpenAPIHono, deps: JobRouteDeps): void {
  const { store, jobs } = deps;
  const registry = app.openAPIRegistry;
  const params = { params: idParamsSchema };
  const tags = ["Jobs"];
  const unknownJob = (id: string) => httpError(404, `Unknown job: ${id}`);

  registry.registerPath({
    method: "post",
    path: "/models/{id}/run",
    tags,
    summary: "Run a saved model",
    description: "Optional body `{parameters?, scenario? | scenarios?}`: merged over the " +
      "model's parameters for this run. Templates are resolved and the model is checked as " +
      "the runner checks it; then the job is submitted to the runner and followed in the " +
      "background. With " +
      "`scenarios` (instead of `scenario`) the run fans out: one job (one run-history entry) " +
      "per scenario, each the model with that scenario, every one checked before any job is " +
      "created (a problem of one is named under `scenarios[i]`); the answer is then " +
      "`{jobs: [...]}` in the order given.",
    request: {
      ...params,
      body: { required: false, content: { "application/json": { schema: runRequestSchema } } },
    },
    responses: {
      202: jsonOf(
        "Accepted: the job; for `scenarios`, `{jobs}`, one per scenario",
        z.union([jobViewSchema, sweepJobsSchema]),
      ),
      400: errorOf(
        "Malformed body, or a model that cannot run: `details` lists `[{path, message}]`",
      ),
      404: errorOf("Unknown model"),
      413: errorOf("Body over BACKEND_MAX_BODY_MB"),
      503: errorOf("The backend is stopping"),
    },
  });
  app.post("/models/:id/run", async (c) => {
    const id = c.req.param("id");
    const { value } = await readJsonObject(c, deps.maxBodyBytes, true);
    const request = readRunOverrides(value);
    if (!request.ok) throw invalidModel(request.problems, "Invalid run request");
    const saved = await store.getModel(id);
    if (!saved) throw httpError(404, `Unknown model: ${id}`);
    if (deps.shutdown.aborted) throw httpError(503, "The backend is stopping");
    let model: unknown = JSON.parse(saved.body);
    if (deps.templates) {
      const resolved = deps.templates.resolveModel(model);
      if (!resolved.ok) throw invalidModel(resolved.problems);
      model = resolved.model;
    }
    const name = modelMeta(JSON.parse(saved.body) as Record<string, unknown>).name;
    // Recorded only if the model still exists: a deletion since it was read wins (issue 18).
    const submit = async (submission: JobSubmission): Promise<JobView> => {
      const view = await jobs.submit(submission);
      if (!view) throw httpError(404, `Unknown model: ${id}`);
      return view;
    };
    if (request.scenarios !== undefined) {
      const sweep = buildSweepModels(model, request.overrides, request.scenarios);
      if (!sweep.ok) throw invalidModel(sweep.problems);
      const views: JobView[] = [];
      for (const [i, run] of sweep.runs.entries()) {
        views.push(
          await submit({
            modelId: id,
            // The run history lists runs by model name: each run of a sweep says its scenario.
            modelName: `${name} (scenario: ${run.label})`,
            model: run.model,
            notes: [
              `scenario ${run.label} (${i + 1} of ${sweep.runs.length} of a sweep)`,
              ...run.notes,
            ],
          }),
        );
      }
      return c.json({ jobs: views }, 202);
    }
    const built = buildRunModel(model, request.overrides);
    if (!built.ok) throw invalidModel(built.problems);
    return c.json(
      await submit({ modelId: id, modelName: name, model: built.model, notes: built.notes }),
      202,
    );
  });

  registry.registerPath({
    method: "get",
    path: "/models/{id}/jobs",
    tags,
    summary: "The jobs of a model, the newest first (a bare array)",
    request: params,
    responses: { 200: jsonOf("The jobs", z.array(jobViewSchema)), 404: errorOf("Unknown model") },
  });
  app.get("/models/:id/jobs", async (c) => {
    const id = c.req.param("id");
    if (!await store.hasModel(id)) throw httpError(404, `Unknown model: ${id}`);
    return c.json(await jobs.listForModel(id));
  });

  registry.registerPath({
    method: "get",
    path: "/jobs/{id}",
    tags,
    summary: "A job",
    request: params,
    responses: { 200: jsonOf("The job", jobViewSchema), 404: errorOf("Unknown job") },
  });
  app.get("/jobs/:id", async (c) => {
    const view = await jobs.view(c.req.param("id"));
    if (!view) throw unknownJob(c.req.param("id"));
    return c.json(view);
  });

  registry.registerPath({
    method: "get",
    path: "/jobs/{id}/results",
    tags,
    summary: "The full result of a completed job",
    request: params,
    responses: {
      200: jsonOf("The result, as the runner made it", anyObjectSchema),
      404: errorOf("Unknown job"),
      409: jsonOf(
        "Not completed: `{error, status}`",
        z.object({ error: z.string(), status: z.string() }),
      ),
    },
  });
  app.get("/jobs/:id/results", async (c) => {
    const id = c.req.param("id");
    const found = await jobs.result(id);
    if (!found) throw unknownJob(id);
    if (found.body === undefined) {
      return c.json({
        error: `Job ${id} is ${found.status}; it has no result`,
        status: found.status,
      }, 409);
    }
    // The stored JSON text as it is: a large result is not parsed again.
    return c.body(found.body, 200, { "Content-Type": "application/json" });
  });

  registry.registerPath({
    method: "get",
    path: "/jobs/{id}/logs",
    tags,
    summary: "The job's log lines so far (a JSON array of strings)",
    request: params,
    responses: { 200: jsonOf("The lines", z.array(z.string())), 404: errorOf("Unknown job") },
  });
  app.get("/jobs/:id/logs", async (c) => {
    const lines = await jobs.logs(c.req.param("id"));
    if (!lines) throw unknownJob(c.req.param("id"));
    return c.json(lines);
  });

  registry.registerPath({
    method: "get",
    path: "/jobs/{id}/stream",
    tags,
    summary: "The job's events as server-sent events (the runner's frame format)",
    description: "`: connected` first; then each event as one unnamed `data: <json>` line and " +
      "a blank line, `type` log, progress (`pct` is the job's progress 0-100), stats, done or " +
      "error; everything since the job began first. Ends after done or error.",
    request: params,
    responses: {
      200: {
        description: "The event stream",
        content: { "text/event-stream": { schema: z.string() } },
      },
      404: errorOf("Unknown job"),
    },
  });
  app.get("/jobs/:id/stream", async (c) => {
    const events = await jobs.events(c.req.param("id"));
    if (!events) throw unknownJob(c.req.param("id"));
    return runEventStream(events, { shutdown: deps.shutdown, keepaliveMs: deps.keepaliveMs });
  });

  registry.registerPath({
    method: "delete",
    path: "/jobs/{id}",
    tags,
    summary: "Cancel a job (through the runner)",
    request: params,
    responses: {
      200: jsonOf("Cancelled: the job", jobViewSchema),
      404: errorOf("Unknown job"),
      409: errorOf("Finished already; `details.status` says how"),
    },
  });
  app.delete("/jobs/:id", async (c) => {
    const id = c.req.param("id");
    const outcome = await jobs.cancel(id);
    if (outcome.outcome === "unknown") throw unknownJob(id);
    if (outcome.outcome === "finished") {
      throw httpError(409, `Job ${id} has finished already (${outcome.status})`, {
        status: outcome.status,
      });
    }
    return c.json(outcome.job, 200);
  });
}
