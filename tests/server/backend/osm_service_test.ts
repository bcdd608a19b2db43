import assert from "node:assert/strict";
import { listImportedRegions } from "../../../lib/osm/osm_store.ts";
import { readGeoSettings } from "../../../server/backend/geo_config.ts";
import { openOsmService } from "../../../server/backend/osm_service.ts";
import { holdStoreInChild } from "../../_store_holder.ts";

const offline: typeof fetch = () => Promise.reject(new TypeError("offline"));

Deno.test("openOsmService(): a first start imports the seed; the next one keeps the store", async () => {
  const dir = await Deno.makeTempDir();
  const logs: string[] = [];
  const settings = readGeoSettings({
    OSM_STORE_PATH: `${dir}/sub/osm.duckdb`,
    NOMINATIM_URL: "http://127.0.0.1:9",
  });
  const shutdown = new AbortController();
  try {
    const first = await openOsmService(settings, {
      shutdown: shutdown.signal,
      log: (m) => logs.push(m),
      fetch: offline,
    });
    await first.seeded;
    const [region] = await listImportedRegions(first.context.store);
    assert.equal(region?.region_path, "Europe/Liechtenstein");
    assert.equal(region.counts.communes, 11);
    assert.match(logs.join("\n"), /imported Europe\/Liechtenstein in [\d.]+ s: 5 substations/);
    // The seed's place nodes answer the geocoder while Nominatim is unreachable.
    const answer = await first.geo.geocoder.geocode("Malbun");
    assert.ok(answer.found && answer.source === "gazetteer");
    assert.match(answer.result.display_name, /^Malbun, Liechtenstein$/);
    await first.close();

    logs.length = 0;
    const second = await openOsmService(settings, {
      shutdown: shutdown.signal,
      log: (m) => logs.push(m),
      fetch: offline,
    });
    await second.seeded;
    assert.deepEqual(logs, []);
    const [again] = await listImportedRegions(second.context.store);
    assert.equal(again?.imported_at, region.imported_at);
    await second.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openOsmService(): a seed that cannot be read is logged; the service still opens", async () => {
  const dir = await Deno.makeTempDir();
  const logs: string[] = [];
  try {
    const service = await openOsmService(
      readGeoSettings({ OSM_STORE_PATH: `${dir}/osm.duckdb`, OSM_SEED: `${dir}/missing.osm.pbf` }),
      { shutdown: new AbortController().signal, log: (m) => logs.push(m), fetch: offline },
    );
    await service.seeded;
    assert.match(logs.at(-1) ?? "", /OSM seed import failed: .*missing\.osm\.pbf/);
    assert.deepEqual(await listImportedRegions(service.context.store), []);
    await service.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openOsmService(): a store held by another process is an error naming OSM_STORE_PATH", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/osm.duckdb`;
    const holder = await holdStoreInChild(path);
    await assert.rejects(
      openOsmService(readGeoSettings({ OSM_STORE_PATH: path, OSM_SEED: "" }), {
        shutdown: new AbortController().signal,
        log: () => {},
        fetch: offline,
      }),
      /Cannot open the OSM store .*osm\.duckdb \(OSM_STORE_PATH\)/,
    );
    await holder.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
