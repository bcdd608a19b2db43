import assert from "node:assert/strict";
import { parseCount, parseOutputMw, parseVoltageKv } from "../../lib/osm/osm_tag_values.ts";

Deno.test("parseVoltageKv reads volts per circuit and kV units", () => {
  assert.deepEqual(parseVoltageKv("110000;16000"), [110, 16]);
  assert.deepEqual(parseVoltageKv("20 kV"), [20]);
  assert.deepEqual(parseVoltageKv("unknown"), []);
  assert.deepEqual(parseVoltageKv(undefined), []);
});

Deno.test("parseOutputMw converts W, kW, MW, GW (and peak) to MW", () => {
  assert.equal(parseOutputMw("5 MW"), 5);
  assert.equal(parseOutputMw("30 kWp"), 0.03);
  assert.equal(parseOutputMw("1,5 GW"), 1500);
  assert.equal(parseOutputMw("yes"), undefined);
  assert.equal(parseOutputMw("12"), undefined);
});

Deno.test("parseCount sums the counts of each voltage", () => {
  assert.equal(parseCount("3;3"), 6);
  assert.equal(parseCount("1"), 1);
  assert.equal(parseCount("many"), undefined);
});
