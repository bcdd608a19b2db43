import assert from "node:assert/strict";
import {
  capacityFactor,
  levelisedCost,
  techOf,
  totalLevelisedCost,
} from "../../lib/results/levelised.ts";
import { link, locTech, model } from "../lp/_model.ts";

const ccgt1 = locTech({ location: "r1", tech: "ccgt", type: "supply" });
const ccgt2 = locTech({ location: "r2", tech: "ccgt", type: "supply" });
const [tx12] = link("r1", "r2", "tx");
const m = model([ccgt1, ccgt2, tx12!], { steps: 4, weights: [1, 1, 2, 2] });
const production = new Map([
  ["r1::ccgt::power", { lt: ccgt1, carrier: "power", sum: 30 }],
  ["r2::ccgt::power", { lt: ccgt2, carrier: "power", sum: 10 }],
  ["r1::tx:r2::power", { lt: tx12!, carrier: "power", sum: 5 }],
]);
const costs = { monetary: { "r1::ccgt": 60, "r2::ccgt": 40, "r1::tx:r2": 8 } };

Deno.test("levelisedCost() systemwide Σcost/Σw·prod and per location", () => {
  const lc = levelisedCost(costs, production).monetary!;
  assert.equal(lc["ccgt::power"], 100 / 40);
  assert.equal(lc["r1::ccgt::power"], 2);
  assert.equal(lc["r2::ccgt::power"], 4);
  assert.equal(lc["tx:r2::power"], 8 / 5);
});

Deno.test("totalLevelisedCost() all costs over supply/conversion production only", () => {
  assert.deepEqual(totalLevelisedCost(costs, production), { monetary: { power: 108 / 40 } });
});

Deno.test("capacityFactor() Σw·prod / (Σcap · ΣΔτ·w), zero capacity gives 0", () => {
  // Σ Δτ·w = 1 + 1 + 2 + 2 = 6
  const cf = capacityFactor(m, { "r1::ccgt": 10, "r2::ccgt": 0, "r1::tx:r2": 1 }, production);
  assert.equal(cf["ccgt::power"], 40 / (10 * 6));
  assert.equal(cf["r1::ccgt::power"], 30 / 60);
  assert.equal(cf["r2::ccgt::power"], 0);
  assert.equal(cf["tx:r2::power"], 5 / 6);
});

Deno.test("techOf() keeps :remote of a link end", () => {
  assert.equal(techOf("region1::ac_transmission:region2"), "ac_transmission:region2");
});
