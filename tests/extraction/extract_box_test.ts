import assert from "node:assert/strict";
import { DEFAULT_EXTRACTION_OPTIONS } from "../../lib/extraction/building_record.ts";
import {
  countFootprints,
  extractFootprints,
  parseFootprintPage,
  readFootprintPage,
  readFootprints,
} from "../../lib/extraction/extract_box.ts";
import { type HeatLinkDeps, heatLinkDeps } from "../../lib/extraction/tabula_link.ts";
import { openStore } from "../../lib/store/store.ts";
import { testTypology } from "../heat/_typology.ts";
import { box, footprint, PLANE } from "./_footprints.ts";

const typology = await testTypology();
const [xmin, ymin] = PLANE.toLonLat([-100, -100]);
const [xmax, ymax] = PLANE.toLonLat([100, 100]);
const BBOX = [xmin, ymin, xmax, ymax] as const;
const request = { country: "LI", bbox: BBOX, options: DEFAULT_EXTRACTION_OPTIONS };
/** Two terraced houses sharing a wall, and one outside the box (in its margin). */
const FOOTPRINTS = [
  footprint("way/1", { "building:levels": "2" }, box(0, 0, 10, 8)),
  footprint("way/2", { "building:levels": "2" }, box(10, 0, 20, 8)),
  footprint("way/3", {}, box(150, 0, 160, 8)),
];

// Issue 18: a country without a typology and no heat_country failed the whole run.
Deno.test("extractFootprints(): without a typology every building keeps its surfaces, with tabula null and the reason (issue 18)", () => {
  const heat = heatLinkDeps(typology, "LI", undefined, ["AT", "DE"]);
  assert.ok("error" in heat);
  const result = extractFootprints(FOOTPRINTS, heat, request);
  assert.deepEqual(result.buildings.map((b) => b.id), ["way/1", "way/2"]);
  assert.equal(result.footprints, 3);
  for (const b of result.buildings) {
    assert.equal(b.tabula, null);
    assert.equal(
      b.tabula_absent_reason,
      "LI has no TABULA typology: name one with heat_country, e.g. AT (a neighbour's); " +
        "typologies: AT, DE",
    );
    assert.ok(b.surfaces.some((s) => s.type === "wall" && s.adiabatic === true));
    assert.ok(b.surfaces.some((s) => s.type === "window"));
  }
  // Said once, first, not once a building.
  assert.equal(result.problems[0], `no heat link: ${heat.error}`);
  assert.equal(result.problems.filter((p) => p.includes("no heat link")).length, 1);
});

Deno.test("extractFootprints(): with a typology each building is linked and has no reason member", () => {
  const heat = heatLinkDeps(typology, "LI", "AT") as HeatLinkDeps;
  const progress: number[] = [];
  const result = extractFootprints(FOOTPRINTS, heat, request, (f) => progress.push(f));
  assert.deepEqual(progress, [0.7, 1]);
  for (const b of result.buildings) {
    assert.match(b.tabula?.variant ?? "", /^AT\./);
    assert.ok(!("tabula_absent_reason" in b));
  }
});

Deno.test("readFootprintPage() pages the footprints of a box as JSON text, in id order", async () => {
  const store = await openStore(":memory:");
  try {
    assert.equal(await countFootprints(store, BBOX), 0, "nothing imported: no table");
    assert.equal(await readFootprintPage(store, BBOX, 0, { limit: 2 }), undefined);
    await store.run(`CREATE TABLE buildings (osm_id VARCHAR, tags VARCHAR, geometry VARCHAR,
      min_lon DOUBLE, min_lat DOUBLE, max_lon DOUBLE, max_lat DOUBLE)`);
    for (const f of FOOTPRINTS) {
      const ring = f.polygons[0]![0]!;
      const lons = ring.map((p) => p[0]), lats = ring.map((p) => p[1]);
      await store.run(`INSERT INTO buildings VALUES (?, ?, ?, ?, ?, ?, ?)`, [
        f.id,
        JSON.stringify({ ...f.tags, name: 'Haus "Ä"\n2' }),
        JSON.stringify({ type: "MultiPolygon", coordinates: f.polygons }),
        Math.min(...lons),
        Math.min(...lats),
        Math.max(...lons),
        Math.max(...lats),
      ]);
    }
    assert.equal(await countFootprints(store, BBOX), 2);
    assert.equal(await countFootprints(store, BBOX, 0.01), 3);
    const first = await readFootprintPage(store, BBOX, 0.01, { limit: 2 });
    assert.deepEqual([first?.count, first?.last], [2, "way/2"]);
    const second = await readFootprintPage(store, BBOX, 0.01, { limit: 2, after: first!.last });
    assert.deepEqual([second?.count, second?.last], [1, "way/3"]);
    assert.equal(
      await readFootprintPage(store, BBOX, 0.01, { limit: 2, after: "way/3" }),
      undefined,
    );
    const paged = [...parseFootprintPage(first!.text), ...parseFootprintPage(second!.text)];
    assert.deepEqual(paged, await readFootprints(store, BBOX, 0.01));
    assert.equal(paged[0]?.tags["name"], 'Haus "Ä"\n2');
    assert.deepEqual(paged[0]?.polygons, FOOTPRINTS[0]?.polygons);
  } finally {
    await store.close();
  }
});
