import assert from "node:assert/strict";
import { depreciationRate, isCapitalCostKey } from "../../../lib/model/preprocess/depreciation.ts";

Deno.test("depreciationRate() annualises with interest, 1/L without", () => {
  assert.ok(Math.abs(depreciationRate(0.1, 25) - 0.1101681) < 1e-7);
  assert.equal(depreciationRate(0, 20), 0.05);
  assert.equal(depreciationRate(0.1, Infinity), 0);
  assert.equal(depreciationRate(0, Infinity), 0);
});

Deno.test("isCapitalCostKey() matches _cap, _area and purchase keys", () => {
  for (const k of ["energy_cap", "storage_cap", "resource_cap", "resource_area", "purchase"]) {
    assert.ok(isCapitalCostKey(k), k);
  }
  for (
    const k of ["om_prod", "om_con", "om_annual", "export", "interest_rate", "depreciation_rate"]
  ) {
    assert.ok(!isCapitalCostKey(k), k);
  }
});
