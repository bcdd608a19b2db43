/**
 * BackendStore: a state file of an earlier version (its run history without `completed_at`)
 * opens with the column added and filled, from each record's own `completedAt` where it gives
 * a time, else from when it was first saved (issue 18 orders the list by it).
 */
import assert from "node:assert/strict";
import { BackendStore } from "../../lib/backend/backend_store.ts";
import { openStore } from "../../lib/store/store.ts";

Deno.test("BackendStore.init() gives an older run history its completion times", async () => {
  const store = await openStore(":memory:");
  try {
    await store.run(`CREATE TABLE completed_runs (
      id VARCHAR PRIMARY KEY, model_id VARCHAR, model_name VARCHAR, status VARCHAR,
      created_at VARCHAR NOT NULL, body VARCHAR NOT NULL)`);
    const rows = [
      ["a", "2026-01-01T00:00:00.000Z", { completedAt: "2026-03-01T12:00:00+01:00" }],
      ["b", "2026-02-01T00:00:00.000Z", {}],
      ["c", "2026-01-15T00:00:00.000Z", { completedAt: "not a time" }],
    ] as const;
    for (const [id, created, body] of rows) {
      await store.run(
        "INSERT INTO completed_runs VALUES ($1, NULL, 'm', 'completed', $2, $3)",
        [id, created, JSON.stringify(body)],
      );
    }
    const db = new BackendStore(store);
    await db.init();
    const page = await db.completedRunPage(0, 10);
    assert.equal(page.total, 3);
    assert.deepEqual(page.items.map((r) => [r.id, r.completed_at]), [
      ["a", "2026-03-01T11:00:00.000Z"],
      ["b", "2026-02-01T00:00:00.000Z"],
      ["c", "2026-01-15T00:00:00.000Z"],
    ]);
    // A second start changes nothing.
    await db.init();
    assert.deepEqual((await db.completedRunPage(0, 10)).items.map((r) => r.id), ["a", "b", "c"]);
  } finally {
    await store.close();
  }
});
