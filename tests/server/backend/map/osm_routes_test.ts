import assert from "node:assert/strict";
import { createGeocoder } from "../../../../lib/osm/geocode.ts";
import { loadShippedGazetteer } from "../../../../lib/osm/gazetteer.ts";
import { loadRegionsDb } from "../../../../lib/osm/regions_db.ts";
import { readGeoSettings } from "../../../../server/backend/map/geo_config.ts";
import {
  GEO_DATA,
  geoRoutes,
  loadGeoRouteDeps,
} from "../../../../server/backend/map/osm_routes.ts";
import { closedPortUrl, startFakeNominatim } from "../../../osm/_fake_nominatim.ts";

const gazetteer = await loadShippedGazetteer();
const regions = await loadRegionsDb(GEO_DATA.geofabrikIndex, "http://127.0.0.1:9");
const UA = "energy-workspace-test/1.0";

Deno.test("GET /api/geocode answers from Nominatim, then the cache", async () => {
  const fake = startFakeNominatim();
  try {
    const geocoder = createGeocoder({ nominatimUrl: fake.url, userAgent: UA, gazetteer });
    const app = geoRoutes({ geocoder, regions });
    // "Vaduz" alone is a gazetteer name, answered locally; this one must go to Nominatim.
    const first = await app.request("/api/geocode?q=Vaduz%2C%20Liechtenstein");
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("X-Source"), "nominatim");
    assert.deepEqual(await first.json(), {
      lat: 47.1392862,
      lon: 9.5227962,
      display_name: "Vaduz, Liechtenstein",
      bbox: [9.48, 47.0951, 9.63, 47.18],
    });
    const second = await app.request("/api/geocode?q=vaduz,%20liechtenstein");
    assert.equal(second.headers.get("X-Source"), "cache");
    assert.equal((await second.json()).display_name, "Vaduz, Liechtenstein");
    assert.equal(fake.seen.length, 1);
    assert.equal(fake.seen[0]!.userAgent, UA);

    const missing = await app.request("/api/geocode?q=Xyzzyville");
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error, /Xyzzyville/);
  } finally {
    await fake.close();
  }
});

Deno.test("GET /api/geocode answers from the gazetteer when Nominatim is down", async () => {
  const geocoder = createGeocoder({ nominatimUrl: closedPortUrl(), userAgent: UA, gazetteer });
  const app = geoRoutes({ geocoder, regions });
  for (const [q, country] of [["Vaduz", "Liechtenstein"], ["Berlin", "Germany"]] as const) {
    const response = await app.request(`/api/geocode?q=${q}`);
    assert.equal(response.status, 200, q);
    assert.equal(response.headers.get("X-Source"), "gazetteer");
    const body = await response.json();
    assert.equal(body.display_name, `${q}, ${country}`);
    assert.equal(body.bbox.length, 4);
  }
  const unknown = await app.request("/api/geocode?q=Xyzzyville");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get("X-Source"), "gazetteer");
});

Deno.test("GET /api/geocode refuses an empty, missing or over-long q, naming it", async (t) => {
  const geocoder = createGeocoder({ nominatimUrl: closedPortUrl(), userAgent: UA, gazetteer });
  const app = geoRoutes({ geocoder, regions });
  for (const query of ["", "?q=", "?q=%20%20", `?q=${"a".repeat(201)}`]) {
    await t.step(query.slice(0, 20) || "(none)", async () => {
      const response = await app.request(`/api/geocode${query}`);
      assert.equal(response.status, 400);
      assert.match((await response.json()).error, /\bq\b/);
    });
  }
});

Deno.test("GET /api/osm/regions-db lists the regions; ?format=tempo the predecessor's", async () => {
  const geocoder = createGeocoder({ nominatimUrl: closedPortUrl(), userAgent: UA, gazetteer });
  const tempoRegions = JSON.parse(await Deno.readTextFile(GEO_DATA.tempoRegions));
  const app = geoRoutes({ geocoder, regions, tempoRegions });
  const response = await app.request("/api/osm/regions-db");
  assert.equal(response.status, 200);
  const list = await response.json() as { path: string; parent: string | null; url: string }[];
  assert.equal(list.length, 474);
  assert.deepEqual(list.find((r) => r.path === "Europe/Liechtenstein"), {
    name: "Liechtenstein",
    path: "Europe/Liechtenstein",
    url: "http://127.0.0.1:9/europe/liechtenstein-latest.osm.pbf",
    parent: "Europe",
  });
  assert.equal(list.find((r) => r.path === "Europe/Germany/Bayern")?.parent, "Europe/Germany");

  const tempo = await app.request("/api/osm/regions-db?format=tempo");
  assert.equal(tempo.status, 200);
  const body = await tempo.json();
  assert.ok(body.metadata && body.countries.Germany);
  assert.equal((await app.request("/api/osm/regions-db?format=xml")).status, 400);
  const without = geoRoutes({ geocoder, regions });
  assert.equal((await without.request("/api/osm/regions-db?format=tempo")).status, 404);
});

Deno.test("loadGeoRouteDeps() builds the routes from the settings and the shipped data", async () => {
  const settings = readGeoSettings({
    NOMINATIM_URL: closedPortUrl(),
    GEOFABRIK_URL: "http://mirror.invalid/geofabrik",
  });
  const deps = await loadGeoRouteDeps(settings);
  assert.equal(
    deps.regions.findRegion("europe/liechtenstein")?.url,
    "http://mirror.invalid/geofabrik/europe/liechtenstein-latest.osm.pbf",
  );
  const answer = await deps.geocoder.geocode("Triesenberg");
  assert.ok(answer.found && answer.source === "gazetteer");
});

