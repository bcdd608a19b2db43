import assert from "node:assert/strict";
import { linkDistance, vincentyMetres } from "../../../lib/model/preprocess/link_distance.ts";

Deno.test("vincentyMetres() gives Calliope's London-Paris distance in whole metres", () => {
  // calliope/test/test_core_preprocess.py test_vincenty
  const london = { lat: 51.507222, lon: -0.1275 };
  const paris = { lat: 48.8567, lon: 2.3508 };
  assert.equal(vincentyMetres(london, paris), 343834);
  assert.equal(vincentyMetres(paris, london), 343834);
  assert.equal(vincentyMetres(london, london), 0);
});

Deno.test("vincentyMetres() handles the equator and does not hang on antipodes", () => {
  assert.equal(vincentyMetres({ lat: 0, lon: 0 }, { lat: 0, lon: 1 }), 111319);
  const antipode = vincentyMetres({ lat: 0, lon: 0 }, { lat: 0.5, lon: 179.7 });
  assert.ok(Number.isNaN(antipode) || antipode > 19_000_000);
});

Deno.test("linkDistance() uses lat/lon, else x/y, else nothing", () => {
  assert.equal(linkDistance({ x: 0, y: 0 }, { x: 3, y: 4 }), 5);
  assert.equal(linkDistance({ x: 0, y: 0 }, { lat: 1, lon: 1 }), undefined);
  assert.equal(linkDistance({}, {}), undefined);
  assert.equal(linkDistance({ lat: 0, lon: 0 }, { lat: 0, lon: 1 }), 111319);
});
