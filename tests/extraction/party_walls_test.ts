import assert from "node:assert/strict";
import { cleanFootprint } from "../../lib/extraction/footprint_rings.ts";
import type { LocalPoint } from "../../lib/extraction/local_projection.ts";
import { findPartyWalls, type PartyFootprint } from "../../lib/extraction/party_walls.ts";

const TOL = { distance: 0.3, angle: 5 };

function fp(ring: LocalPoint[], height: number): PartyFootprint {
  return { polygons: cleanFootprint("t", [[ring]]).polygons, height };
}
const box = (x0: number, y0: number, x1: number, y1: number): LocalPoint[] => [[x0, y0], [x1, y0], [
  x1,
  y1,
], [x0, y1]];

Deno.test("findPartyWalls: two boxes sharing a wall", () => {
  // Outer rings are CCW after cleaning: edge 1 of a is its east side, edge 3 of b its west.
  const r = findPartyWalls([fp(box(0, 0, 10, 8), 6), fp(box(10.1, 0, 20, 8), 9)], TOL);
  assert.deepEqual(r.neighbours, [[1], [0]]);
  assert.ok(Math.abs(r.sharedLength[0]![0]![1]! - 8) < 1e-9);
  assert.ok(Math.abs(r.adiabaticArea[0]![0]![1]! - 48) < 1e-9); // 8 m x min(6, 9)
  assert.ok(Math.abs(r.adiabaticArea[1]![0]![3]! - 48) < 1e-9);
  assert.deepEqual(r.overlaps, [false, false]);
});

Deno.test("findPartyWalls: partial overlap, distance and angle limits", async (t) => {
  await t.step("a shorter neighbour shares only its length", () => {
    const r = findPartyWalls([fp(box(0, 0, 10, 10), 6), fp(box(10, 2, 15, 6), 3)], TOL);
    assert.ok(Math.abs(r.sharedLength[0]![0]![1]! - 4) < 1e-9);
    assert.ok(Math.abs(r.adiabaticArea[0]![0]![1]! - 12) < 1e-9); // 4 m x 3 m
  });
  await t.step("two neighbours on one wall are both counted", () => {
    const r = findPartyWalls(
      [fp(box(0, 0, 10, 10), 6), fp(box(10, 0, 15, 5), 6), fp(box(10, 5, 15, 10), 6)],
      TOL,
    );
    assert.deepEqual(r.neighbours[0], [1, 2]);
    assert.ok(Math.abs(r.sharedLength[0]![0]![1]! - 10) < 1e-9);
  });
  await t.step("a gap over the distance is no party wall", () => {
    const r = findPartyWalls([fp(box(0, 0, 10, 10), 6), fp(box(10.5, 0, 20, 10), 6)], TOL);
    assert.deepEqual(r.neighbours, [[], []]);
  });
  await t.step("an edge turned by more than the angle is no party wall", () => {
    // The neighbour's west edge leans 9.6 degrees but stays within 0.17 m of the line x = 10.
    const leaning: LocalPoint[] = [[9.83, 4], [14, 4], [14, 6], [10.17, 6]];
    const r = findPartyWalls([fp(box(0, -5, 10, 15), 6), fp(leaning, 6)], TOL);
    assert.deepEqual(r.neighbours, [[], []]);
    const wider = findPartyWalls([fp(box(0, -5, 10, 15), 6), fp(leaning, 6)], {
      ...TOL,
      angle: 15,
    });
    assert.deepEqual(wider.neighbours, [[1], [0]]);
  });
});

Deno.test("findPartyWalls: overlapping footprints are flagged, touching ones not", () => {
  const r = findPartyWalls(
    [fp(box(0, 0, 10, 10), 6), fp(box(5, 5, 15, 15), 6), fp(box(15, 0, 20, 5), 6)],
    TOL,
  );
  assert.deepEqual(r.overlaps, [true, true, false]);
  const plus = findPartyWalls([fp(box(0, 4, 20, 6), 6), fp(box(9, -5, 11, 15), 6)], TOL);
  assert.deepEqual(plus.overlaps, [true, true]);
  const twin = findPartyWalls([fp(box(0, 0, 10, 10), 6), fp(box(0, 0, 10, 10), 6)], TOL);
  assert.deepEqual(twin.overlaps, [true, true]);
});

// Its time (target: well under 1.5 s) is measured by benchmarks/extraction_parts_bench.ts.
Deno.test("findPartyWalls: a 2,000-house terrace grid", () => {
  const houses: PartyFootprint[] = [];
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 50; j++) houses.push(fp(box(i * 10, j * 30, i * 10 + 10, j * 30 + 12), 6));
  }
  const t0 = performance.now();
  const r = findPartyWalls(houses, TOL);
  const ms = performance.now() - t0;
  console.log(`findPartyWalls: ${houses.length} footprints in ${ms.toFixed(1)} ms`);
  assert.equal(r.neighbours[0]!.length, 1);
  assert.equal(r.neighbours[60]!.length, 2);
});
