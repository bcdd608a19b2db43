/**
 * Saved models: list, save, read, replace, delete. A body is any JSON object, kept exactly as
 * sent (a draft that is not a valid model yet included: it is checked when it runs). Ids are
 * numbers as JSON strings; a model's own `id` member is replaced by the backend's id when it is
 * read, as are `createdAt` / `updatedAt` for a model in the frontend's form (its Go backend did
 * so). The list carries each saved model whole, beside the spec's fields, since the frontend
 * reloads its models from it. Every answer is JSON; an unknown id is 404, never a 200 (PUT
 * creates nothing).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { BackendStore, StoredModel } from "../../lib/backend/backend_store.ts";
import { modelListEntry } from "../../lib/backend/list_entries.ts";
import { isFrontendModel } from "../../lib/model/frontend/frontend_model.ts";
import { httpError } from "../middleware/errors.ts";
import type { BackendJobs } from "./jobs/jobs.ts";
import { readJsonObject } from "../middleware/json_object_body.ts";
import {
  entryChunks,
  fitsInOneText,
  jsonArrayStream,
  jsonArrayText,
  listResponse,
  MODEL_PAGE,
  pagingDescription,
  readPage,
  TOTAL_COUNT_HEADER,
} from "./list_answer.ts";
import {
  anyObjectSchema,
  errorOf,
  idParamsSchema,
  jsonOf,
  modelItemSchema,
  modelListEntrySchema,
  pageQuerySchema,
} from "./schemas.ts";
import { z } from "@hono/zod-openapi";
import { acceptsGzip, gzipBytes } from "../middleware/gzip_bytes.ts";

/** The name of a model whose body has none. */
export const DEFAULT_MODEL_NAME = "Unnamed Model";

/** Longest model name, in characters (code points). */
export const MAX_MODEL_NAME_CHARS = 200;

/** The list's default page is kept in memory (until the models change) up to this size. */
const MAX_CACHED_LIST_BYTES = 32 * 1024 * 1024;

/** Characters of a string as a reader counts them (code points). */
function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * `modelMeta` of a body about to be saved; 400 for a name over 200 characters, or a name or
 * description that is not well-formed UTF-16 (a lone surrogate cannot be stored as text: two
 * different ones would become the same stored name).
 */
