import assert from "node:assert/strict";
import {
  createTable,
  createTableSql,
  ensureMeta,
  openStore,
  quoteIdent,
  readMeta,
  type Store,
  tableNames,
  toPlain,
  writeMeta,
} from "../../lib/store/mod.ts";

async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
  const store = await openStore(":memory:");
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

const COLUMNS = [
  { name: "code", type: "VARCHAR", notNull: true },
  { name: "n", type: "INTEGER" },
  { name: "x", type: "DOUBLE" },
  { name: "big", type: "BIGINT" },
  { name: "ok", type: "BOOLEAN" },
] as const;

Deno.test("openStore(':memory:') runs statements and queries with parameters", async () => {
  await withStore(async (store) => {
    assert.equal(store.path, ":memory:");
    await store.run("CREATE TABLE t (a INTEGER, b VARCHAR)");
    await store.run("INSERT INTO t VALUES ($1, $2), ($3, $4)", [1, "one", 2, null]);
    assert.deepEqual(await store.all("SELECT * FROM t ORDER BY a"), [
      { a: 1, b: "one" },
      { a: 2, b: null },
    ]);
    assert.deepEqual(await store.all("SELECT b FROM t WHERE a = $1", [1]), [{ b: "one" }]);
  });
});

Deno.test("all() returns plain JS values for DuckDB types", async () => {
  await withStore(async (store) => {
    const [row] = await store.all(
      "SELECT 42::BIGINT AS big, 1.25::DECIMAL(6, 2) AS dec, 0.1::DOUBLE AS dbl," +
        " DATE '2024-03-01' AS day, true AS yes, [1, 2]::BIGINT[] AS list," +
        " {'k': 3::HUGEINT} AS struct, NULL AS nothing",
    );
    assert.deepEqual(row, {
      big: 42,
      dec: 1.25,
      dbl: 0.1,
      day: "2024-03-01T00:00:00.000Z",
      yes: true,
      list: [1, 2],
      struct: { k: 3 },
      nothing: null,
    });
  });
});

Deno.test("toPlain refuses values that would lose precision", () => {
  assert.equal(toPlain(7n), 7);
  assert.throws(() => toPlain(2n ** 60n), RangeError);
  assert.throws(() => toPlain(new Uint8Array([1])), TypeError);
});

Deno.test("appendRows writes rows in any column order", async () => {
  await withStore(async (store) => {
    await createTable(store, "t", COLUMNS, ["code"]);
    const count = await store.appendRows("t", ["x", "code", "ok", "big", "n"], [
      [1.5, "a", true, 9007199254740991, 1],
      [null, "b", null, null, null],
    ]);
    assert.equal(count, 2);
    assert.deepEqual(await store.all("SELECT * FROM t ORDER BY code"), [
      { code: "a", n: 1, x: 1.5, big: 9007199254740991, ok: true },
      { code: "b", n: null, x: null, big: null, ok: null },
    ]);
  });
});

Deno.test("appendRows keeps doubles exact", async () => {
  await withStore(async (store) => {
    await createTable(store, "d", [{ name: "v", type: "DOUBLE" }]);
    const values = [2.4365482, 0.1 + 0.2, 1e-300, -3.4285715, 151909.56];
    await store.appendRows("d", ["v"], values.map((v) => [v]));
    const back = (await store.all<{ v: number }>("SELECT v FROM d")).map((r) => r.v);
    assert.deepEqual(back, values);
  });
});

Deno.test("appendRows rejects bad calls and leaves the table unchanged", async (t) => {
  await withStore(async (store) => {
    await createTable(store, "t", COLUMNS);
    const all = ["code", "n", "x", "big", "ok"];
    await t.step("missing or unknown columns", async () => {
      await assert.rejects(
        () => store.appendRows("t", ["code", "n"], []),
        { name: "TypeError", message: /missing \[x, big, ok\]/ },
      );
      await assert.rejects(
        () => store.appendRows("t", [...all, "extra"], []),
        { name: "TypeError", message: /unknown \[extra\]/ },
      );
    });
    await t.step("unknown table", async () => {
      await assert.rejects(() => store.appendRows("nope", all, []), /does not exist/);
    });
    await t.step("a value of the wrong type", async () => {
      await assert.rejects(
        () => store.appendRows("t", all, [["a", 1, 1, 1, true], ["b", 1.5, 1, 1, true]]),
        { name: "TypeError", message: /Column n \(INTEGER\): cannot append 1\.5/ },
      );
      await assert.rejects(
        () => store.appendRows("t", all, [["c", "1", 1, 1, true]]),
        { name: "TypeError", message: /cannot append "1"/ },
      );
      await assert.rejects(() => store.appendRows("t", all, [["d", 1]]), /has 2 values/);
      assert.deepEqual(await store.all("SELECT count(*) AS n FROM t"), [{ n: 0 }]);
    });
  });
});

Deno.test("createTableSql quotes names and adds constraints", () => {
  assert.equal(
    createTableSql("tabula_de", [
      { name: "Code", type: "VARCHAR", notNull: true },
      { name: 'we"ird', type: "DOUBLE" },
    ], ["Code"]),
    'CREATE TABLE "tabula_de" (\n  "Code" VARCHAR NOT NULL,\n  "we""ird" DOUBLE,\n' +
      '  PRIMARY KEY ("Code")\n)',
  );
  assert.equal(quoteIdent("theta_i"), '"theta_i"');
  assert.throws(() => createTableSql("t", []), TypeError);
});

Deno.test("meta stores key/value facts", async () => {
  await withStore(async (store) => {
    assert.equal(await readMeta(store, "fingerprint"), undefined, "no table yet");
    await ensureMeta(store);
    assert.equal(await readMeta(store, "fingerprint"), undefined, "no key yet");
    await writeMeta(store, "fingerprint", "abc");
    await writeMeta(store, "fingerprint", "def");
    assert.equal(await readMeta(store, "fingerprint"), "def");
    assert.deepEqual(await tableNames(store), ["meta"]);
  });
});

Deno.test("a closed store refuses work; a file store can be reopened read-only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.duckdb`;
    const store = await openStore(path);
    await writeMeta(store, "k", "v");
    await store.close();
    await store.close();
    await assert.rejects(() => store.all("SELECT 1"), /closed/);
    const reader = await openStore(path, { readOnly: true });
    try {
      assert.equal(await readMeta(reader, "k"), "v");
      await assert.rejects(() => reader.run("CREATE TABLE x (a INTEGER)"), /read-only/i);
    } finally {
      await reader.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
