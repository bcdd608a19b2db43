import assert from "node:assert/strict";
import { boundingBoxCentre, createLocalProjection } from "../../lib/extraction/local_projection.ts";

Deno.test("createLocalProjection: metres east and north, and back", () => {
  const p = createLocalProjection([9.53, 47.1]);
  const [x, y] = p.toLocal([9.531, 47.101]);
  // 0.001 degree of longitude at 47.1 N is 111319.49 m x cos(47.1 deg) / 1000.
  assert.ok(Math.abs(x - 111.31949 * Math.cos((47.1 * Math.PI) / 180)) < 1e-6);
  assert.ok(Math.abs(y - 111.31949) < 1e-4);
  const [lon, lat] = p.toLonLat([x, y]);
  assert.ok(Math.abs(lon - 9.531) < 1e-12 && Math.abs(lat - 47.101) < 1e-12);
  assert.throws(() => createLocalProjection([0, 90]), RangeError);
});

Deno.test("boundingBoxCentre: centre of every position, null for none", () => {
  assert.deepEqual(boundingBoxCentre([[[[0, 0], [2, 4]]], [[[4, 2]]]]), [2, 2]);
  assert.equal(boundingBoxCentre([]), null);
});