export function checkedModelMeta(
  body: Record<string, unknown>,
): { name: string; description: string } {
  const meta = modelMeta(body);
  const count = charCount(meta.name);
  if (count > MAX_MODEL_NAME_CHARS) {
    throw httpError(
      400,
      `name must be at most ${MAX_MODEL_NAME_CHARS} characters; it has ${count}`,
      [{ path: "name", message: `at most ${MAX_MODEL_NAME_CHARS} characters` }],
    );
  }
  for (const [path, value] of [["name", meta.name], ["description", meta.description]]) {
    if (!value!.isWellFormed()) {
      throw httpError(
        400,
        `${path} is not well-formed text: it holds a lone UTF-16 surrogate`,
        [{ path, message: "lone UTF-16 surrogate" }],
      );
    }
  }
  return meta;
}

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
    summary: "Saved models, each whole, the most recently updated first (a bare array)",
    description: "Each entry is the saved model with `createdAt`/`updatedAt` (the backend's " +
      "times) and the spec's `id, name, description, created_at, updated_at` over it (they " +
      "win over saved members of the same name): the frontend reloads its models from this " +
      `list. ${pagingDescription(MODEL_PAGE, "models")}`,
    request: { query: pageQuerySchema(MODEL_PAGE) },
    responses: {
      200: {
        ...jsonOf("The models", z.array(modelListEntrySchema)),
        headers: TOTAL_COUNT_HEADER,
      },
      400: errorOf("A bad limit or offset (named)"),
    },
  });
  app.get("/models", async (c) => {
    const request = readPage(c, MODEL_PAGE);
    const page = await store.modelPage(request.offset, request.limit);
    const entries = (current: typeof page) =>
      entryChunks(current, async (items) => {
        const stored = await store.modelsById(items.map((item) => item.id));
        return items.flatMap((item) => {
          const model = stored.get(item.id);
          return model ? [modelListEntry(model, model.body)] : [];
        });
      });
    if (!fitsInOneText(page)) return listResponse(c, page.total, jsonArrayStream(entries(page)));
    if (!request.isDefault) return listResponse(c, page.total, await jsonArrayText(entries(page)));
    // The default page (what the frontend loads) is made once per change of the models, and
    // gzipped once for clients that accept it (browsers do): a saved model is mostly repeats.
    const plain = () =>
      store.modelBytes(
        "list",
        async () =>
          new TextEncoder().encode(
            await jsonArrayText(entries(await store.modelPage(0, request.limit))),
          ),
        MAX_CACHED_LIST_BYTES,
      );
    c.header("Vary", "Accept-Encoding", { append: true });
    if (acceptsGzip(c.req.header("accept-encoding"))) {
      const gzipped = await store.modelBytes(
        "list.gz",
        async () => gzipBytes(await plain()),
        MAX_CACHED_LIST_BYTES,
      );
      c.header("Content-Encoding", "gzip");
      return listResponse(c, page.total, gzipped);
    }
    return listResponse(c, page.total, await plain());
  });

  registry.registerPath({
    method: "post",
    path: "/models",
    tags,
    summary: "Save a model (any JSON object, stored exactly as sent)",
    description: `\`name\` from the body (default "${DEFAULT_MODEL_NAME}", at most ` +
      `${MAX_MODEL_NAME_CHARS} characters); \`description\` from \`description\` or ` +
      "`metadata.description`; both well-formed text (no lone UTF-16 surrogate). JSON nested " +
      "deeper than 64 levels is refused. Validated as a model only when it runs.",
    request: { body: { content: { "application/json": { schema: anyObjectSchema } } } },
    responses: {
      201: jsonOf("Saved", modelItemSchema),
      400: errorOf(
        "Malformed JSON, not an object, nested deeper than 64, or a bad name or description",
      ),
      413: errorOf("Body over BACKEND_MAX_BODY_MB (4 MiB)"),
    },
  });
  app.post("/models", async (c) => {
    const { text, value } = await readJsonObject(c, maxBodyBytes);
    return c.json(await store.insertModel(checkedModelMeta(value), text, now()), 201);
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
    description: `The same rules as a save: \`name\` at most ${MAX_MODEL_NAME_CHARS} ` +
      "characters, no lone UTF-16 surrogate in name or description, nesting at most 64.",
    request: {
      ...params,
      body: { content: { "application/json": { schema: anyObjectSchema } } },
    },
    responses: {
      200: jsonOf("Replaced", modelItemSchema),
      400: errorOf(
        "Malformed JSON, not an object, nested deeper than 64, or a bad name or description",
      ),
      404: errorOf("Unknown id (nothing is created)"),
      413: errorOf("Body over BACKEND_MAX_BODY_MB (4 MiB)"),
    },
  });
  app.put("/models/:id", async (c) => {
    const id = c.req.param("id");
    const { text, value } = await readJsonObject(c, maxBodyBytes);
    const item = await store.replaceModel(id, checkedModelMeta(value), text, now());
    if (!item) throw unknown(id);
    return c.json(item, 200);
  });

  registry.registerPath({
    method: "delete",
    path: "/models/{id}",
    tags,
    summary: "Delete a model and all its jobs (running ones are cancelled on the runner)",
    description: "Serialised with the model's run submissions: when it answers, no job of the " +
      "model is left (each one the runner had accepted was cancelled there) and none will " +
      "write a run record; a run submitted meanwhile is a 404. Records of runs that ended " +
      "before stay in the run history.",
    request: params,
    responses: {
      200: jsonOf("Deleted", z.object({ deleted: z.string() })),
      404: errorOf("Unknown id"),
    },
  });
  app.delete("/models/:id", async (c) => {
    const id = c.req.param("id");
    if (!await deps.jobs.deleteModel(id)) throw unknown(id);
    return c.json({ deleted: id }, 200);
  });
}
