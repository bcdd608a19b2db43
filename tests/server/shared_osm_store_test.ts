import assert from "node:assert/strict";
import { listImportedRegions } from "../../lib/osm/osm_store.ts";
import { readOsmStoreSettings } from "../../server/osm_store_settings.ts";
import { openSharedOsmStore, REGION_IMPORTED } from "../../server/shared_osm_store.ts";
import { readGeoSettings } from "../../server/backend/map/geo_config.ts";
import { openOsmService } from "../../server/backend/map/osm_service.ts";
import { holdStoreInChild } from "../_store_holder.ts";

const offline: typeof fetch = () => Promise.reject(new TypeError("offline"));

Deno.test("openSharedOsmStore(): a first start imports the seed; the next one keeps the store", async () => {
  const dir = await Deno.makeTempDir();
  const logs: string[] = [];
  const settings = readOsmStoreSettings({ OSM_STORE_PATH: `${dir}/sub/osm.duckdb` });
  try {
    const first = await openSharedOsmStore(settings, (m) => logs.push(m));
    const announced: string[] = [];
    first.events.addEventListener(REGION_IMPORTED, (e) => {
      announced.push((e as CustomEvent<string>).detail);
    });
    // The backend's geocoder over it, with Nominatim unreachable.
    const backend = await openOsmService(
      readGeoSettings({ NOMINATIM_URL: "http://127.0.0.1:9" }),
      first,
      {
        shutdown: new AbortController().signal,
        fetch: offline,
      },
    );
    await first.seeded;
    assert.deepEqual(announced, ["Europe/Liechtenstein"]);
    const [region] = await listImportedRegions(first.store);
    assert.equal(region?.region_path, "Europe/Liechtenstein");
    assert.equal(region.counts.communes, 11);
    assert.match(logs.join("\n"), /imported Europe\/Liechtenstein in [\d.]+ s: 5 substations/);
    // The seed's place nodes answer the geocoder (its places were re-read after the import).
    const answer = await backend.geo.geocoder.geocode("Malbun");
    assert.ok(answer.found && answer.source === "gazetteer");
    assert.match(answer.result.display_name, /^Malbun, Liechtenstein$/);
    await first.close();

    logs.length = 0;
    const second = await openSharedOsmStore(settings, (m) => logs.push(m));
    await second.seeded;
    assert.deepEqual(logs, []);
    const [again] = await listImportedRegions(second.store);
    assert.equal(again?.imported_at, region.imported_at);
    await second.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openSharedOsmStore(): a seed that cannot be read is logged; the store still opens", async () => {
  const dir = await Deno.makeTempDir();
  const logs: string[] = [];
  try {
    const shared = await openSharedOsmStore(
      readOsmStoreSettings({
        OSM_STORE_PATH: `${dir}/osm.duckdb`,
        OSM_SEED: `${dir}/missing.osm.pbf`,
      }),
      (m) => logs.push(m),
    );
    await shared.seeded;
    assert.match(logs.at(-1) ?? "", /OSM seed import failed: .*missing\.osm\.pbf/);
    assert.deepEqual(await listImportedRegions(shared.store), []);
    await shared.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openSharedOsmStore(): a store held by another process is an error naming OSM_STORE_PATH", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/osm.duckdb`;
    const holder = await holdStoreInChild(path);
    try {
      await assert.rejects(
        openSharedOsmStore(readOsmStoreSettings({ OSM_STORE_PATH: path, OSM_SEED: "" }), () => {}),
        /Cannot open the OSM store .*osm\.duckdb \(OSM_STORE_PATH\)/,
      );
    } finally {
      await holder.release();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
