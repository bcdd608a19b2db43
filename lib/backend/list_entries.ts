/**
 * The entries of the backend's two lists, in the form the existing frontend reloads them from
 * (issue 18): each entry is the saved JSON itself (a model's own members, a run record as it
 * was posted) with the spec's list fields over it. The frontend loads its models and its run
 * history from these lists after a page reload; given the spec's fields alone it saw empty
 * models and auto-saved them over the real ones, and lost every run's result.
 *
 * The spec's fields come first and win over a saved member of the same name (a saved `id`);
 * the frontend's own names are added where the saved JSON lacks them (`createdAt`/`updatedAt`
 * of a model are always the backend's, as its Go backend did).
 */
import type { CompletedRunRow, ModelListItem } from "./backend_store.ts";

function savedObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // a body stored before bodies were checked: the entry carries the spec's fields only
  }
  return {};
}

/**
 * `{...spec, ...saved, ...added, ...spec}` as JSON: the spec's fields first and last (their
 * values win, their places stay first). Spreading defines members, so a saved `__proto__`
 * stays a plain member.
 */
function entryText(
  spec: Record<string, unknown>,
  saved: Record<string, unknown>,
  added: Record<string, unknown>,
): string {
  return JSON.stringify({ ...spec, ...saved, ...added, ...spec });
}

/**
 * A model list entry as JSON text: the saved model's members, `createdAt`/`updatedAt` (the
 * backend's times) and the spec's `id, name, description, created_at, updated_at`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const [t0, t1] = ["2024-05-01T10:00:00Z", "2024-05-02T09:30:00Z"];
 * const item = { id: "7", name: "N", description: "", created_at: t0, updated_at: t1 };
 * const entry = modelListEntry(item, '{"id":"1732","name":"N","locations":[]}');
 * assert.deepEqual(JSON.parse(entry), {
 *   ...item, // the spec's fields first, and their values win over the saved `id`
 *   locations: [],
 *   createdAt: t0,
 *   updatedAt: t1,
 * });
 * ```
 */
export function modelListEntry(item: ModelListItem, body: string): string {
  const spec = {
    id: item.id,
    name: item.name,
    description: item.description,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
  return entryText(spec, savedObject(body), {
    createdAt: item.created_at,
    updatedAt: item.updated_at,
  });
}

/**
 * A run-history entry as JSON text: the record as posted (`result`, `logs`, `solver`,
 * `duration`, `objective`, ...), `modelName` and `completedAt` where it has none, and the
 * spec's `id, model_id, model_name, created_at, status`.
 */
export function completedRunEntry(row: CompletedRunRow, body: string): string {
  const spec = {
    id: row.id,
    model_id: row.model_id,
    model_name: row.model_name,
    created_at: row.created_at,
    status: row.status,
  };
  const record = savedObject(body);
  return entryText(spec, record, {
    modelName: typeof record["modelName"] === "string" ? record["modelName"] : row.model_name,
    completedAt: typeof record["completedAt"] === "string"
      ? record["completedAt"]
      : row.completed_at,
  });
}

/**
 * When a run record says its run ended: its `completedAt` as ISO 8601 in UTC (the list's sort
 * key), or undefined when it gives no time that can be read.
 */
export function completionTime(record: unknown): string | undefined {
  if (record === null || typeof record !== "object") return undefined;
  const given = (record as Record<string, unknown>)["completedAt"];
  if (typeof given !== "string") return undefined;
  const ms = Date.parse(given);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
