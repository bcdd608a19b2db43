import assert from "node:assert/strict";
import { defaultOsmStorePath, main, regionFromFile } from "../../pipelines/geo_import.ts";
import { openStore } from "../../lib/store/store.ts";
import { holdStoreInChild } from "../_store_holder.ts";

const PBF = new URL(
  "../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
  import.meta.url,
).pathname;

Deno.test("geo-import imports a PBF into the store file named by --store", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/osm.duckdb`;
  const log = console.log, error = console.error;
  console.log = console.error = () => {};
  try {
    const result = await main([PBF, "--region", "Europe/Liechtenstein", "--store", path]);
    assert.equal(result.counts.communes, 11);
    const store = await openStore(path, { readOnly: true });
    try {
      const rows = await store.all<{ region_path: string; n: number }>(
        "SELECT region_path, count(*) AS n FROM power_plants GROUP BY region_path",
      );
      assert.deepEqual(rows, [{ region_path: "Europe/Liechtenstein", n: 161 }]);
    } finally {
      await store.close();
    }
  } finally {
    console.log = log;
    console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("geo-import refuses a missing FILE argument", async () => {
  await assert.rejects(main([]), TypeError);
});

Deno.test("geo-import says which process holds the store when it is locked", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/osm.duckdb`;
  const held = await holdStoreInChild(path);
  try {
    await assert.rejects(
      main([PBF, "--store", path]),
      /open in another process \(a running backend\?\).*POST \/api\/osm\/download/,
    );
  } finally {
    await held.release();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("geo-import defaults: region from the file name, store from OSM_STORE_PATH", async () => {
  assert.equal(await regionFromFile("/x/liechtenstein-2024-03-04.osm.pbf"), "Europe/Liechtenstein");
  assert.equal(await regionFromFile("monaco-latest.osm.pbf"), "Europe/Monaco");
  assert.equal(await regionFromFile("bayern-240101.osm.pbf"), "Europe/Germany/Bayern");
  assert.equal(await regionFromFile("/x/my_area.osm"), "My area");
  const before = Deno.env.get("OSM_STORE_PATH");
  Deno.env.set("OSM_STORE_PATH", "/tmp/elsewhere.duckdb");
  try {
    assert.equal(defaultOsmStorePath(), "/tmp/elsewhere.duckdb");
    Deno.env.delete("OSM_STORE_PATH");
    assert.equal(defaultOsmStorePath(), "data/osm.duckdb");
  } finally {
    if (before !== undefined) Deno.env.set("OSM_STORE_PATH", before);
  }
});
