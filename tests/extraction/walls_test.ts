import assert from "node:assert/strict";
import { buildingWalls, edgeAzimuth, wallRuns } from "../../lib/extraction/walls.ts";
import type { LocalPoint } from "../../lib/extraction/local_projection.ts";

Deno.test("edgeAzimuth: right-hand normal, clockwise from north", () => {
  assert.equal(edgeAzimuth([0, 0], [10, 0]), 180); // runs east on a CCW ring: faces south
  assert.equal(edgeAzimuth([10, 0], [10, 10]), 90);
  assert.equal(edgeAzimuth([10, 10], [0, 10]), 0);
  assert.equal(edgeAzimuth([0, 10], [0, 0]), 270);
  assert.equal(edgeAzimuth([0, 0], [1, -1]), 225);
});

Deno.test("wallRuns: near-collinear edges merged, corners kept", () => {
  // A 20 x 10 box whose south side has a vertex bent by 1 degree and one exactly on the line.
  const ring: LocalPoint[] = [[0, 0], [10, -0.17], [15, 0], [20, 0], [20, 10], [0, 10]];
  const runs = wallRuns(ring);
  assert.equal(runs.length, 4);
  assert.deepEqual(runs.map((r) => Math.round(r.azimuth)).sort((a, b) => a - b), [0, 90, 180, 270]);
  const south = runs.find((r) => Math.round(r.azimuth) === 180)!;
  assert.equal(south.edges.length, 3);
  assert.equal(south.length, 20);
});

Deno.test("buildingWalls: a courtyard's inner walls face into the courtyard", () => {
  const outer: LocalPoint[] = [[0, 0], [30, 0], [30, 30], [0, 30]];
  const hole: LocalPoint[] = [[10, 10], [10, 20], [20, 20], [20, 10]]; // clockwise
  const walls = buildingWalls("way/1", [outer, hole], 6);
  assert.equal(walls.length, 8);
  const inner = walls.slice(4);
  // The hole's west side (x = 10) faces east, into the courtyard, and so on.
  assert.deepEqual(inner.map((w) => [w.azimuth, w.area]), [[90, 60], [180, 60], [270, 60], [
    0,
    60,
  ]]);
  assert.deepEqual(walls.map((w) => w.id).slice(0, 2), ["way/1/wall/0", "way/1/wall/1"]);
});

Deno.test("buildingWalls: a partly shared wall splits into exposed and adiabatic", () => {
  const ring: LocalPoint[] = [[0, 0], [10, 0], [10, 10], [0, 10]];
  const walls = buildingWalls("way/2", [ring], 6, [[0, 24, 0, 0]]);
  const east = walls.filter((w) => w.azimuth === 90);
  assert.deepEqual(east.map((w) => [w.area, w.adiabatic ?? false]), [[36, false], [24, true]]);
  assert.ok(walls.every((w) => w.tilt === 0 && w.type === "wall"));
});
