import assert from "node:assert/strict";
import {
  capturedCo2Tph,
  cyclicCapacityKgM3,
  MEA_30WT,
  requiredLiquidToGasRatio,
  solventFlowFromLiquidToGas,
} from "../../../lib/simulation/ccs/absorber.ts";
import { co2MassFraction } from "../../../lib/simulation/ccs/co2_properties.ts";

Deno.test("C4: capture against L/G at 12 vol% CO2, Δα 0.25", async (t) => {
  await t.step("30 wt% MEA carries 54.6 kg CO2 per m³", () => {
    assert.ok(Math.abs(cyclicCapacityKgM3(MEA_30WT) - 54.57) < 0.05);
  });
  const lg = requiredLiquidToGasRatio(0.9, 12, MEA_30WT);
  await t.step("90 % needs L/G ≈ 2.8 kg/kg", () => {
    assert.ok(Math.abs(lg - 2.8) < 0.15, `L/G ${lg}`);
  });
  const co2In = 100; // t/h
  const gas = co2In / co2MassFraction(12);
  const solvent = solventFlowFromLiquidToGas(lg, gas, MEA_30WT);
  await t.step("at that L/G the column reaches its design 90 %", () => {
    assert.ok(Math.abs(capturedCo2Tph(co2In, 0.9, solvent, MEA_30WT) - 90) < 1e-9);
  });
  await t.step("halving the solvent gives about half (45 %)", () => {
    const half = capturedCo2Tph(co2In, 0.9, solvent / 2, MEA_30WT);
    assert.ok(half >= 40 && half <= 50, `${half} %`);
  });
  await t.step("capture never exceeds the design rate", () => {
    for (const factor of [1, 2, 5, 100]) {
      assert.ok(capturedCo2Tph(co2In, 0.9, solvent * factor, MEA_30WT) <= 90 + 1e-9);
    }
    assert.equal(capturedCo2Tph(0, 0.9, solvent, MEA_30WT), 0);
  });
});
