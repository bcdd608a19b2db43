import assert from "node:assert/strict";
import {
  createGeocoder,
  type GeocodeAnswer,
  GEOCODER_MAX_WAIT_MS,
  type GeocoderOptions,
  nominatimBBox,
  parseNominatim,
} from "../../lib/osm/geocode.ts";
import {
  exactPlace,
  loadShippedGazetteer,
  normalizeName,
  searchPlaces,
} from "../../lib/osm/gazetteer.ts";
import {
  closedPortUrl,
  type FakeNominatim,
  startFakeNominatim,
  VADUZ_JSONV2,
} from "./_fake_nominatim.ts";

const gazetteer = await loadShippedGazetteer();
const UA = "energy-workspace-test/1.0 (+https://example.invalid)";

/** A geocoder asking `nominatimUrl` as UA, with the shipped gazetteer; `extra` adds options. */
function geocoderAt(
  nominatimUrl: string,
  extra: Omit<GeocoderOptions, "nominatimUrl" | "userAgent" | "gazetteer"> = {},
) {
  return createGeocoder({ nominatimUrl, userAgent: UA, gazetteer, ...extra });
}

/** Runs `body` with a fake Nominatim started, and stops the fake whatever `body` does. */
async function withFakeNominatim(body: (fake: FakeNominatim) => Promise<void>): Promise<void> {
  const fake = startFakeNominatim();
  try {
    await body(fake);
  } finally {
    await fake.close();
  }
}

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

Deno.test("createGeocoder() asks Nominatim with a User-Agent, one request a second", () =>
  withFakeNominatim(async (fake) => {
    const geocoder = geocoderAt(fake.url);
    // A connection made first, so that the arrival times below do not include its setup.
    await (await fetch(`${fake.url}/search?q=warm-up`)).body?.cancel();
    fake.seen.length = 0;
    const [a, b] = await Promise.all([
      geocoder.geocode("Vaduz, Liechtenstein"),
      geocoder.geocode("Nowhere"),
    ]);
    assert.deepEqual(a, {
      found: true,
      source: "nominatim",
      result: parseNominatim(VADUZ_JSONV2),
    });
    assert.equal(b.found, false);
    assert.equal(b.source, "nominatim");
    assert.equal(fake.seen.length, 2);
    assert.deepEqual(fake.seen.map((s) => [s.q, s.format, s.limit, s.userAgent]), [
      ["Vaduz, Liechtenstein", "jsonv2", "1", UA],
      ["Nowhere", "jsonv2", "1", UA],
    ]);
    const gap = fake.seen[1]!.at - fake.seen[0]!.at;
    assert.ok(gap >= 990, `requests ${gap.toFixed(0)} ms apart`);
  }));

Deno.test("createGeocoder() answers a repeated question from the cache", () =>
  withFakeNominatim(async (fake) => {
    const geocoder = geocoderAt(fake.url, { minIntervalMs: 0 });
    assert.equal((await geocoder.geocode("Vaduz, Liechtenstein")).source, "nominatim");
    const again = await geocoder.geocode("  vaduz,  LIECHTENSTEIN ");
    assert.equal(again.source, "cache");
    assert.equal(again.found && again.result.display_name, "Vaduz, Liechtenstein");
    assert.equal(fake.seen.length, 1);
  }));

