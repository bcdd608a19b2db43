import assert from "node:assert/strict";
import type { LocalPoint } from "../../lib/extraction/local_projection.ts";
import {
  minimumAreaRectangle,
  parseDirection,
  roofPitch,
  roofPlanes,
} from "../../lib/extraction/roof_planes.ts";

const near = (a: number, b: number, eps = 1e-6) => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);
const COS = (deg: number) => Math.cos((deg * Math.PI) / 180);
// A 20 m (east-west) x 10 m box.
const BOX: LocalPoint[] = [[0, 0], [20, 0], [20, 10], [0, 10]];

Deno.test("minimumAreaRectangle: a rotated box", () => {
  const a = Math.PI / 6;
  const rot = BOX.map(([x, y]) =>
    [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)] as const
  );
  const r = minimumAreaRectangle(rot);
  near(r.length, 20);
  near(r.width, 10);
  near(Math.abs(r.axis[0]), Math.cos(a));
});

Deno.test("roofPlanes: flat by default", () => {
  const roof = roofPlanes(200, BOX, {}, "flat");
  assert.deepEqual(roof, { shape: "flat", planes: [{ area: 200, azimuth: null, tilt: 90 }] });
});

Deno.test("roofPlanes: gabled is footprint / cos(pitch), facing across the long axis", () => {
  const roof = roofPlanes(200, BOX, { "roof:shape": "gabled" }, "flat");
  assert.equal(roof.planes.length, 2);
  near(roof.planes.reduce((s, p) => s + p.area, 0), 200 / COS(35));
  assert.deepEqual(roof.planes.map((p) => Math.round(p.azimuth!)).sort((a, b) => a - b), [0, 180]);
  assert.ok(roof.planes.every((p) => Math.abs(p.tilt - 55) < 1e-9));
  const across = roofPlanes(
    200,
    BOX,
    { "roof:shape": "gabled", "roof:orientation": "across" },
    "flat",
  );
  assert.deepEqual(across.planes.map((p) => Math.round(p.azimuth!)).sort((a, b) => a - b), [
    90,
    270,
  ]);
});

Deno.test("roofPlanes: hipped ends take 2 W^2/4 of L x W", () => {
  const roof = roofPlanes(200, BOX, { "roof:shape": "hipped", "roof:angle": "30" }, "flat");
  const byAz = new Map(roof.planes.map((p) => [Math.round(p.azimuth!), p.area * COS(30)]));
  near(byAz.get(90)!, 25); // 10^2 / 4
  near(byAz.get(270)!, 25);
  near(byAz.get(0)!, 75); // (200 - 50) / 2
  near(byAz.get(180)!, 75);
  const pyramid = roofPlanes(100, [[0, 0], [10, 0], [10, 10], [0, 10]], {
    "roof:shape": "pyramidal",
  }, "flat");
  assert.ok(pyramid.planes.every((p) => Math.abs(p.area * COS(30) - 25) < 1e-9));
});

Deno.test("roofPlanes: skillion faces roof:direction or south", () => {
  const tagged = roofPlanes(200, BOX, { "roof:shape": "skillion", "roof:direction": "E" }, "flat");
  assert.equal(tagged.planes.length, 1);
  near(tagged.planes[0]!.azimuth!, 90);
  near(tagged.planes[0]!.area, 200 / COS(15));
  const south = roofPlanes(200, BOX, { "roof:shape": "skillion" }, "flat");
  near(south.planes[0]!.azimuth!, 180);
});

Deno.test("roofPitch: roof:angle, else roof:height over the run, else default", () => {
  assert.equal(roofPitch("gabled", { "roof:angle": "42" }, 5), 42);
  near(roofPitch("gabled", { "roof:height": "5" }, 5), 45);
  assert.equal(roofPitch("hipped", {}, 5), 30);
  assert.equal(roofPitch("mansard", {}, 5), 40);
  assert.equal(roofPitch("gabled", { "roof:angle": "90" }, 5), 35);
});

Deno.test("parseDirection: degrees or compass points", () => {
  assert.equal(parseDirection("SE"), 135);
  assert.equal(parseDirection("nnw"), 337.5);
  assert.equal(parseDirection("400"), 40);
  assert.equal(parseDirection("up"), null);
});
