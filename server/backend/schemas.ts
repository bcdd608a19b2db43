/**
 * The backend's response schemas, for `/api/openapi.json` (handlers build the answers; the
 * schemas document them).
 */
import { z } from "@hono/zod-openapi";
import { MAX_SWEEP_SCENARIOS } from "../../lib/backend/run_model.ts";
import { detailedErrorSchema } from "../middleware/errors.ts";

/** `{ id }` path parameter. */
export const idParamsSchema = z.object({
  id: z.string().max(200).openapi({ param: { name: "id", in: "path" } }),
});

/** A saved model in the list. */
export const modelItemSchema = z.object({
  id: z.string().describe("The backend's id (a number, as text)"),
  name: z.string(),
  description: z.string(),
  created_at: z.string().describe("ISO 8601, UTC"),
  updated_at: z.string().describe("ISO 8601, UTC"),
}).openapi("ModelListItem");

/**
 * A model list entry: the saved model's own members, the backend's `createdAt`/`updatedAt`, and
 * the spec's list fields over them.
 */
export const modelListEntrySchema = modelItemSchema.extend({
  createdAt: z.string().describe("ISO 8601, UTC: `created_at` under the frontend's name"),
  updatedAt: z.string().describe("ISO 8601, UTC: `updated_at` under the frontend's name"),
}).catchall(z.unknown()).describe(
  "The saved model whole (any other members as saved), the spec's fields winning over saved " +
    "members of the same name",
).openapi("ModelListEntry");

/** `?limit&offset` of a list, documented with its rule. */
export function pageQuerySchema(rule: { defaultLimit: number; maxLimit: number }) {
  return z.object({
    limit: z.string().regex(/^\d+$/).optional().describe(
      `How many entries, 1 to ${rule.maxLimit} (default ${rule.defaultLimit})`,
    ),
    offset: z.string().regex(/^\d+$/).optional().describe(
      "How many entries to skip (default 0)",
    ),
  });
}

/** Any JSON object: a model in either form, a draft included. */
export const anyObjectSchema = z.looseObject({}).openapi("AnyObject");

/** A job. */
export const jobViewSchema = z.object({
  id: z.string(),
  model_id: z.string(),
  status: z.enum(["pending", "running", "completed", "failed", "cancelled"]),
  progress: z.number().int().min(0).max(100).describe(
    "0 waiting; 0-10 building the LP; 10-95 solving (moves with the solver's log and time); " +
      "95 solved; 100 done",
  ),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
}).openapi("Job");

/** `POST /api/models/{id}/run` body. */
export const runRequestSchema = z.object({
  parameters: z.record(z.string(), z.unknown()).optional().describe(
    "Merged over the model's parameters for this run (subset_time, time_resolution_h, " +
      "solver: {method, time_limit_s, threads}, ...)",
  ),
  scenario: z.union([z.string(), z.array(z.string())]).optional().describe(
    "Override names (parameters.overrides) to apply, a list or comma-separated; replaces the " +
      "model's parameters.scenario",
  ),
  scenarios: z.array(z.union([z.string(), z.array(z.string())])).min(1).max(MAX_SWEEP_SCENARIOS)
    .optional().describe(
      `A sweep (not with \`scenario\`): 1 to ${MAX_SWEEP_SCENARIOS} scenarios, each as ` +
        "`scenario` takes it; one job and one run-history entry per scenario, named " +
        "`<model> (scenario: a,b)`",
    ),
}).openapi("RunRequest");

/** The 202 of a sweep: its jobs, one per scenario, in the order of `scenarios`. */
export const sweepJobsSchema = z.object({
  jobs: z.array(jobViewSchema),
}).openapi("SweepJobs");

/** A run-history list item. */
export const completedRunItemSchema = z.object({
  id: z.string(),
  model_id: z.string().nullable(),
  model_name: z.string().nullable(),
  created_at: z.string(),
  status: z.string().nullable(),
}).openapi("CompletedRunItem");

/**
 * A run-history list entry: the record as saved (`result`, `logs`, `solver`, `duration`,
 * `objective`, ... of the frontend's record) with the camelCase names the existing frontend
 * reads when it replaces its local history with this list (`modelName`, `completedAt`) and the
 * spec's members over it.
 */
export const completedRunListItemSchema = completedRunItemSchema.extend({
  modelName: z.string().nullable().describe("The record's own, else `model_name`"),
  completedAt: z.string().describe(
    "The record's own, else when it was first saved (ISO 8601, UTC); the list's order",
  ),
}).catchall(z.unknown()).describe(
  "The saved record whole (any other members as saved), the spec's fields winning over " +
    "saved members of the same name",
).openapi("CompletedRunListItem");

/** `GET /api/health`. */
export const healthSchema = z.object({
  status: z.literal("ok"),
  version: z.string(),
  runner: z.object({ url: z.string(), reachable: z.boolean() }),
  catalogue: z.object({ url: z.string(), reachable: z.boolean() }),
  jobs: z.object({ running: z.number().int(), queued: z.number().int() }),
}).openapi("BackendHealth");

/** An error answer. */
export function errorOf(description: string) {
  return { description, content: { "application/json": { schema: detailedErrorSchema } } };
}

/** A JSON answer. */
export function jsonOf(description: string, schema: z.ZodType) {
  return { description, content: { "application/json": { schema } } };
}
