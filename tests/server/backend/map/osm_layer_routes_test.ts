import assert from "node:assert/strict";
import { testOsmContext } from "./_osm_context.ts";
import { importOsmExtract } from "../../../../lib/osm/import_region.ts";
import {
  createOsmTables,
  type ImportedRegion,
  LAYER_NAMES,
  type LayerName,
  writeImportedRegion,
} from "../../../../lib/osm/osm_store.ts";
import { openStore } from "../../../../lib/store/store.ts";
import {
  announceRegionImported,
  type OsmContext,
} from "../../../../server/backend/map/osm_context.ts";
import { osmLayerRoutes } from "../../../../server/backend/map/osm_layer_routes.ts";
import { closedPortUrl } from "../../../osm/_fake_nominatim.ts";
import { startFakeOverpass } from "../../../osm/_fake_overpass.ts";

const DIR = new URL("../../../../data/geo/liechtenstein/", import.meta.url);
const PBF = new URL("osm/liechtenstein-2024-03-04.osm.pbf", DIR).pathname;
const LI_BBOX = "9.47,47.04,9.64,47.28";
const BERLIN_BBOX = "13.3,52.4,13.5,52.6";

// One import and one fake Overpass shared by the tests of this file.
const ready = (async () => {
  const store = await openStore(":memory:");
  await importOsmExtract(store, PBF, { regionPath: "Europe/Liechtenstein", sourceUrl: "file:li" });
  return { store, fake: await startFakeOverpass() };
})();

async function context(
  overpassUrl?: string,
  env: Record<string, string> = {},
): Promise<OsmContext> {
  const { store, fake } = await ready;
  return await testOsmContext(store, { OVERPASS_URL: overpassUrl ?? fake.url, ...env });
}

function crossCheckIds(layer: LayerName): string[] {
  const collection = JSON.parse(Deno.readTextFileSync(new URL(`layers/${layer}.geojson`, DIR)));
  return collection.features.map((f: { id: string }) => f.id).sort();
}

async function ids(response: Response): Promise<string[]> {
  const body = await response.json();
  return body.features.map((f: { id: string }) => f.id).sort();
}

Deno.test("GET /api/osm/layers lists the five layers with geometry and counts", async () => {
  const app = osmLayerRoutes(await context());
  const response = await app.request("/api/osm/layers");
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.match(body.attribution, /OpenStreetMap/);
  assert.deepEqual(body.layers, [
    { name: "substations", alias: "osm_substations", geometry: "Point", count: 5 },
    { name: "power_plants", alias: "osm_power_plants", geometry: "Point", count: 161 },
    { name: "power_lines", alias: "osm_power_lines", geometry: "LineString", count: 15 },
    { name: "communes", alias: "osm_communes", geometry: "MultiPolygon", count: 11 },
    { name: "districts", alias: "osm_districts", geometry: "MultiPolygon", count: 2 },
  ]);
});

Deno.test("GET /api/osm/regions lists the imported regions with details", async () => {
  const app = osmLayerRoutes(await context());
  const response = await app.request("/api/osm/regions");
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(body.regions, ["Europe/Liechtenstein"]);
  const [detail] = body.details;
  assert.equal(detail.path, "Europe/Liechtenstein");
  assert.equal(detail.name, "Liechtenstein");
  // A local file's directory is not shown; its name is (issue 18).
  assert.equal(detail.source_url, null);
  assert.equal(detail.source_file, "li");
  assert.match(detail.imported_at, /^\d{4}-\d\d-\d\dT/);
  assert.equal(detail.counts.power_lines, 15);
  assert.equal(detail.bbox.length, 4);
});

Deno.test("GET /api/osm/{layer}?region= answers the cross-check's osm_ids from the store", async (t) => {
  const app = osmLayerRoutes(await context());
  for (const layer of LAYER_NAMES) {
    await t.step(layer, async () => {
      const response = await app.request(`/api/osm/${layer}?region=Europe/Liechtenstein`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("X-Source"), "store");
      assert.deepEqual(await ids(response), crossCheckIds(layer));
    });
  }
  await t.step("osm_ alias and region without regard to case", async () => {
    const response = await app.request("/api/osm/osm_substations?region=europe/LIECHTENSTEIN");
    assert.equal(response.status, 200);
    assert.deepEqual(await ids(response), crossCheckIds("substations"));
    const parent = await app.request("/api/osm/osm_power_lines?region=EUROPE");
    assert.deepEqual(await ids(parent), crossCheckIds("power_lines"));
  });
});

