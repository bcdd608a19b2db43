import assert from "node:assert/strict";
import { createGeocoder } from "../../lib/osm/geocode.ts";
import { importOsmExtract } from "../../lib/osm/import_region.ts";
import { countryOfRegion, placesFromStore, storePlaces } from "../../lib/osm/store_places.ts";
import { openStore } from "../../lib/store/store.ts";

const PBF = new URL(
  "../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
  import.meta.url,
).pathname;

Deno.test("countryOfRegion() is the second path component, or the only one", () => {
  assert.equal(countryOfRegion("Europe/Germany/Bayern"), "Germany");
  assert.equal(countryOfRegion("Europe/Liechtenstein"), "Liechtenstein");
  assert.equal(countryOfRegion("Russia"), "Russia");
});

Deno.test("placesFromStore(): nothing before an import, place nodes and areas after", async () => {
  const store = await openStore(":memory:");
  try {
    assert.deepEqual(await placesFromStore(store), []);
    const cached = storePlaces(store);
    assert.equal((await cached.places()).length, 0);
    await importOsmExtract(store, PBF, { regionPath: "Europe/Liechtenstein" });
    // Kept until invalidated, as the backend does when an import completes.
    assert.equal((await cached.places()).length, 0);
    cached.invalidate();
    const places = await cached.places();
    const communes = places.filter((p) => p.kind === "municipality");
    assert.equal(communes.length, 11);
    assert.equal(places.filter((p) => p.kind === "district").length, 2);
    const triesen = communes.find((p) => p.name === "Triesen");
    assert.ok(triesen, "the commune Triesen");
    assert.equal(triesen.display_name, "Triesen, Liechtenstein");
    assert.ok(triesen.bbox && triesen.bbox[0] < triesen.lon && triesen.lon < triesen.bbox[2]);
    const nodes = places.filter((p) => p.kind !== "municipality" && p.kind !== "district");
    assert.ok(nodes.length > 50, `${nodes.length} place nodes`);
    assert.ok(nodes.every((p) => p.lat > 47 && p.lat < 47.3 && p.lon > 9.4 && p.lon < 9.7));

    // A hamlet that only the import knows answers when Nominatim is unreachable.
    const hamlet = nodes.find((p) => p.kind === "hamlet")!;
    const geocoder = createGeocoder({
      nominatimUrl: "http://127.0.0.1:9",
      userAgent: "test",
      gazetteer: [],
      extraPlaces: () => cached.places(),
      timeoutMs: 500,
    });
    const answer = await geocoder.geocode(hamlet.name);
    assert.equal(answer.found, true);
    assert.equal(answer.source, "gazetteer");
    if (answer.found) assert.match(answer.result.display_name, /Liechtenstein$/);
  } finally {
    await store.close();
  }
});
