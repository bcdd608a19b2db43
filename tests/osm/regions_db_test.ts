import assert from "node:assert/strict";
import {
  buildRegionsDb,
  isValidPathComponent,
  loadRegionsDb,
  parseRegionPath,
} from "../../lib/osm/regions_db.ts";

const INDEX = new URL("../../data/geo/regions/geofabrik-index-v1-nogeom.json", import.meta.url);

Deno.test("loadRegionsDb() lists every index region with path, URL and parent", async (t) => {
  const db = await loadRegionsDb(INDEX, "http://127.0.0.1:9/mirror/");
  await t.step("all 474 regions, paths unique and valid", () => {
    assert.equal(db.regions.length, 474);
    assert.equal(new Set(db.regions.map((r) => r.path.toLowerCase())).size, 474);
    for (const r of db.regions) {
      assert.ok(r.path.split("/").every(isValidPathComponent), r.path);
    }
  });
  await t.step("Europe/Liechtenstein under Europe, its URL under the configured base", () => {
    const li = db.regions.find((r) => r.path === "Europe/Liechtenstein");
    assert.deepEqual(li, {
      name: "Liechtenstein",
      path: "Europe/Liechtenstein",
      url: "http://127.0.0.1:9/mirror/europe/liechtenstein-latest.osm.pbf",
      parent: "Europe",
    });
  });
  await t.step("Europe/Germany/Bayern under Europe/Germany; continents have no parent", () => {
    assert.equal(db.findRegion("Europe/Germany/Bayern")?.parent, "Europe/Germany");
    assert.equal(db.findRegion("Europe")?.parent, null);
    assert.equal(
      db.findRegion("Europe/Germany/Bayern/Oberbayern")?.parent,
      "Europe/Germany/Bayern",
    );
  });
  await t.step("names cleaned into valid components; US states under the United States", () => {
    assert.equal(db.findRegion("Europe/Germany/Brandenburg")?.name, "Brandenburg (mit Berlin)");
    assert.equal(db.findRegion("Europe/Germany/Baden-Württemberg")?.name, "Baden-Württemberg");
    // Dropping the remark would make the two Congos equal, so it is kept.
    assert.ok(db.findRegion("Africa/Congo Republic Brazzaville"));
    assert.ok(db.findRegion("Africa/Congo Democratic Republic Kinshasa"));
    const ca = db.findRegion("North America/United States of America/California");
    assert.equal(ca?.name, "California");
    assert.equal(ca?.url, "http://127.0.0.1:9/mirror/north-america/us/california-latest.osm.pbf");
    assert.ok(db.findRegion("Europe/Poland/Województwo dolnośląskie"));
  });
  await t.step("findRegion() ignores case and surrounding spaces; unknown is undefined", () => {
    assert.equal(db.findRegion("europe/LIECHTENSTEIN")?.path, "Europe/Liechtenstein");
    assert.equal(db.findRegion(" Europe / Germany / bayern ")?.path, "Europe/Germany/Bayern");
    assert.equal(db.findRegion("Europe/Atlantis"), undefined);
  });
  await t.step("the default base is Geofabrik's", async () => {
    const plain = await loadRegionsDb(INDEX);
    assert.equal(
      plain.findRegion("Europe/Liechtenstein")?.url,
      "https://download.geofabrik.de/europe/liechtenstein-latest.osm.pbf",
    );
  });
});

Deno.test("isValidPathComponent() allows letters, digits, hyphen, underscore, space, 1-80", async (t) => {
  const cases: [string, boolean][] = [
    ["Liechtenstein", true],
    ["Baden-Württemberg", true],
    ["Nord_1 x", true],
    ["a".repeat(80), true],
    ["a".repeat(81), false],
    ["", false],
    ["   ", false],
    ["..", false],
    ["a/b", false],
    ["x;drop", false],
    ["<script>", false],
    ["a\nb", false],
    ["%2e%2e", false],
  ];
  for (const [component, ok] of cases) {
    await t.step(JSON.stringify(component), () => {
      assert.equal(isValidPathComponent(component), ok);
    });
  }
});

Deno.test("parseRegionPath() and findRegion() refuse a bad component, naming it", () => {
  assert.throws(() => parseRegionPath("Europe/../etc"), /component 2 "\.\."/);
  assert.throws(() => parseRegionPath("Europe//Germany"), RangeError);
  const db = buildRegionsDb({ features: [] });
  assert.throws(() => db.findRegion("Europe/Ger$many"), RangeError);
});

Deno.test("buildRegionsDb() refuses another shape", () => {
  assert.throws(() => buildRegionsDb({}), TypeError);
  assert.throws(() => buildRegionsDb({ features: [{ properties: { id: "x" } }] }), /features\[0\]/);
});
