import assert from "node:assert/strict";
import { assembleArea, type RingWay } from "../../lib/osm/ring_assembly.ts";
import { type Position, signedPlanarArea } from "../../lib/osm/geo_measure.ts";

const P: Record<number, Position> = {
  1: [0, 0],
  2: [10, 0],
  3: [10, 10],
  4: [0, 10],
  5: [4, 4],
  6: [6, 4],
  7: [6, 6],
  8: [4, 6],
};

function way(id: number, role: string, refs: number[]): RingWay {
  return { id, role, refs, coords: refs.map((r) => P[r] as Position) };
}

Deno.test("assembleArea joins two ways, one reversed, into a counterclockwise ring", () => {
  // 1-2-3 and 1-4-3 (the second runs against the first): a square drawn clockwise overall.
  const area = assembleArea([way(10, "outer", [1, 4, 3]), way(11, "outer", [1, 2, 3])]);
  assert.deepEqual(area.problems, []);
  assert.equal(area.polygons.length, 1);
  const ring = area.polygons[0]?.[0] as Position[];
  assert.equal(ring.length, 5);
  assert.deepEqual(ring[0], ring.at(-1));
  assert.ok(signedPlanarArea(ring) > 0, "exterior is counterclockwise (RFC 7946)");
  assert.equal(signedPlanarArea(ring), 100);
});

Deno.test("assembleArea puts an inner ring as a clockwise hole of its outer ring", () => {
  const area = assembleArea([
    way(10, "outer", [1, 2, 3, 4, 1]),
    way(20, "inner", [5, 6, 7]),
    way(21, "inner", [7, 8, 5]),
  ]);
  assert.deepEqual(area.problems, []);
  assert.equal(area.polygons.length, 1);
  const [outer, hole] = area.polygons[0] as Position[][];
  assert.ok(signedPlanarArea(outer as Position[]) > 0);
  assert.ok(signedPlanarArea(hole as Position[]) < 0, "hole is clockwise");
  assert.equal(Math.abs(signedPlanarArea(hole as Position[])), 4);
});

Deno.test("assembleArea reports a ring that cannot be closed, naming its ways", () => {
  const area = assembleArea([way(10, "outer", [1, 2, 3]), way(11, "outer", [3, 4])]);
  assert.equal(area.polygons.length, 0);
  assert.equal(area.problems.length, 1);
  assert.match(area.problems[0] as string, /way\/10/);
  assert.match(area.problems[0] as string, /way\/11/);
  assert.match(area.problems[0] as string, /does not close/);
});

Deno.test("assembleArea reports an inner ring outside every outer ring", () => {
  const area = assembleArea([
    way(10, "outer", [5, 6, 7, 8, 5]),
    way(20, "inner", [1, 2, 3, 4, 1]),
  ]);
  assert.equal(area.polygons.length, 1);
  assert.match(area.problems[0] as string, /inside no outer ring/);
});
