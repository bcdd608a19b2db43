import assert from "node:assert/strict";
import type { ExtractedSurface } from "../../lib/extraction/building_record.ts";
import { wallWindows } from "../../lib/extraction/windows.ts";

const walls: ExtractedSurface[] = [
  { id: "way/1/wall/0", type: "wall", area: 50, azimuth: 180, tilt: 0 },
  { id: "way/1/wall/1", type: "wall", area: 30, azimuth: 90, tilt: 0, adiabatic: true },
];

Deno.test("wallWindows: children of exposed walls only", () => {
  assert.deepEqual(wallWindows(walls, 0.2), [
    {
      id: "way/1/wall/0/window",
      type: "window",
      area: 10,
      azimuth: 180,
      tilt: 0,
      parent: "way/1/wall/0",
    },
  ]);
  assert.deepEqual(wallWindows(walls, 0), []);
  assert.throws(() => wallWindows(walls, 1.2), RangeError);
});