Deno.test("readGeoSettings() has defaults and names a bad variable", () => {
  const MIB = 1024 * 1024;
  assert.deepEqual(readGeoSettings({}), {
    nominatimUrl: "https://nominatim.openstreetmap.org",
    geofabrikUrl: "https://download.geofabrik.de",
    geocoderUserAgent: "energy-workspace/1.0 (+https://example.invalid)",
    overpassUrl: "https://overpass-api.de/api/interpreter",
    downloadMaxBytes: 8192 * MIB,
    downloadsMax: 2,
    downloadFirstByteMs: 30_000,
    downloadStallMs: 60_000,
    geocoderMaxWaitMs: 10_000,
    layerMaxFeatures: 20_000,
    layerMaxBytes: 32 * MIB,
    layerCacheBytes: 128 * MIB,
  });
  const set = readGeoSettings({
    OSM_DOWNLOAD_MAX_MB: "0.5",
    OSM_DOWNLOADS_MAX: "4",
    OSM_DOWNLOAD_FIRST_BYTE_S: "2.5",
    OSM_DOWNLOAD_STALL_S: "7",
    GEOCODER_MAX_WAIT_S: "3",
    OSM_LAYER_MAX_FEATURES: "500",
    OSM_LAYER_MAX_MB: "1",
    OSM_LAYER_CACHE_MB: "16",
  });
  assert.equal(set.downloadMaxBytes, 512 * 1024);
  assert.equal(set.downloadsMax, 4);
  assert.equal(set.downloadFirstByteMs, 2500);
  assert.equal(set.downloadStallMs, 7000);
  assert.equal(set.geocoderMaxWaitMs, 3000);
  assert.equal(set.layerMaxFeatures, 500);
  assert.equal(set.layerMaxBytes, MIB);
  assert.equal(set.layerCacheBytes, 16 * MIB);
  assert.throws(() => readGeoSettings({ NOMINATIM_URL: "ftp://x" }), /NOMINATIM_URL/);
  assert.throws(() => readGeoSettings({ OVERPASS_URL: "nope" }), /OVERPASS_URL/);
  assert.throws(() => readGeoSettings({ GEOFABRIK_URL: "nope" }), /GEOFABRIK_URL/);
  for (
    const [name, value] of [
      ["OSM_DOWNLOAD_MAX_MB", "0"],
      ["OSM_DOWNLOADS_MAX", "0"],
      ["OSM_DOWNLOADS_MAX", "1.5"],
      ["OSM_DOWNLOAD_FIRST_BYTE_S", "-1"],
      ["OSM_DOWNLOAD_STALL_S", "soon"],
      ["GEOCODER_MAX_WAIT_S", "0"],
      ["OSM_LAYER_MAX_FEATURES", "0"],
      ["OSM_LAYER_MAX_MB", "x"],
      ["OSM_LAYER_CACHE_MB", "-2"],
    ]
  ) {
    assert.throws(
      () => readGeoSettings({ [name!]: value }),
      (e) => e instanceof RangeError && e.message.startsWith(`${name}:`),
      `${name}=${value}`,
    );
  }
});

/** The env a request carries when it came over a socket from `address`. */
function from(address: string) {
  return { remoteAddr: { hostname: address, port: 40000, transport: "tcp" } };
}

Deno.test("GET /api/geocode: 503 with Retry-After past the wait bound; clients by address in turn (issue 18)", async (t) => {
  const fake = startFakeNominatim();
  const geocoderFor = (maxWaitMs: number) =>
    createGeocoder({
      nominatimUrl: fake.url,
      userAgent: UA,
      gazetteer,
      minIntervalMs: 500,
      maxWaitMs,
    });
  try {
    await t.step("a question whose turn would come after the bound: 503 at once", async () => {
      const app = geoRoutes({ geocoder: geocoderFor(1200), regions });
      const ask = (q: string) =>
        app.request(`/api/geocode?q=${encodeURIComponent(q)}`, {}, from("10.0.0.1"));
      // Turns at 0, 0.5 and 1 s; the fourth would wait 1.5 s.
      const first = [0, 1, 2].map((i) => ask(`a street ${i}, Vaduz`));
      const started = performance.now();
      const busy = await ask("a street 3, Vaduz");
      assert.ok(performance.now() - started < 300, "refused without waiting");
      assert.equal(busy.status, 503);
      assert.equal(busy.headers.get("Retry-After"), "1");
      assert.match(busy.headers.get("Content-Type") ?? "", /application\/json/);
      assert.match((await busy.json()).error, /GEOCODER_MAX_WAIT_S.*retry in 1 s/);
      assert.deepEqual((await Promise.all(first)).map((r) => r.status), [200, 200, 200]);
      // Local answers never wait and are never refused.
      const local = await ask("Vaduz");
      assert.equal(local.status, 200);
      assert.equal(local.headers.get("X-Source"), "gazetteer");
    });
    await t.step("another client's question comes next, not after the first client's", async () => {
      fake.seen.length = 0;
      const app = geoRoutes({ geocoder: geocoderFor(10_000), regions });
      const ask = (q: string, address: string) =>
        app.request(`/api/geocode?q=${encodeURIComponent(q)}`, {}, from(address));
      const a = [0, 1, 2, 3].map((i) => ask(`a road ${i}, Vaduz`, "10.0.0.1"));
      const b = ask("b road, Vaduz", "10.0.0.2");
      const answers = await Promise.all([...a, b]);
      assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200]);
      // Before the fix: one queue in arrival order, "b road" fifth.
      assert.deepEqual(fake.seen.map((s) => s.q), [
        "a road 0, Vaduz",
        "b road, Vaduz",
        "a road 1, Vaduz",
        "a road 2, Vaduz",
        "a road 3, Vaduz",
      ]);
    });
  } finally {
    await fake.close();
  }
});
