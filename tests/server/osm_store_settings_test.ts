import assert from "node:assert/strict";
import { readOsmStoreSettings } from "../../server/osm_store_settings.ts";

Deno.test("readOsmStoreSettings(): defaults, own values, no seed, bad values named", () => {
  assert.deepEqual(readOsmStoreSettings({}), {
    path: "data/osm.duckdb",
    memoryLimit: "1GB",
    seed: {
      file: new URL(
        "../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
        import.meta.url,
      ).pathname,
      regionPath: "Europe/Liechtenstein",
    },
  });
  assert.deepEqual(
    readOsmStoreSettings({
      OSM_STORE_PATH: "/tmp/o.duckdb",
      OSM_STORE_MEMORY: "512MB",
      OSM_SEED: "/x/bremen.osm.pbf",
      OSM_SEED_REGION: "Europe/Germany/Bremen",
    }),
    {
      path: "/tmp/o.duckdb",
      memoryLimit: "512MB",
      seed: { file: "/x/bremen.osm.pbf", regionPath: "Europe/Germany/Bremen" },
    },
  );
  assert.equal(readOsmStoreSettings({ OSM_SEED: "" }).seed, null);
  assert.equal(readOsmStoreSettings({ OSM_SEED: "none" }).seed, null);
  assert.throws(() => readOsmStoreSettings({ OSM_STORE_MEMORY: "lots" }), /OSM_STORE_MEMORY/);
  assert.throws(() => readOsmStoreSettings({ OSM_SEED_REGION: "Europe/<x>" }), /OSM_SEED_REGION/);
});
