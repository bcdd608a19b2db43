import assert from "node:assert/strict";
import { createGeocoder, nominatimBBox, parseNominatim } from "../../lib/osm/geocode.ts";
import { loadShippedGazetteer, normalizeName, searchPlaces } from "../../lib/osm/gazetteer.ts";
import { closedPortUrl, startFakeNominatim, VADUZ_JSONV2 } from "./_fake_nominatim.ts";

const gazetteer = await loadShippedGazetteer();
const UA = "energy-workspace-test/1.0 (+https://example.invalid)";

Deno.test("parseNominatim() converts jsonv2 strings and reorders the bounding box", () => {
  assert.deepEqual(parseNominatim(VADUZ_JSONV2), {
    lat: 47.1392862,
    lon: 9.5227962,
    display_name: "Vaduz, Liechtenstein",
    bbox: [9.48, 47.0951, 9.63, 47.18],
  });
  assert.equal(parseNominatim([]), null);
  assert.throws(() => parseNominatim({ error: "x" }), TypeError);
  assert.equal(nominatimBBox(["a", "1", "2", "3"]), undefined);
});

Deno.test("createGeocoder() asks Nominatim with a User-Agent, one request a second", async () => {
  const fake = startFakeNominatim();
  try {
    const geocoder = createGeocoder({ nominatimUrl: fake.url, userAgent: UA, gazetteer });
    const [a, b] = await Promise.all([geocoder.geocode("Vaduz"), geocoder.geocode("Nowhere")]);
    assert.deepEqual(a, {
      found: true,
      source: "nominatim",
      result: parseNominatim(VADUZ_JSONV2),
    });
    assert.equal(b.found, false);
    assert.equal(b.source, "nominatim");
    assert.equal(fake.seen.length, 2);
    assert.deepEqual(fake.seen.map((s) => [s.q, s.format, s.limit, s.userAgent]), [
      ["Vaduz", "jsonv2", "1", UA],
      ["Nowhere", "jsonv2", "1", UA],
    ]);
    const gap = fake.seen[1]!.at - fake.seen[0]!.at;
    assert.ok(gap >= 990, `requests ${gap.toFixed(0)} ms apart`);
  } finally {
    await fake.close();
  }
});

Deno.test("createGeocoder() answers a repeated question from the cache", async () => {
  const fake = startFakeNominatim();
  try {
    const geocoder = createGeocoder({
      nominatimUrl: fake.url,
      userAgent: UA,
      gazetteer,
      minIntervalMs: 0,
    });
    assert.equal((await geocoder.geocode("Vaduz")).source, "nominatim");
    const again = await geocoder.geocode("  vaduz ");
    assert.equal(again.source, "cache");
    assert.equal(again.found && again.result.display_name, "Vaduz, Liechtenstein");
    assert.equal(fake.seen.length, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("createGeocoder() falls back to the gazetteer when Nominatim is down", async (t) => {
  const geocoder = createGeocoder({
    nominatimUrl: closedPortUrl(),
    userAgent: UA,
    gazetteer,
    timeoutMs: 2000,
  });
  await t.step("Vaduz from the gazetteer", async () => {
    const answer = await geocoder.geocode("Vaduz");
    assert.equal(answer.source, "gazetteer");
    assert.ok(answer.found);
    assert.ok(
      Math.abs(answer.result.lat - 47.14) < 0.02 && Math.abs(answer.result.lon - 9.52) < 0.02,
    );
    const [minLon, minLat, maxLon, maxLat] = answer.result.bbox;
    assert.ok(minLon < answer.result.lon && answer.result.lon < maxLon);
    assert.ok(minLat < answer.result.lat && answer.result.lat < maxLat);
  });
  await t.step("Berlin from Natural Earth, case and diacritics ignored", async () => {
    const answer = await geocoder.geocode("BERLIN");
    assert.ok(answer.found);
    assert.equal(answer.source, "gazetteer");
    assert.equal(answer.result.display_name, "Berlin, Germany");
    assert.ok(Math.abs(answer.result.lat - 52.52) < 0.05);
    const saoPaulo = await geocoder.geocode("sao paulo");
    assert.ok(saoPaulo.found);
    assert.equal(saoPaulo.result.display_name, "São Paulo, Brazil");
  });
  await t.step("an unknown place is not found", async () => {
    const answer = await geocoder.geocode("Xyzzyville");
    assert.equal(answer.found, false);
    assert.equal(answer.source, "gazetteer");
  });
});

Deno.test("createGeocoder() falls back on a 5xx and asks extraPlaces first", async () => {
  const fake = startFakeNominatim();
  try {
    const geocoder = createGeocoder({
      nominatimUrl: fake.url,
      userAgent: UA,
      gazetteer,
      minIntervalMs: 0,
      extraPlaces: () => [{
        name: "fail",
        names: ["fail"],
        lat: 1,
        lon: 2,
        display_name: "fail, Imported",
        population: 0,
      }],
    });
    const answer = await geocoder.geocode("fail");
    assert.equal(answer.source, "gazetteer");
    assert.ok(answer.found);
    assert.equal(answer.result.display_name, "fail, Imported");
    assert.deepEqual(answer.result.bbox, [1.95, 0.95, 2.05, 1.05]);
  } finally {
    await fake.close();
  }
});

Deno.test("searchPlaces() prefers exact over prefix over contains, then population", () => {
  const place = (name: string, population: number) => ({
    name,
    names: [name],
    lat: 0,
    lon: 0,
    display_name: name,
    population,
  });
  const places = [place("Neu Triesen", 9000), place("Triesenberg", 2634), place("Triesen", 5050)];
  assert.equal(searchPlaces(places, "triesen")?.name, "Triesen");
  assert.equal(searchPlaces(places.slice(0, 2), "triesen")?.name, "Triesenberg");
  assert.equal(searchPlaces([places[0]!], "triesen")?.name, "Neu Triesen");
  assert.equal(searchPlaces(places, "  "), undefined);
  assert.equal(normalizeName(" Zürich  Stadt"), "zurich stadt");
});