Deno.test("GET /api/osm/{layer}?bbox= answers from the store, then the cache until an import", async () => {
  const ctx = await context();
  const app = osmLayerRoutes(ctx);
  const url = `/api/osm/power_lines?bbox=${LI_BBOX}`;
  const first = await app.request(url);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("X-Source"), "store");
  assert.match(first.headers.get("Content-Type") ?? "", /geo\+json/);
  const text = await first.text();
  const second = await app.request(url);
  assert.equal(second.headers.get("X-Source"), "cache");
  assert.equal(await second.text(), text);
  announceRegionImported(ctx, "Europe/Liechtenstein");
  const third = await app.request(url);
  assert.equal(third.headers.get("X-Source"), "store");
  assert.equal(await third.text(), text);
});

Deno.test("GET /api/osm/{layer} cache entries expire after the TTL", async () => {
  let now = 0;
  const app = osmLayerRoutes(await context(), { cacheTtlMs: 1000, now: () => now });
  const url = `/api/osm/substations?bbox=${LI_BBOX}`;
  assert.equal((await app.request(url)).headers.get("X-Source"), "store");
  now = 999;
  assert.equal((await app.request(url)).headers.get("X-Source"), "cache");
  now = 2000;
  assert.equal((await app.request(url)).headers.get("X-Source"), "store");
});

Deno.test("GET /api/osm/{layer} asks Overpass for a bbox outside the imported regions", async () => {
  const { fake } = await ready;
  fake.mode = "ok";
  const app = osmLayerRoutes(await context());
  const response = await app.request(`/api/osm/osm_power_lines?bbox=${BERLIN_BBOX}`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("X-Source"), "overpass");
  const body = await response.json();
  // The fake answers Liechtenstein's lines for any box: the shape is what is checked here.
  assert.equal(body.features.length, 15);
  assert.equal(body.features[0].properties.region_path, null);
  assert.equal(body.features[0].geometry.type, "LineString");
  assert.match(fake.queries.at(-1)!, /\(52\.4,13\.3,52\.6,13\.5\)/);
  const again = await app.request(`/api/osm/osm_power_lines?bbox=${BERLIN_BBOX}`);
  assert.equal(again.headers.get("X-Source"), "cache");
  // A large box with an unimported region goes to Overpass clamped to 5 x 5 degrees.
  const wide = await app.request("/api/osm/substations?bbox=0,40,20,50&region=Europe/Germany");
  assert.equal(wide.headers.get("X-Source"), "overpass");
  assert.match(fake.queries.at(-1)!, /\(42\.5,7\.5,47\.5,12\.5\)/);
});

Deno.test("GET /api/osm/{layer} answers 502 naming Overpass's status, never an empty 200", async (t) => {
  const { fake } = await ready;
  await t.step("429", async () => {
    fake.mode = { status: 429 };
    const app = osmLayerRoutes(await context());
    const response = await app.request(`/api/osm/substations?bbox=${BERLIN_BBOX}`);
    assert.equal(response.status, 502);
    const body = await response.json();
    assert.match(body.error, /Overpass.*429/);
    assert.equal(body.details.upstream, 429);
    // A failure is not cached: the next request asks again.
    fake.mode = "ok";
    const retry = await app.request(`/api/osm/substations?bbox=${BERLIN_BBOX}`);
    assert.equal(retry.headers.get("X-Source"), "overpass");
  });
  await t.step("unreachable", async () => {
    const app = osmLayerRoutes(await context(closedPortUrl()));
    const response = await app.request(`/api/osm/substations?bbox=${BERLIN_BBOX}`);
    assert.equal(response.status, 502);
    const body = await response.json();
    assert.match(body.error, /unreachable/);
    assert.equal(body.details.upstream, "unreachable");
  });
  await t.step("timeout", async () => {
    fake.mode = "stall";
    const app = osmLayerRoutes(await context(), { overpassTimeoutMs: 200 });
    const response = await app.request(`/api/osm/substations?bbox=${BERLIN_BBOX}`);
    assert.equal(response.status, 502);
    assert.equal((await response.json()).details.upstream, "timeout");
    fake.mode = "ok";
  });
});

