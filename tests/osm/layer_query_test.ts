import assert from "node:assert/strict";
import { importOsmExtract } from "../../lib/osm/import_region.ts";
import {
  emptyCollection,
  LAYER_LIMITS,
  normalizeRegion,
  queryLayer,
  regionsCover,
  regionWithin,
  storeCovers,
} from "../../lib/osm/layer_query.ts";
import { LAYER_NAMES, type LayerName, listImportedRegions } from "../../lib/osm/osm_store.ts";
import { openStore } from "../../lib/store/store.ts";

const DIR = new URL("../../data/geo/liechtenstein/", import.meta.url);
const PBF = new URL("osm/liechtenstein-2024-03-04.osm.pbf", DIR).pathname;

// One import shared by the tests of this file.
const ready = (async () => {
  const store = await openStore(":memory:");
  await importOsmExtract(store, PBF, { regionPath: "Europe/Liechtenstein" });
  return store;
})();

function crossCheckIds(layer: LayerName): string[] {
  const collection = JSON.parse(Deno.readTextFileSync(new URL(`layers/${layer}.geojson`, DIR)));
  return collection.features.map((f: { id: string }) => f.id).sort();
}

// deno-lint-ignore no-explicit-any
type Collection = { type: string; attribution: string; features: any[] };

Deno.test("queryLayer() answers the whole region with the cross-check's osm_ids", async (t) => {
  const store = await ready;
  for (const layer of LAYER_NAMES) {
    await t.step(layer, async () => {
      const answer = await queryLayer(store, layer, { region: "Europe/Liechtenstein" });
      const collection = JSON.parse(answer.text) as Collection;
      assert.equal(collection.type, "FeatureCollection");
      assert.match(collection.attribution, /OpenStreetMap contributors/);
      assert.equal(answer.count, collection.features.length);
      assert.deepEqual(collection.features.map((f) => f.id).sort(), crossCheckIds(layer));
    });
  }
});

Deno.test("queryLayer() gives the feature shape with parsed values", async () => {
  const store = await ready;
  const { text } = await queryLayer(store, "substations", { region: "europe/LIECHTENSTEIN" });
  const schaan = (JSON.parse(text) as Collection).features.find((f) => f.id === "way/986372063");
  assert.equal(schaan.type, "Feature");
  assert.equal(schaan.geometry.type, "Point");
  assert.equal(schaan.properties.osm_id, "way/986372063");
  assert.equal(schaan.properties.name, "Umspannwerk Schaan");
  assert.equal(schaan.properties.region_path, "Europe/Liechtenstein");
  assert.equal(schaan.properties.tags.operator, "Liechtensteinische Kraftwerke");
  assert.deepEqual(schaan.properties.voltage_kv, [110, 16]);
  assert.ok(schaan.properties.area_m2 > 0);
  const communes = JSON.parse((await queryLayer(store, "communes", { region: "Europe" })).text);
  assert.equal(communes.features.length, 11);
  assert.equal(communes.features[0].geometry.type, "MultiPolygon");
  assert.equal(communes.features[0].properties.admin_level, 8);
});

Deno.test("queryLayer() selects by bbox intersection, and by bbox and region together", async () => {
  const store = await ready;
  // Around Schaan's substation only.
  const near = JSON.parse(
    (await queryLayer(store, "substations", { bbox: [9.49, 47.17, 9.50, 47.18] })).text,
  ) as Collection;
  assert.deepEqual(near.features.map((f) => f.id), ["way/986372063"]);
  // A line crossing the box counts though none of its ends lies inside.
  const lines = await queryLayer(store, "power_lines", { bbox: [9.0, 47.0, 10.0, 48.0] });
  assert.equal(lines.count, 15);
  const elsewhere = await queryLayer(store, "power_lines", {
    bbox: [9.0, 47.0, 10.0, 48.0],
    region: "Europe/Austria",
  });
  assert.equal(elsewhere.count, 0);
  assert.equal(JSON.parse(elsewhere.text).features.length, 0);
  await assert.rejects(() => queryLayer(store, "power_lines", {}), TypeError);
});

Deno.test("regionsCover() and storeCovers(): a region or parent, or an intersecting bbox", async () => {
  const store = await ready;
  const regions = await listImportedRegions(store);
  assert.ok(regionsCover(regions, { region: "Europe/Liechtenstein" }));
  assert.ok(regionsCover(regions, { region: "EUROPE" }));
  assert.ok(!regionsCover(regions, { region: "Europe/Austria" }));
  assert.ok(!regionsCover(regions, { region: "Europe/Liechtenstein/Vaduz" }));
  assert.ok(regionsCover(regions, { bbox: [9.5, 47.1, 9.6, 47.2] }));
  assert.ok(!regionsCover(regions, { bbox: [13, 52, 14, 53] }));
  assert.ok(!regionsCover(regions, {}));
  assert.ok(await storeCovers(store, { bbox: [9.0, 47.0, 9.48, 47.1] }));
  const empty = await openStore(":memory:");
  assert.ok(!(await storeCovers(empty, { region: "Europe" })));
  await empty.close();
});

Deno.test("normalizeRegion() and regionWithin()", () => {
  assert.equal(normalizeRegion(" Europe / Liechtenstein "), "Europe/Liechtenstein");
  assert.throws(() => normalizeRegion("Europe/../x"), RangeError);
  assert.throws(() => normalizeRegion(`Europe/${"a".repeat(81)}`), RangeError);
  assert.ok(regionWithin("Europe/Liechtenstein", "europe"));
  assert.ok(!regionWithin("Europeans/X", "Europe"));
});

Deno.test("queryLayer() cuts a large answer at maxFeatures and maxBytes and says so (issue 18)", async () => {
  const store = await ready;
  assert.deepEqual(LAYER_LIMITS, { maxFeatures: 20_000, maxBytes: 32 * 1024 * 1024 });
  const all = JSON.parse((await queryLayer(store, "power_plants", { region: "Europe" })).text);
  assert.equal(all.features.length, 161);
  assert.equal("truncated" in all, false);
  // A continent-wide box, as the existing frontend's first view asks.
  const europe = { bbox: [-25, 34, 45, 72] as [number, number, number, number] };
  const byCount = await queryLayer(store, "power_plants", europe, {
    maxFeatures: 10,
    maxBytes: 1024 ** 3,
  });
  assert.equal(byCount.count, 10);
  assert.equal(byCount.total, 161);
  assert.equal(byCount.truncated, true);
  const body = JSON.parse(byCount.text);
  assert.deepEqual(
    body.features.map((f: { id: string }) => f.id),
    all.features.slice(0, 10).map((f: { id: string }) => f.id),
  );
  assert.equal(body.truncated, true);
  assert.equal(body.total, 161);
  assert.match(
    body.notice,
    /^Showing 10 of 161 features .*OSM_LAYER_MAX_FEATURES.*OSM_LAYER_MAX_MB/,
  );
  const bySize = await queryLayer(store, "communes", europe, {
    maxFeatures: 1000,
    maxBytes: 40_000,
  });
  assert.ok(new TextEncoder().encode(bySize.text).length <= 40_000);
  assert.ok(bySize.count >= 1 && bySize.count < 11, `${bySize.count} communes`);
  assert.equal(JSON.parse(bySize.text).total, 11);
});

Deno.test("emptyCollection() is a valid FeatureCollection with a notice", () => {
  const body = JSON.parse(emptyCollection('too "large"'));
  assert.equal(body.type, "FeatureCollection");
  assert.deepEqual(body.features, []);
  assert.equal(body.notice, 'too "large"');
});
