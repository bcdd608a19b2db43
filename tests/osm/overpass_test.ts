import assert from "node:assert/strict";
import { polygonsAreaM2, type Position } from "../../lib/osm/geo_measure.ts";
import { LAYER_NAMES, type LayerName } from "../../lib/osm/osm_store.ts";
import { fetchOverpassLayer, OverpassError, overpassQuery } from "../../lib/osm/overpass.ts";
import { overpassFeatures } from "../../lib/osm/overpass_features.ts";
import { closedPortUrl } from "./_fake_nominatim.ts";
import { startDroppingServer, startFakeOverpass } from "./_fake_overpass.ts";

const DIR = new URL("../../data/geo/liechtenstein/", import.meta.url);
const LI: [number, number, number, number] = [9.47, 47.04, 9.64, 47.28];

// deno-lint-ignore no-explicit-any
function crossCheck(layer: LayerName): any[] {
  return JSON.parse(Deno.readTextFileSync(new URL(`layers/${layer}.geojson`, DIR))).features;
}

Deno.test("overpassQuery() asks each layer's tags in the clamped box, out geom", () => {
  assert.equal(
    overpassQuery("power_lines", LI, 40),
    '[out:json][timeout:40];(way["power"~"^(line|minor_line|cable)$"](47.04,9.47,47.28,9.64););out geom;',
  );
  const subs = overpassQuery("substations", [0, 40, 20, 50]);
  assert.match(
    subs,
    /^\[out:json\]\[timeout:40\];\(node\["power"~"\^\(substation\|station\)\$"\]\(42\.5,7\.5,47\.5,12\.5\);way/,
  );
  assert.match(subs, /relation\["type"="multipolygon"\]\["power"/);
  assert.match(
    overpassQuery("districts", LI),
    /relation\["boundary"="administrative"\]\["admin_level"="6"\]/,
  );
  assert.match(overpassQuery("communes", LI), /\["admin_level"="8"\]/);
});

Deno.test("fetchOverpassLayer() converts the fake's real elements to the cross-check's features", async (t) => {
  const fake = await startFakeOverpass();
  try {
    for (const layer of LAYER_NAMES) {
      await t.step(layer, async () => {
        const answer = await fetchOverpassLayer(layer, LI, { url: fake.url });
        const features = JSON.parse(answer.text).features;
        const expected = crossCheck(layer);
        assert.deepEqual(
          features.map((f: { id: string }) => f.id).sort(),
          expected.map((f) => f.id).sort(),
        );
        assert.deepEqual(answer.problems, []);
        for (const f of features) {
          assert.equal(f.properties.region_path, null);
          assert.equal(f.properties.osm_id, f.id);
          assert.equal(typeof f.properties.tags, "object");
        }
        if (layer === "communes" || layer === "districts") {
          for (const f of features) {
            const cross = expected.find((e) => e.id === f.id);
            const area = polygonsAreaM2(
              cross.geometry.type === "Polygon"
                ? [cross.geometry.coordinates]
                : cross.geometry.coordinates as Position[][][],
            );
            assert.equal(f.geometry.type, "MultiPolygon");
            assert.ok(Math.abs(f.properties.area_m2 / area - 1) < 0.005, f.id);
          }
        }
      });
    }
    const subs = JSON.parse((await fetchOverpassLayer("substations", LI, { url: fake.url })).text);
    const schaan = subs.features.find((f: { id: string }) => f.id === "way/986372063");
    const cross = crossCheck("substations").find((f) => f.id === "way/986372063");
    assert.deepEqual(schaan.properties.voltage_kv, [110, 16]);
    assert.ok(schaan.properties.area_m2 > 0);
    const [lon, lat] = schaan.geometry.coordinates;
    // The import's area-weighted centroid, not osmium's: within 50 m of the cross-check's point.
    assert.ok(Math.abs(lon - cross.geometry.coordinates[0]) < 6e-4, String(lon));
    assert.ok(Math.abs(lat - cross.geometry.coordinates[1]) < 4e-4, String(lat));
    assert.match(fake.queries.at(-1)!, /^\[out:json\]/);
  } finally {
    await fake.close();
  }
});

Deno.test("fetchOverpassLayer() throws an OverpassError naming the upstream status", async (t) => {
  const fake = await startFakeOverpass();
  const dropping = startDroppingServer();
  const cases: [string, () => Promise<unknown>, OverpassError["upstream"]][] = [
    ["429", () => {
      fake.mode = { status: 429 };
      return fetchOverpassLayer("power_lines", LI, { url: fake.url });
    }, 429],
    ["504", () => {
      fake.mode = { status: 504 };
      return fetchOverpassLayer("power_lines", LI, { url: fake.url });
    }, 504],
    [
      "unreachable",
      () => fetchOverpassLayer("power_lines", LI, { url: closedPortUrl() }),
      "unreachable",
    ],
    [
      "connection dropped",
      () => fetchOverpassLayer("power_lines", LI, { url: dropping.url }),
      "unreachable",
    ],
    ["timeout", () => {
      fake.mode = "stall";
      return fetchOverpassLayer("power_lines", LI, { url: fake.url, timeoutMs: 200 });
    }, "timeout"],
    ["invalid JSON", () => {
      fake.mode = "invalid JSON";
      return fetchOverpassLayer("power_lines", LI, { url: fake.url });
    }, "invalid JSON"],
    ["runtime error", () => {
      fake.mode = "runtime error";
      return fetchOverpassLayer("power_lines", LI, { url: fake.url });
    }, "runtime error"],
  ];
  try {
    for (const [name, call, upstream] of cases) {
      await t.step(name, async () => {
        await assert.rejects(call, (e: unknown) => {
          assert.ok(e instanceof OverpassError);
          assert.equal(e.upstream, upstream);
          assert.match(e.message, /Overpass/);
          if (typeof upstream === "number") assert.match(e.message, new RegExp(String(upstream)));
          return true;
        });
      });
    }
  } finally {
    dropping.close();
    await fake.close();
  }
});

Deno.test("overpassFeatures() leaves out an unclosable relation and reports it", () => {
  const { features, problems } = overpassFeatures("communes", [{
    type: "relation",
    id: 7,
    tags: { type: "boundary", boundary: "administrative", admin_level: "8", name: "Open" },
    members: [{
      type: "way",
      ref: 1,
      role: "outer",
      geometry: [{ lat: 47, lon: 9 }, { lat: 47.1, lon: 9 }, { lat: 47.1, lon: 9.1 }],
    }],
  }]);
  assert.equal(features.length, 0);
  assert.ok(problems.some((p) => /relation\/7 \(Open\).*does not close/.test(p)));
});
