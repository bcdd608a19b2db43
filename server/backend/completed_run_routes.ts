/**
 * The run history (`/api/completed-runs`): records of finished runs, saved by the backend when
 * a job ends and by the frontend (its camelCase record: `id: "job_<ms>"`, `modelName`, ...).
 * A record is any JSON object naming its model (`model_name`, `modelName` or `model_id`); a
 * client's `id` is kept, and posting the same id again replaces the record. The list carries
 * each record whole (the frontend replaces its local history with it), the most recently
 * completed first.
 */
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { BackendStore } from "../../lib/backend/backend_store.ts";
import { completedRunEntry, completionTime } from "../../lib/backend/list_entries.ts";
import { httpError } from "../middleware/errors.ts";
import { readJsonObject } from "../middleware/json_object_body.ts";
import {
  entryChunks,
  fitsInOneText,
  jsonArrayStream,
  jsonArrayText,
  listResponse,
  pagingDescription,
  readPage,
  RUN_PAGE,
  TOTAL_COUNT_HEADER,
} from "./list_answer.ts";
import {
  anyObjectSchema,
  completedRunItemSchema,
  completedRunListItemSchema,
  errorOf,
  idParamsSchema,
  jsonOf,
  pageQuerySchema,
} from "./schemas.ts";

/** Members of a record that are stored as text columns: each must be well-formed UTF-16. */
const TEXT_MEMBERS = ["id", "model_name", "modelName", "model_id", "modelId", "status"];

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
      "(the same id again replaces the record; at most 200 characters); without one an id is " +
      "made. `completedAt` (a time) orders the list. Members kept as text (`id`, `model_name`, " +
      "`modelName`, `model_id`, `modelId`, `status`) must be well-formed (no lone UTF-16 " +
      "surrogate); JSON nested deeper than 64 levels is refused.",
    request: { body: { content: { "application/json": { schema: anyObjectSchema } } } },
    responses: {
      201: jsonOf("Saved", completedRunItemSchema),
      400: errorOf(
        "Malformed JSON, not an object, nested deeper than 64, no model named, a bad id, or a " +
          "text member with a lone surrogate",
      ),
      413: errorOf("Body over BACKEND_MAX_BODY_MB"),
    },
  });
  app.post("/completed-runs", async (c) => {
    const { value } = await readJsonObject(c, deps.maxBodyBytes);
    for (const member of TEXT_MEMBERS) {
      const given = value[member];
      if (typeof given === "string" && !given.isWellFormed()) {
        // Stored as text, a lone surrogate becomes U+FFFD: two ids would become one.
        throw httpError(
          400,
          `${member} is not well-formed text: it holds a lone UTF-16 surrogate`,
          [{ path: member, message: "lone UTF-16 surrogate" }],
        );
      }
    }
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
      completed_at: completionTime(record) ?? null,
      body: JSON.stringify(record),
    }, deps.clock().toISOString());
    return c.json(item, 201);
  });

  registry.registerPath({
    method: "get",
    path: "/completed-runs",
    tags,
    summary: "Run records, each whole, the most recently completed first (a bare array)",
    description: "Each entry is the record as saved (`result`, `logs`, `solver`, `duration`, " +
      "`objective`, ...) with `modelName` and `completedAt` where it has none and the spec's " +
      "`id, model_id, model_name, created_at, status` over it: the frontend replaces its " +
      "local history with this list. Ordered by `completedAt` (the record's own time, else " +
      `when it was first saved). ${pagingDescription(RUN_PAGE, "records")}`,
    request: { query: pageQuerySchema(RUN_PAGE) },
    responses: {
      200: {
        ...jsonOf("The records", z.array(completedRunListItemSchema)),
        headers: TOTAL_COUNT_HEADER,
      },
      400: errorOf("A bad limit or offset (named)"),
    },
  });
  app.get("/completed-runs", async (c) => {
    const request = readPage(c, RUN_PAGE);
    const page = await store.completedRunPage(request.offset, request.limit);
    const entries = entryChunks(page, async (items) => {
      const stored = await store.completedRunsById(items.map((item) => item.id));
      return items.flatMap((item) => {
        const run = stored.get(item.id);
        return run ? [completedRunEntry(run, run.body)] : [];
      });
    });
    return listResponse(
      c,
      page.total,
      fitsInOneText(page) ? await jsonArrayText(entries) : jsonArrayStream(entries),
    );
  });

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
