import assert from "node:assert/strict";
import { cleanFootprint, signedArea } from "../../lib/extraction/footprint_rings.ts";
import type { LocalPoint } from "../../lib/extraction/local_projection.ts";

const square = (s: number, x = 0, y = 0): LocalPoint[] => [[x, y], [x + s, y], [x + s, y + s], [
  x,
  y + s,
]];

Deno.test("signedArea: positive counter-clockwise, open or closed ring", () => {
  assert.equal(signedArea(square(10)), 100);
  assert.equal(signedArea([...square(10)].reverse()), -100);
  assert.equal(signedArea([...square(10), [0, 0]]), 100);
});

Deno.test("cleanFootprint: ring hygiene", async (t) => {
  await t.step("closes, orients outer CCW and holes CW", () => {
    const hole = square(2, 4, 4); // CCW as given: must become CW
    const r = cleanFootprint("way/1", [[[...square(10)].reverse(), hole]]);
    assert.equal(r.polygons.length, 1);
    assert.ok(signedArea(r.polygons[0]!.outer) > 0);
    assert.ok(signedArea(r.polygons[0]!.holes[0]!) < 0);
    assert.equal(r.area, 96);
    assert.deepEqual(r.problems, []);
  });
  await t.step("drops duplicate vertices and edges under 5 cm", () => {
    const ring: LocalPoint[] = [[0, 0], [0, 0], [10, 0], [10.02, 0.01], [10, 10], [0, 10], [0, 0]];
    const r = cleanFootprint("way/2", [[ring]]);
    assert.equal(r.polygons[0]!.outer.length, 4);
    assert.ok(Math.abs(r.area - 100) < 0.2);
  });
  await t.step("removes a spike", () => {
    const ring: LocalPoint[] = [[0, 0], [10, 0], [15, 0], [10, 0], [10, 10], [0, 10]];
    const r = cleanFootprint("way/3", [[ring]]);
    assert.equal(r.area, 100);
    assert.match(r.problems.join(), /way\/3.*spike/);
  });
  await t.step("drops and reports degenerate rings", () => {
    const line = cleanFootprint("way/4", [[[[0, 0], [10, 0], [0, 0]]]]);
    assert.equal(line.polygons.length, 0);
    assert.match(line.problems.join(), /way\/4/);
    const tiny = cleanFootprint("way/5", [[square(0.5)]]);
    assert.equal(tiny.polygons.length, 0);
    assert.match(tiny.problems.join(), /way\/5.*under 1 m2/);
    const two = cleanFootprint("way/6", [[[[0, 0], [0.01, 0], [5, 5]]]]);
    assert.equal(two.polygons.length, 0);
    assert.match(two.problems.join(), /way\/6.*fewer than 3/);
  });
  await t.step("splits a figure eight into two outer rings", () => {
    const ring: LocalPoint[] = [[0, 0], [10, 0], [10, 10], [20, 10], [20, 20], [10, 20], [10, 10], [
      0,
      10,
    ]];
    const r = cleanFootprint("way/7", [[ring]]);
    assert.equal(r.polygons.length, 2);
    assert.equal(r.area, 200);
    assert.ok(r.polygons.every((p) => signedArea(p.outer) > 0));
    assert.match(r.problems.join(), /way\/7.*touches itself at \(10\.00, 10\.00\)/);
  });
  await t.step("turns an inverted hole into a hole", () => {
    // The outer ring runs in to a courtyard and around it, touching itself at (0, 5).
    const ring: LocalPoint[] = [
      [0, 0],
      [20, 0],
      [20, 20],
      [0, 20],
      [0, 5],
      [5, 5],
      [5, 15],
      [
        15,
        15,
      ],
      [15, 5],
      [0, 5],
    ];
    const r = cleanFootprint("way/8", [[ring]]);
    assert.equal(r.polygons.length, 1);
    assert.equal(r.polygons[0]!.holes.length, 1);
    assert.equal(r.area, 400 - 100);
    assert.match(r.problems.join(), /way\/8.*touches itself/);
  });
  await t.step("reports a bow tie", () => {
    const r = cleanFootprint("way/9", [[[[0, 0], [10, 10], [10, 0], [0, 10]]]]);
    assert.match(r.problems.join(), /way\/9.*crosses itself/);
  });
});
