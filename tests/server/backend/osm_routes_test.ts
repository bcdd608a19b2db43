import assert from "node:assert/strict";
import { createGeocoder } from "../../../lib/osm/geocode.ts";
import { loadShippedGazetteer } from "../../../lib/osm/gazetteer.ts";
import { loadRegionsDb } from "../../../lib/osm/regions_db.ts";
import { readGeoSettings } from "../../../server/backend/geo_config.ts";
import { GEO_DATA, geoRoutes, loadGeoRouteDeps } from "../../../server/backend/osm_routes.ts";
import { closedPortUrl, startFakeNominatim } from "../../osm/_fake_nominatim.ts";

const gazetteer = await loadShippedGazetteer();
const regions = await loadRegionsDb(GEO_DATA.geofabrikIndex, "http://127.0.0.1:9");
const UA = "energy-workspace-test/1.0";

Deno.test("GET /api/geocode answers from Nominatim, then the cache", async () => {
  const fake = startFakeNominatim();
  try {
    const geocoder = createGeocoder({ nominatimUrl: fake.url, userAgent: UA, gazetteer });
    const app = geoRoutes({ geocoder, regions });
    const first = await app.request("/api/geocode?q=Vaduz");
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("X-Source"), "nominatim");
    assert.deepEqual(await first.json(), {
      lat: 47.1392862,
      lon: 9.5227962,
      display_name: "Vaduz, Liechtenstein",
      bbox: [9.48, 47.0951, 9.63, 47.18],
    });
    const second = await app.request("/api/geocode?q=vaduz");
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
  assert.deepEqual(readGeoSettings({}), {
    nominatimUrl: "https://nominatim.openstreetmap.org",
    geofabrikUrl: "https://download.geofabrik.de",
    geocoderUserAgent: "energy-workspace/1.0 (+https://example.invalid)",
    overpassUrl: "https://overpass-api.de/api/interpreter",
  });
  assert.throws(() => readGeoSettings({ NOMINATIM_URL: "ftp://x" }), /NOMINATIM_URL/);
  assert.throws(() => readGeoSettings({ OVERPASS_URL: "nope" }), /OVERPASS_URL/);
  assert.throws(() => readGeoSettings({ GEOFABRIK_URL: "nope" }), /GEOFABRIK_URL/);
});
