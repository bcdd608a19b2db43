/**
 * The run history (`/api/completed-runs`): records of finished runs, saved by the backend when
 * a job ends and by the frontend (its camelCase record: `id: "job_<ms>"`, `modelName`, ...).
 * A record is any JSON object naming its model (`model_name`, `modelName` or `model_id`); a
 * client's `id` is kept, and posting the same id again replaces the record.
 */
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { BackendStore } from "../../lib/backend/backend_store.ts";
import { httpError } from "../middleware/errors.ts";
import { readJsonObject } from "./json_body.ts";
import {
  anyObjectSchema,
  completedRunItemSchema,
  completedRunListItemSchema,
  errorOf,
  idParamsSchema,
  jsonOf,
} from "./schemas.ts";

/** What the routes use. */
export interface CompletedRunRouteDeps {
  store: BackendStore;
  maxBodyBytes: number;
  clock: () => Date;
}

function text(value: unknown): string | null {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** Registers the run-history routes on the `/api` app. */
export function completedRunRoutes(app: OpenAPIHono, deps: CompletedRunRouteDeps): void {
  const { store } = deps;
  const registry = app.openAPIRegistry;
  const params = { params: idParamsSchema };
  const tags = ["Run history"];

  registry.registerPath({
    method: "post",
    path: "/completed-runs",
    tags,
    summary: "Save a run record",
    description: "Any JSON object with `model_name`, `modelName` or `model_id`. Its `id` is kept " +
      "(the same id again replaces the record); without one an id is made.",
    request: { body: { content: { "application/json": { schema: anyObjectSchema } } } },
    responses: {
      201: jsonOf("Saved", completedRunItemSchema),
      400: errorOf("Malformed JSON, not an object, or no model named"),
      413: errorOf("Body over BACKEND_MAX_BODY_MB"),
    },
  });
  app.post("/completed-runs", async (c) => {
    const { value } = await readJsonObject(c, deps.maxBodyBytes);
    const modelName = text(value["model_name"]) ?? text(value["modelName"]);
    const modelId = text(value["model_id"]) ?? text(value["modelId"]);
    if (modelName === null && modelId === null) {
      throw httpError(400, "A run record needs model_name (or modelName) or model_id");
    }
    const given = value["id"];
    if (given !== undefined && text(given) === null) {
      throw httpError(400, "id must be a non-empty string or a number");
    }
    if (typeof given === "string" && given.length > 200) {
      throw httpError(400, "id must be at most 200 characters");
    }
    const id = text(given) ?? `run_${crypto.randomUUID()}`;
    const record = { ...value, id };
    const status = text(value["status"]);
    const item = await store.upsertCompletedRun({
      id,
      model_id: modelId,
      model_name: modelName,
      status,
      body: JSON.stringify(record),
    }, deps.clock().toISOString());
    return c.json(item, 201);
  });

  registry.registerPath({
    method: "get",
    path: "/completed-runs",
    tags,
    summary: "Run records, the newest first (a bare array)",
    responses: { 200: jsonOf("The records", z.array(completedRunListItemSchema)) },
  });
  app.get("/completed-runs", async (c) =>
    c.json(
      (await store.listCompletedRuns()).map((item) => ({
        ...item,
        modelName: item.model_name,
        completedAt: item.created_at,
      })),
    ));

  registry.registerPath({
    method: "get",
    path: "/completed-runs/{id}",
    tags,
    summary: "One run record, as saved",
    request: params,
    responses: { 200: jsonOf("The record", anyObjectSchema), 404: errorOf("Unknown id") },
  });
  app.get("/completed-runs/:id", async (c) => {
    const body = await store.getCompletedRun(c.req.param("id"));
    if (body === undefined) throw httpError(404, `Unknown run record: ${c.req.param("id")}`);
    return c.body(body, 200, { "Content-Type": "application/json" });
  });

  registry.registerPath({
    method: "delete",
    path: "/completed-runs/{id}",
    tags,
    summary: "Delete a run record",
    request: params,
    responses: {
      200: jsonOf("Deleted", z.object({ deleted: z.string() })),
      404: errorOf("Unknown id"),
    },
  });
  app.delete("/completed-runs/:id", async (c) => {
    const id = c.req.param("id");
    if (!await store.deleteCompletedRun(id)) throw httpError(404, `Unknown run record: ${id}`);
    return c.json({ deleted: id }, 200);
  });
}
