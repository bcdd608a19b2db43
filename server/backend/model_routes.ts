/**
 * Saved models: list, save, read, replace, delete. A body is any JSON object, kept exactly as
 * sent (a draft that is not a valid model yet included: it is checked when it runs). Ids are
 * numbers as JSON strings; a model's own `id` member is replaced by the backend's id when it is
 * read, as are `createdAt` / `updatedAt` for a model in the frontend's form (its Go backend did
 * so). Every answer is JSON; an unknown id is 404, never a 200 (PUT creates nothing).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { BackendStore, StoredModel } from "../../lib/backend/backend_store.ts";
import { isFrontendModel } from "../../lib/model/frontend_model.ts";
import { httpError } from "../middleware/errors.ts";
import type { BackendJobs } from "./jobs.ts";
import { readJsonObject } from "./json_body.ts";
import { anyObjectSchema, errorOf, idParamsSchema, jsonOf, modelItemSchema } from "./schemas.ts";
import { z } from "@hono/zod-openapi";

/** The name of a model whose body has none. */
export const DEFAULT_MODEL_NAME = "Unnamed Model";

/** What the model routes use. */
export interface ModelRouteDeps {
  store: BackendStore;
  jobs: BackendJobs;
  maxBodyBytes: number;
  clock: () => Date;
}

/** The list columns of a body: `name`, and `description` or `metadata.description`. */
export function modelMeta(body: Record<string, unknown>): { name: string; description: string } {
  const name = typeof body["name"] === "string" && body["name"].trim() !== ""
    ? body["name"]
    : DEFAULT_MODEL_NAME;
  const metadata = body["metadata"];
  const fromMetadata = metadata !== null && typeof metadata === "object" &&
      !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)["description"]
    : undefined;
  const description = typeof body["description"] === "string"
    ? body["description"]
    : typeof fromMetadata === "string"
    ? fromMetadata
    : "";
  return { name, description };
}

/** A stored model as `GET /api/models/{id}` answers it. */
export function modelAnswer(model: StoredModel): Record<string, unknown> {
  const body = JSON.parse(model.body) as Record<string, unknown>;
  const answer: Record<string, unknown> = { ...body, id: model.id };
  if (isFrontendModel(body) || "createdAt" in body || "updatedAt" in body) {
    answer["createdAt"] = model.created_at;
    answer["updatedAt"] = model.updated_at;
  }
  return answer;
}

/** Registers the model routes on the `/api` app. */
export function modelRoutes(app: OpenAPIHono, deps: ModelRouteDeps): void {
  const { store, maxBodyBytes } = deps;
  const now = () => deps.clock().toISOString();
  const unknown = (id: string) => httpError(404, `Unknown model: ${id}`);
  const registry = app.openAPIRegistry;
  const params = { params: idParamsSchema };
  const tags = ["Models"];

  registry.registerPath({
    method: "get",
    path: "/models",
    tags,
    summary: "Saved models, the most recently updated first (a bare array)",
    responses: { 200: jsonOf("The models", z.array(modelItemSchema)) },
  });
  app.get(
    "/models",
    async (c) => c.body(await store.listModelsJson(), 200, { "Content-Type": "application/json" }),
  );

  registry.registerPath({
    method: "post",
    path: "/models",
    tags,
    summary: "Save a model (any JSON object, stored exactly as sent)",
    description: `\`name\` from the body (default "${DEFAULT_MODEL_NAME}"); \`description\` ` +
      "from `description` or `metadata.description`. Validated only when it runs.",
    request: { body: { content: { "application/json": { schema: anyObjectSchema } } } },
    responses: {
      201: jsonOf("Saved", modelItemSchema),
      400: errorOf("Malformed JSON or not an object"),
      413: errorOf("Body over BACKEND_MAX_BODY_MB (4 MiB)"),
    },
  });
  app.post("/models", async (c) => {
    const { text, value } = await readJsonObject(c, maxBodyBytes);
    return c.json(await store.insertModel(modelMeta(value), text, now()), 201);
  });

  registry.registerPath({
    method: "get",
    path: "/models/{id}",
    tags,
    summary: "A model as saved, its `id` member the backend's id",
    request: params,
    responses: { 200: jsonOf("The model", anyObjectSchema), 404: errorOf("Unknown id") },
  });
  app.get("/models/:id", async (c) => {
    const model = await store.getModel(c.req.param("id"));
    if (!model) throw unknown(c.req.param("id"));
    return c.json(modelAnswer(model));
  });

  registry.registerPath({
    method: "put",
    path: "/models/{id}",
    tags,
    summary: "Replace a model",
    request: {
      ...params,
      body: { content: { "application/json": { schema: anyObjectSchema } } },
    },
    responses: {
      200: jsonOf("Replaced", modelItemSchema),
      400: errorOf("Malformed JSON or not an object"),
      404: errorOf("Unknown id (nothing is created)"),
      413: errorOf("Body over BACKEND_MAX_BODY_MB (4 MiB)"),
    },
  });
  app.put("/models/:id", async (c) => {
    const id = c.req.param("id");
    const { text, value } = await readJsonObject(c, maxBodyBytes);
    const item = await store.replaceModel(id, modelMeta(value), text, now());
    if (!item) throw unknown(id);
    return c.json(item, 200);
  });

  registry.registerPath({
    method: "delete",
    path: "/models/{id}",
    tags,
    summary: "Delete a model and all its jobs (running ones are cancelled on the runner)",
    request: params,
    responses: {
      200: jsonOf("Deleted", z.object({ deleted: z.string() })),
      404: errorOf("Unknown id"),
    },
  });
  app.delete("/models/:id", async (c) => {
    const id = c.req.param("id");
    if (!await store.hasModel(id)) throw unknown(id);
    await deps.jobs.cancelModel(id);
    if (!await store.deleteModel(id)) throw unknown(id);
    return c.json({ deleted: id }, 200);
  });
}
