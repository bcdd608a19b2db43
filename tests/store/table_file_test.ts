import assert from "node:assert/strict";
import { openStore } from "../../lib/store/store.ts";
import { writeTableFile } from "../../lib/store/table_file.ts";

Deno.test("writeTableFile(): rows to Parquet and CSV through COPY, with an optional SELECT", async () => {
  const dir = await Deno.makeTempDir();
  const store = await openStore(":memory:", { readers: 0 });
  try {
    const columns = [["id", "VARCHAR"], ["t", "VARCHAR"], ["v", "DOUBLE"]] as const;
    const rows = [["a", "2005-01-01 00:00", 1.5], ["b's", "2005-01-01 01:00", null]];
    await writeTableFile(store, { name: "x", columns, rows }, `${dir}/x.parquet`, "parquet");
    assert.deepEqual(
      await store.all(`SELECT * FROM read_parquet('${dir}/x.parquet') ORDER BY id`),
      [{ id: "a", t: "2005-01-01 00:00", v: 1.5 }, { id: "b's", t: "2005-01-01 01:00", v: null }],
    );
    await writeTableFile(
      store,
      { name: "y", columns, rows },
      `${dir}/y's.csv`,
      "csv",
      `SELECT id, CAST(t AS TIMESTAMP) AS t FROM y`,
    );
    const csv = await Deno.readTextFile(`${dir}/y's.csv`);
    assert.equal(csv.split("\n")[0], "id,t");
    assert.match(csv, /^a,2005-01-01 00:00:00$/m);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
