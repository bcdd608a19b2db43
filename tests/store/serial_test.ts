import assert from "node:assert/strict";
import { openStore } from "../../lib/store/store.ts";

Deno.test("Store.transaction() keeps other calls out and rolls back on failure", async () => {
  const store = await openStore(":memory:");
  try {
    await store.run("CREATE TABLE t (v INTEGER)");
    let release!: () => void;
    const held = new Promise<void>((r) => release = r);
    const failing = store.transaction(async (tx) => {
      await tx.run("INSERT INTO t VALUES (1)");
      await held;
      throw new Error("abort");
    });
    // Queued behind the transaction: it must not be rolled back with it.
    const outside = store.run("INSERT INTO t VALUES (2)");
    release();
    await assert.rejects(failing, /abort/);
    await outside;
    assert.deepEqual(await store.all("SELECT v FROM t"), [{ v: 2 }]);
    const ok = await store.transaction(async (tx) => {
      await tx.run("INSERT INTO t VALUES (3)");
      return "done";
    });
    assert.equal(ok, "done");
    assert.equal((await store.all("SELECT v FROM t ORDER BY v")).length, 2);
  } finally {
    await store.close();
  }
});

Deno.test("Store calls made at once read their own results", async () => {
  const store = await openStore(":memory:");
  try {
    await store.run("CREATE TABLE t (n INTEGER, j VARCHAR)");
    const writes = Array.from(
      { length: 50 },
      (_, i) => store.run("INSERT INTO t VALUES ($1, $2)", [i, JSON.stringify({ i })]),
    );
    const reads = Array.from(
      { length: 50 },
      () => store.all<{ j: string }>("SELECT j FROM t ORDER BY n LIMIT 1"),
    );
    await Promise.all(writes);
    for (const rows of await Promise.all(reads)) {
      for (const row of rows) assert.deepEqual(Object.keys(row), ["j"]);
    }
    assert.deepEqual(await store.all("SELECT count(*) AS c FROM t"), [{ c: 50 }]);
  } finally {
    await store.close();
  }
});

Deno.test("Store.close() lets earlier calls finish and refuses later ones", async () => {
  const store = await openStore(":memory:");
  const pending = store.all<{ x: number }>("SELECT 42 AS x");
  const closed = store.close();
  assert.deepEqual(await pending, [{ x: 42 }]);
  await closed;
  await assert.rejects(store.all("SELECT 1"), /closed/);
});
