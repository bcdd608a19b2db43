import assert from "node:assert/strict";
import {
  compressionDuty,
  type CompressionParameters,
} from "../../../lib/simulation/ccs/co2_compression.ts";

const base: CompressionParameters = {
  inletPressureBar: 1.5,
  targetPressureBar: 80,
  stages: 4,
  isentropicEfficiency: 0.8,
  intercoolingTempC: 40,
  intercoolerEffectiveness: 1,
  pumpAbovePressureBar: 80,
  densePhaseDensityKgM3: 800,
  pumpEfficiency: 0.75,
};

Deno.test("compressionDuty() reproduces the research notes' values", async (t) => {
  await t.step("1.5→80 bar, 4 stages, 40 °C, η 0.80: 91.5 kWh/t", () => {
    const d = compressionDuty(base);
    assert.ok(Math.abs(d.totalKwhT - 91.5) < 1, `${d.totalKwhT}`);
    assert.equal(d.pumpWorkKjKg, 0);
  });
  await t.step("a pump 80→110 bar adds 1.4 kWh/t", () => {
    const d = compressionDuty({ ...base, targetPressureBar: 110 });
    assert.ok(Math.abs(d.pumpWorkKjKg / 3.6 - 1.39) < 0.05, `${d.pumpWorkKjKg}`);
    assert.equal(d.gasOutletPressureBar, 80);
  });
  await t.step("1.5→150 bar lies in the DOE NETL range 80-130 kWh/t", () => {
    const d = compressionDuty({ ...base, targetPressureBar: 150, intercoolerEffectiveness: 0.8 });
    assert.ok(d.totalKwhT > 80 && d.totalKwhT < 130, `${d.totalKwhT}`);
  });
  await t.step("no work when the target is not above the inlet", () => {
    assert.equal(compressionDuty({ ...base, targetPressureBar: 1 }).totalKwhT, 0);
  });
});
