/**
 * The backend's response schemas, for `/api/openapi.json` (handlers build the answers; the
 * schemas document them).
 */
import { z } from "@hono/zod-openapi";
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
  scenario: z.union([z.string(), z.array(z.string())]).optional(),
}).openapi("RunRequest");

/** A run-history list item. */
export const completedRunItemSchema = z.object({
  id: z.string(),
  model_id: z.string().nullable(),
  model_name: z.string().nullable(),
  created_at: z.string(),
  status: z.string().nullable(),
}).openapi("CompletedRunItem");

/**
 * A run-history list item: the spec's members plus the camelCase names the existing frontend
 * reads when it replaces its local history with this list (`modelName`, `completedAt`).
 */
export const completedRunListItemSchema = completedRunItemSchema.extend({
  modelName: z.string().nullable(),
  completedAt: z.string(),
}).openapi("CompletedRunListItem");

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
