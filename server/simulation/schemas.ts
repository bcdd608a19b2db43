/**
 * The zod schemas of the simulation services' answers and parameters, for their OpenAPI
 * document (the routes are handled without a validator: the payload is checked by the model).
 */
import { z } from "@hono/zod-openapi";

export const jobViewSchema = z.object({
  job_id: z.string(),
  status: z.enum(["queued", "running", "done", "error", "cancelled"]),
  progress_pct: z.number(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable().optional().describe(
    "Present once done (`null` on /api/hydrogen/status, whose client reads /result)",
  ),
}).openapi("SimulationJob");
export const ackSchema = z.object({
  job_id: z.string(),
  status: z.literal("queued"),
  message: z.string(),
}).openapi("SimulationAccepted");
export const errorSchema = z.object({
  detail: z.union([z.string(), z.array(z.object({ loc: z.array(z.unknown()), msg: z.string() }))]),
}).openapi("SimulationError");
export const healthSchema = z.object({
  status: z.literal("ok"),
  engine_ready: z.literal(true),
  engine_error: z.null(),
  active_jobs: z.number().int(),
  model: z.string(),
}).openapi("SimulationHealth");

/** A JSON answer of `schema` in a route's responses. */
export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** The `{id}` path parameter of the job routes. */
export const idParam = z.object({ id: z.string().describe("The job id of the acknowledgement") });