Deno.test("GET /api/osm/{layer} falls back to Overpass when the store cannot be read", async () => {
  const { fake } = await ready;
  fake.mode = "ok";
  const broken = await openStore(":memory:");
  // osm_regions says Liechtenstein is there, but its layer tables are missing.
  await broken.run(`CREATE TABLE osm_regions (region_path VARCHAR, name VARCHAR,
    source_url VARCHAR, imported_at VARCHAR, counts VARCHAR, min_lon DOUBLE, min_lat DOUBLE,
    max_lon DOUBLE, max_lat DOUBLE)`);
  await broken.run(`INSERT INTO osm_regions VALUES ('Europe/Liechtenstein', 'Liechtenstein',
    'x', '2024-03-04T00:00:00Z', '{}', 9.47, 47.04, 9.64, 47.28)`);
  const logged: string[] = [];
  try {
    const app = osmLayerRoutes({ ...await context(), store: broken }, {
      log: (m) => logged.push(m),
    });
    const response = await app.request(`/api/osm/substations?bbox=${LI_BBOX}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("X-Source"), "overpass");
    assert.deepEqual(await ids(response), crossCheckIds("substations"));
    assert.match(logged[0]!, /store cannot be read/);
    const regionOnly = await app.request("/api/osm/substations?region=Europe/Liechtenstein");
    assert.equal(regionOnly.status, 503);
    assert.match((await regionOnly.json()).error, /bbox/);
  } finally {
    await broken.close();
  }
});

Deno.test("GET /api/osm/{layer} refuses bad requests, naming the parameter", async (t) => {
  const app = osmLayerRoutes(await context());
  const cases: [string, number, RegExp][] = [
    ["/api/osm/substations", 400, /bbox or region/],
    ["/api/osm/substations?bbox=", 400, /^bbox/],
    ["/api/osm/substations?bbox=1,2,3", 400, /^bbox/],
    ["/api/osm/substations?bbox=a,47,9.6,47.2", 400, /^bbox/],
    ["/api/osm/substations?bbox=9.5,47,NaN,47.2", 400, /^bbox/],
    ["/api/osm/substations?bbox=-200,47,9.6,47.2", 400, /^bbox minLon/],
    ["/api/osm/substations?bbox=9.5,95,9.6,96", 400, /^bbox minLat/],
    ["/api/osm/substations?bbox=9.6,47,9.5,47.2", 400, /^bbox minLon .* less than maxLon/],
    ["/api/osm/substations?bbox=9.5,47.2,9.6,47.2", 400, /^bbox minLat .* less than maxLat/],
    ["/api/osm/substations?region=", 400, /^region/],
    ["/api/osm/substations?region=Europe/../etc", 400, /^region/],
    ["/api/osm/substations?region=Europe%2F%3Cscript%3E", 400, /^region/],
    [`/api/osm/substations?region=Europe/${"x".repeat(81)}`, 400, /^region/],
    ["/api/osm/substations?bbox=9.5,47,9.6,47.2&region=Europe/%24", 400, /^region/],
    ["/api/osm/buildings?bbox=9.5,47,9.6,47.2", 404, /Unknown layer "buildings".*substations/],
    ["/api/osm/rivers?region=Europe", 404, /Unknown layer "rivers".*osm_power_lines/],
    [
      "/api/osm/substations?region=Europe/Austria",
      404,
      /"Europe\/Austria" is not imported.*download/,
    ],
  ];
  for (const [url, status, message] of cases) {
    await t.step(url.slice(9, 80), async () => {
      const response = await app.request(url);
      assert.equal(response.status, status);
      assert.match((await response.json()).error, message);
    });
  }
  // A large box is fine with a region: it only narrows the region.
  const wide = await app.request(
    "/api/osm/power_lines?bbox=0,40,20,50&region=Europe/Liechtenstein",
  );
  assert.equal(wide.status, 200);
  assert.equal(wide.headers.get("X-Source"), "store");
});

Deno.test("osmLayerRoutes() documents its routes in OpenAPI", async () => {
  const app = osmLayerRoutes(await context());
  const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  for (const path of ["/api/osm/layers", "/api/osm/regions", "/api/osm/{layer}"]) {
    const get = doc.paths?.[path]?.get;
    assert.ok(get?.summary, path);
    for (const response of Object.values(get?.responses ?? {})) {
      assert.ok((response as { description?: string }).description, path);
    }
  }
  assert.deepEqual(
    Object.keys(doc.paths?.["/api/osm/{layer}"]?.get?.responses ?? {}).sort(),
    ["200", "400", "404", "502", "503"],
  );
});

Deno.test("GET /api/osm/regions shows no server file path or mirror credentials (issue 18)", async () => {
  const store = await openStore(":memory:");
  try {
    await createOsmTables(store);
    const sources = {
      "Europe/A": "/srv/secret/osm_downloads/region-x1.osm.pbf",
      "Europe/B": "https://user:pw@mirror.example/europe/b-latest.osm.pbf?token=t#f",
      "Europe/C": "C:\\data\\c.osm.pbf",
    };
    for (const [path, source] of Object.entries(sources)) {
      await writeImportedRegion(store, {
        region_path: path,
        name: path.split("/")[1]!,
        source_url: source,
        imported_at: "2024-03-04T00:00:00.000Z",
        counts: {} as ImportedRegion["counts"],
        bbox: null,
      });
    }
    const app = osmLayerRoutes(await testOsmContext(store));
    const response = await app.request("/api/osm/regions");
    const text = await response.text();
    for (const hidden of ["/srv", "secret", "pw", "token", "C:"]) {
      assert.equal(text.includes(hidden), false, hidden);
    }
    const details = JSON.parse(text).details;
    assert.deepEqual(
      details.map((d: Record<string, unknown>) => [d.path, d.source_url, d.source_file]),
      [
        ["Europe/A", null, "region-x1.osm.pbf"],
        ["Europe/B", "https://mirror.example/europe/b-latest.osm.pbf", null],
        ["Europe/C", null, "c.osm.pbf"],
      ],
    );
  } finally {
    await store.close();
  }
});

Deno.test("GET /api/osm/{layer}: a continent-wide bbox without region answers 200 from the store (issue 18)", async () => {
  const { fake } = await ready;
  const app = osmLayerRoutes(await context());
  const asked = fake.queries.length;
  // The existing frontend's first map view: Europe, no region. Before the fix: 400.
  for (const layer of LAYER_NAMES) {
    const response = await app.request(`/api/osm/osm_${layer}?bbox=-25,34,45,72`);
    assert.equal(response.status, 200, layer);
    assert.equal(response.headers.get("X-Source"), "store");
    assert.equal(response.headers.get("X-Truncated"), null);
    assert.deepEqual(await ids(response), crossCheckIds(layer));
  }
  const world = await app.request("/api/osm/substations?bbox=-180,-90,180,90");
  assert.equal(world.status, 200);
  assert.deepEqual(await ids(world), crossCheckIds("substations"));
  assert.equal(fake.queries.length, asked, "Overpass was not asked");
});

Deno.test("GET /api/osm/{layer}: a large bbox no imported region covers is an empty collection with a notice (issue 18)", async () => {
  const { fake } = await ready;
  fake.mode = "ok";
  const app = osmLayerRoutes(await context());
  const asked = fake.queries.length;
  const response = await app.request("/api/osm/osm_power_lines?bbox=60,10,140,55");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("X-Source"), "store");
  const body = await response.json();
  assert.equal(body.type, "FeatureCollection");
  assert.deepEqual(body.features, []);
  assert.match(body.notice, /bbox spans 80 x 45 degrees.*at most 5 x 5 degrees/);
  assert.match(body.attribution, /OpenStreetMap/);
  assert.equal(fake.queries.length, asked, "Overpass was not asked");
  // Within 5 x 5 degrees Overpass still answers outside the imported regions.
  const small = await app.request(`/api/osm/osm_power_lines?bbox=${BERLIN_BBOX}`);
  assert.equal(small.headers.get("X-Source"), "overpass");
});

Deno.test("GET /api/osm/{layer} cuts an answer at OSM_LAYER_MAX_FEATURES / OSM_LAYER_MAX_MB and says so (issue 18)", async (t) => {
  for (const indexMaxBytes of [undefined, 0]) {
    await t.step(indexMaxBytes === 0 ? "from the store" : "from the in-memory index", async () => {
      const byCount = osmLayerRoutes(await context(undefined, { OSM_LAYER_MAX_FEATURES: "7" }), {
        ...(indexMaxBytes === undefined ? {} : { indexMaxBytes }),
      });
      const url = "/api/osm/power_plants?bbox=-25,34,45,72";
      const response = await byCount.request(url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("X-Truncated"), "true");
      const body = await response.json();
      assert.equal(body.features.length, 7);
      assert.equal(body.truncated, true);
      assert.equal(body.total, 161);
      assert.match(body.notice, /Showing 7 of 161 features.*OSM_LAYER_MAX_FEATURES/);
      const again = await byCount.request(url);
      assert.equal(again.headers.get("X-Source"), "cache");
      assert.equal(again.headers.get("X-Truncated"), "true");

      const bySize = osmLayerRoutes(await context(undefined, { OSM_LAYER_MAX_MB: "0.05" }), {
        ...(indexMaxBytes === undefined ? {} : { indexMaxBytes }),
      });
      const communes = await bySize.request("/api/osm/communes?region=Europe");
      const bytes = new Uint8Array(await communes.arrayBuffer());
      assert.ok(bytes.length <= 0.05 * 1024 * 1024, `${bytes.length} bytes`);
      const cut = JSON.parse(new TextDecoder().decode(bytes));
      assert.equal(cut.total, 11);
      assert.ok(cut.features.length < 11);
      assert.equal(communes.headers.get("X-Truncated"), "true");
    });
  }
});

Deno.test("close the shared store and fake", async () => {
  const { store, fake } = await ready;
  await fake.close();
  await store.close();
});
