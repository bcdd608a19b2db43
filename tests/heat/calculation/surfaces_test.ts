import assert from "node:assert/strict";
import { collapseSurfaces, windowOrientation } from "../../../lib/heat/calculation/surfaces.ts";

Deno.test("windowOrientation() rounds the azimuth to the nearest of N/E/S/W", async (t) => {
  const cases: [number | undefined, number | undefined, string][] = [
    [undefined, undefined, "South"],
    [0, 90, "North"],
    [44, 90, "North"],
    [46, 90, "East"],
    [90, undefined, "East"],
    [180, 90, "South"],
    [224, 60, "South"],
    [226, 60, "West"],
    [316, 90, "North"],
    [360, 90, "North"],
    [-90, 90, "West"],
  ];
  for (const [azimuth, tilt, expected] of cases) {
    await t.step(`azimuth ${azimuth}, tilt ${tilt} -> ${expected}`, () => {
      assert.equal(windowOrientation(azimuth, tilt), expected);
    });
  }
});

Deno.test("windowOrientation() counts tilts within 5 degrees of 0 as Horizontal", () => {
  assert.equal(windowOrientation(90, 0), "Horizontal");
  assert.equal(windowOrientation(90, 5), "Horizontal");
  assert.equal(windowOrientation(90, -4), "Horizontal");
  assert.equal(windowOrientation(90, 5.1), "East");
});

Deno.test("collapseSurfaces() sums areas and area-weights U per type", () => {
  const collapsed = collapseSurfaces([
    { id: "w1", type: "wall", area: 100, u_value: 0.2 },
    { id: "w2", type: "wall", area: 50, u_value: 0.5 },
    { id: "win1", type: "window", area: 10, u_value: 1.1, azimuth: 90, tilt: 90 },
    { id: "win2", type: "window", area: 6, u_value: 1.3 },
    { id: "sky", type: "window", area: 2, u_value: 1.5, tilt: 0 },
  ]);
  assert.equal(collapsed.categories.wall?.area, 150);
  assert.ok(Math.abs(collapsed.categories.wall!.u_value - 0.3) < 1e-12);
  assert.equal(collapsed.categories.wall?.count, 2);
  assert.equal(collapsed.categories.window?.area, 18);
  assert.ok(Math.abs(collapsed.categories.window!.u_value - (11 + 7.8 + 3) / 18) < 1e-12);
  assert.equal(collapsed.categories.roof, undefined);
  assert.deepEqual(collapsed.windowOrientation, {
    Horizontal: 2,
    East: 10,
    South: 6,
    West: 0,
    North: 0,
  });
});

Deno.test("collapseSurfaces() leaves window orientations undefined without windows", () => {
  const collapsed = collapseSurfaces([{ id: "r", type: "roof", area: 80, u_value: 0.15 }]);
  assert.equal(collapsed.windowOrientation, undefined);
  assert.deepEqual(Object.keys(collapsed.categories), ["roof"]);
});
