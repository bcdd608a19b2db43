import assert from "node:assert/strict";
import {
  capitalRecoveryFactor,
  captureCost,
  DEFAULT_COST_PARAMETERS,
} from "../../../lib/simulation/ccs/capture_cost.ts";

Deno.test("captureCost() gives the research notes' worked example ≈ 98 EUR/t", () => {
  assert.ok(Math.abs(capitalRecoveryFactor(7, 25) - 0.08581) < 1e-5);
  // DEA 2030: 0.72 MWh_th/t (2.6 GJ/t), 0.022 + 0.085 MWh_el/t, at capacity all 8000 h
  const c = captureCost(0.72, 0.107, 1, DEFAULT_COST_PARAMETERS);
  assert.ok(Math.abs(c.capitalEurT - 47.3) < 0.2, `capital ${c.capitalEurT}`);
  assert.ok(Math.abs(c.heatEurT - 14.4) < 0.01);
  assert.ok(Math.abs(c.electricityEurT - 6.42) < 0.01);
  assert.ok(Math.abs(c.totalEurT - 98) < 0.5, `total ${c.totalEurT}`);
  const cheaper = captureCost(0.72, 0.107, 1, { ...DEFAULT_COST_PARAMETERS, storageEurT: 10 });
  assert.ok(Math.abs(c.totalEurT - cheaper.totalEurT - 20) < 1e-9);
});