Deno.test("createGeocoder() falls back to the gazetteer when Nominatim is down", async (t) => {
  const geocoder = geocoderAt(closedPortUrl(), { timeoutMs: 2000 });
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

Deno.test("createGeocoder() falls back on a 5xx and asks extraPlaces first", () =>
  withFakeNominatim(async (fake) => {
    const geocoder = geocoderAt(fake.url, {
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
  }));

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

Deno.test("exactPlace() finds a place by an exact name only, the most populous first", () => {
  assert.equal(exactPlace(gazetteer, "VADUZ")?.display_name, "Vaduz, Liechtenstein");
  assert.equal(exactPlace(gazetteer, "sao paulo")?.display_name, "São Paulo, Brazil");
  assert.equal(exactPlace(gazetteer, "Vadu"), undefined);
  assert.equal(exactPlace(gazetteer, "Vaduz, Liechtenstein"), undefined);
  assert.equal(exactPlace(gazetteer, " "), undefined);
});

Deno.test("createGeocoder() answers the cache and exact gazetteer names at once, behind 20 queued questions (issue 18)", () =>
  withFakeNominatim(async (fake) => {
    const geocoder = geocoderAt(fake.url, { minIntervalMs: 100, maxWaitMs: 60_000 });
    assert.equal((await geocoder.geocode("Vaduz, Liechtenstein")).source, "nominatim");
    // Twenty questions that must go upstream: at one each 100 ms, two seconds of queue.
    const queued = Array.from({ length: 20 }, (_, i) => geocoder.geocode(`street ${i}`, "a"));
    const started = performance.now();
    const [cached, local, berlin] = await Promise.all([
      geocoder.geocode("vaduz, liechtenstein", "b"),
      geocoder.geocode("Triesenberg", "b"),
      geocoder.geocode("berlin", "c"),
    ]);
    const took = performance.now() - started;
    // Before the fix, Triesenberg and Berlin waited behind the twenty (and asked Nominatim).
    assert.ok(took < 150, `${took.toFixed(0)} ms`);
    assert.equal(cached.source, "cache");
    assert.equal(local.found && local.source, "gazetteer");
    assert.equal(berlin.found && berlin.result.display_name, "Berlin, Germany");
    await Promise.all(queued);
    assert.deepEqual(
      fake.seen.map((s) => s.q).filter((q) => !q?.startsWith("street")),
      ["Vaduz, Liechtenstein"],
    );
  }));

Deno.test("createGeocoder() takes clients in turn: one client's ten questions do not hold up another's one (issue 18)", () =>
  withFakeNominatim(async (fake) => {
    const geocoder = geocoderAt(fake.url, { minIntervalMs: 100, maxWaitMs: 10_000 });
    const many = Array.from(
      { length: 10 },
      (_, i) => geocoder.geocode(`a street ${i}`, "10.0.0.1"),
    );
    const one = geocoder.geocode("b street", "10.0.0.2");
    const started = performance.now();
    await one;
    const waited = performance.now() - started;
    await Promise.all(many);
    const order = fake.seen.map((s) => s.q);
    // Before the fix (one queue in arrival order) "b street" came eleventh.
    assert.deepEqual(order.slice(0, 3), ["a street 0", "b street", "a street 1"]);
    assert.ok(waited < 500, `${waited.toFixed(0)} ms`);
    // The upstream rule holds across clients: eleven starts at least 100 ms apart (measured at
    // the fake, whose first arrival includes the connection's setup).
    const span = fake.seen.at(-1)!.at - fake.seen[0]!.at;
    assert.equal(fake.seen.length, 11);
    assert.ok(span >= 950, `${span.toFixed(0)} ms`);
  }));

Deno.test("createGeocoder() refuses a question whose turn would come too late, saying when to retry (issue 18)", async (t) => {
  assert.equal(GEOCODER_MAX_WAIT_MS, 10_000);
  await withFakeNominatim(async (fake) => {
    await t.step("at once, when the queue ahead is longer than the bound", async () => {
      const geocoder = geocoderAt(fake.url, { minIntervalMs: 1000, maxWaitMs: 2500 });
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) => geocoder.geocode(`road ${i}`, "a")),
      );
      const busy = answers.filter((a): a is Extract<GeocodeAnswer, { busy: true }> => "busy" in a);
      // Starts at 0, 1 and 2 s are within 2.5 s; the fourth and fifth would wait 3 and 4 s.
      assert.equal(busy.length, 2);
      for (const answer of busy) {
        assert.equal(answer.retryAfterSeconds, 1);
        assert.match(answer.message, /GEOCODER_MAX_WAIT_S/);
      }
      assert.equal(fake.seen.filter((s) => s.q?.startsWith("road")).length, 3);
      assert.ok(performance.now() - started < 4000);
    });
    await t.step("when the wait passes the bound (a slow upstream)", async () => {
      fake.delayMs = 1500;
      const geocoder = geocoderAt(fake.url, { minIntervalMs: 50, maxWaitMs: 400 });
      const first = geocoder.geocode("slow 1", "a");
      const started = performance.now();
      const second = await geocoder.geocode("slow 2", "b");
      const waited = performance.now() - started;
      assert.ok("busy" in second, JSON.stringify(second));
      assert.ok(waited >= 350 && waited < 1200, `${waited.toFixed(0)} ms`);
      assert.equal((await first).source, "nominatim");
      fake.delayMs = 0;
    });
  });
});

Deno.test("createGeocoder() asks Nominatim once for the same question asked together", () =>
  withFakeNominatim(async (fake) => {
    const geocoder = geocoderAt(fake.url, { minIntervalMs: 0 });
    const [a, b] = await Promise.all([
      geocoder.geocode("Vaduz, Liechtenstein", "a"),
      geocoder.geocode("vaduz, liechtenstein", "b"),
    ]);
    assert.deepEqual(a, b);
    assert.equal(fake.seen.length, 1);
  }));
