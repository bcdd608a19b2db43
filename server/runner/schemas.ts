/**
 * The runner service's request and response schemas, written once for validation, types and
 * `/openapi.json`.
 */
import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "./jobs.ts";

/** `POST /run`: a ModelConfig, or the model JSON of the existing frontend; `prepare` checks it. */
export const runRequestSchema = z
  .looseObject({})
  .openapi("RunRequest", {
    description: "A model: the ModelConfig JSON (`name, description, locations, links, " +
      "technologies, timeSeries, parameters`) or the model JSON the existing modelling " +
      "frontend sends. `POST /run` checks its shape only; the job checks the model and lists " +
      "every problem at once with its JSON path.",
  });

/** `202` of `POST /run`. */
export const runAcceptedSchema = z
  .object({ job_id: z.uuid().describe("The job's id (UUID)") })
  .openapi("RunAccepted");

/** Path parameter of the job routes. */
export const jobParamsSchema = z.object({
  id: z.string().max(64).openapi({
    param: { name: "id", in: "path" },
    description: "Job id from `POST /run`",
  }),
});

/** One problem of an invalid model. */
export const modelProblemSchema = z
  .object({
    path: z.string().describe('JSON path, e.g. "technologies[0].constraints.energy_cap_mx"'),
    message: z.string(),
  })
  .openapi("ModelProblem");

/** `GET /run/{id}`. */
export const jobStatusSchema = z
  .object({
    id: z.string(),
    status: z.enum(JOB_STATUSES),
    created_at: z.string().describe("ISO 8601, UTC"),
    started_at: z.string().nullable().describe("When a worker took the job"),
    finished_at: z.string().nullable(),
    termination: z.string().nullable().describe(
      "optimal, infeasible, unbounded, infeasible_or_unbounded, time_limit, iteration_limit, " +
        "interrupted or error, once the run has ended",
    ),
    error: z.string().nullable().describe("Why the job failed, or `cancelled`"),
    problems: z.array(modelProblemSchema).nullable().describe(
      "The problems of an invalid model by JSON path (at most 500); null otherwise",
    ),
    worker: z.string().nullable().describe(
      'The worker process that took the job, "host:pid" (this service\'s own process when it ' +
        "solves in process); null while the job waits",
    ),
  })
  .openapi("JobStatus");

/** `GET /run/{id}/result`: the members the service relies on; the rest pass through. */
export const runResultSchema = z
  .looseObject({
    success: z.boolean().describe("false for infeasible, unbounded and the like"),
    termination: z.string(),
    termination_condition: z.string(),
    objective: z.number().nullable(),
  })
  .openapi("RunResult", {
    description: "The full result: columnar tables, costs, capacities, levelised costs, " +
      "capacity factors, stats, and the keys the frontend's result views read.",
  });

/** `DELETE /run/{id}`. */
export const cancelledSchema = z
  .object({ cancelled: z.string().describe("The job id"), status: z.literal("cancelled") })
  .openapi("JobCancelled");

/** `GET /health`. */
export const healthSchema = z
  .object({
    status: z.literal("ok"),
    version: z.string(),
    solver: z.string().describe('The built-in solver, e.g. "HiGHS 1.15.3 (wasm)"'),
    solvers: z.array(z.object({
      name: z.string().describe("What a model names (parameters.solver.name, run.solver)"),
      version: z.string(),
      path: z.string().nullable().describe("The binary; null for the built-in solver"),
    })).describe(
      "The solvers a model can run on here: the built-in highs and the command-line solvers " +
        "found on this machine's PATH (in queue mode each worker uses those of its own machine)",
    ),
    jobs: z.object({
      running: z.number().int(),
      queued: z.number().int(),
    }),
  })
  .openapi("RunnerHealth");

/** One event of `GET /run/{id}/stream`, sent as `data: <json>`. */
export const runEventSchema = z
  .union([
    z.object({ type: z.literal("log"), line: z.string() }),
    z.object({
      type: z.literal("progress"),
      phase: z.enum(["build", "solve"]),
      pct: z.number().min(0).max(100),
    }),
    z.object({
      type: z.literal("stats"),
      elapsed: z.string().describe('"42s" or "1m 05s"'),
      cpu_pct: z.number().nullable().describe("% of one core over the last interval"),
      proc_ram_mb: z.number().nullable(),
      sys_ram_used_gb: z.number().nullable(),
      sys_ram_total_gb: z.number().nullable(),
      sys_ram_pct: z.number().nullable(),
    }),
    z.object({
      type: z.literal("done"),
      result: z.record(z.string(), z.unknown()).describe(
        "The result without its time series (dispatch, transmission_flow, timestamps, " +
          "demand_timeseries, the per-timestep tables); the full one is at /run/{id}/result",
      ),
      objective: z.number().nullable(),
      termination: z.string(),
      success: z.boolean(),
    }),
    z.object({
      type: z.literal("error"),
      error: z.string().describe('The fault\'s message, or "cancelled"'),
      problems: z.array(modelProblemSchema).optional().describe(
        "For an invalid model: its problems by JSON path (at most 500)",
      ),
    }),
  ])
  .openapi("RunEvent");
