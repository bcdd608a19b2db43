/**
 * The list entries of the models and the run history: the saved JSON whole, the spec's fields
 * first and winning, the frontend's names added where missing, and a body that cannot be read
 * (stored before bodies were checked) leaving the spec's fields only.
 */
import assert from "node:assert/strict";
import {
  completedRunEntry,
  completionTime,
  modelListEntry,
} from "../../lib/backend/list_entries.ts";

const item = {
  id: "7",
  name: "N",
  description: "d",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-02T00:00:00.000Z",
};

Deno.test("modelListEntry: the saved model with the spec's fields over it", () => {
  const entry = JSON.parse(
    modelListEntry(item, '{"id":"1732","name":"other","createdAt":"x","locations":[1]}'),
  );
  assert.deepEqual(entry, {
    ...item,
    locations: [1],
    createdAt: item.created_at,
    updatedAt: item.updated_at,
  });
  assert.deepEqual(Object.keys(entry).slice(0, 5), Object.keys(item));
  for (const body of ["[1]", "{", "null"]) {
    assert.deepEqual(JSON.parse(modelListEntry(item, body)), {
      ...item,
      createdAt: item.created_at,
      updatedAt: item.updated_at,
    });
  }
});

Deno.test("completedRunEntry: the whole record, modelName and completedAt where missing", () => {
  const row = {
    id: "job_1",
    model_id: null,
    model_name: "m",
    created_at: "2026-01-01T00:00:00.000Z",
    status: "completed",
    completed_at: "2026-01-01T00:00:00.000Z",
  };
  const record = { id: "job_1", modelName: "m (version 2)", result: { objective: 1 }, logs: [] };
  const entry = JSON.parse(completedRunEntry(row, JSON.stringify(record)));
  assert.deepEqual(entry, {
    id: "job_1",
    model_id: null,
    model_name: "m",
    created_at: row.created_at,
    status: "completed",
    modelName: "m (version 2)",
    result: { objective: 1 },
    logs: [],
    completedAt: row.completed_at,
  });
});

Deno.test("completionTime: a record's completedAt in UTC, else undefined", () => {
  assert.equal(
    completionTime({ completedAt: "2026-01-01T01:00:00+01:00" }),
    "2026-01-01T00:00:00.000Z",
  );
  for (const record of [{}, { completedAt: 5 }, { completedAt: "soon" }, null, "x"]) {
    assert.equal(completionTime(record), undefined);
  }
});
