import assert from "node:assert/strict";
import { capitalRecoveryFactor } from "../../../lib/catalogue/adapters/annuity.ts";
import { toPyPSA } from "../../../lib/catalogue/adapters/pypsa.ts";
import {
  BATTERY,
  CCGT,
  ELECTROLYSER,
  HVDC,
  instance,
  ONSHORE_WIND,
  technology,
} from "../../fixtures/calliope/technologies.ts";

function close(actual: number | null, expected: number, tolerance = 1e-6): void {
  assert.ok(actual !== null, `expected ${expected}, got null`);
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

Deno.test("capitalRecoveryFactor()", async (t) => {
  await t.step("r = 0.07, n = 25 -> 0.08581", () => {
    close(capitalRecoveryFactor(0.07, 25), 0.0858105172, 1e-10);
  });
  await t.step("r = 0.05, n = 20 -> 0.08024", () => {
    close(capitalRecoveryFactor(0.05, 20), 0.0802425872, 1e-10);
  });
  await t.step("r = 0 -> 1/n", () => {
    assert.equal(capitalRecoveryFactor(0, 25), 1 / 25);
    assert.equal(capitalRecoveryFactor(0, 4), 0.25);
  });
  await t.step("n = 1 repays capital and one year's interest", () => {
    close(capitalRecoveryFactor(0.07, 1), 1.07, 1e-12);
  });
  await t.step("RangeError for n <= 0, r < 0 or non-finite arguments", () => {
    assert.throws(() => capitalRecoveryFactor(0.07, 0), RangeError);
    assert.throws(() => capitalRecoveryFactor(0.07, -5), RangeError);
    assert.throws(() => capitalRecoveryFactor(-0.01, 25), RangeError);
    assert.throws(() => capitalRecoveryFactor(Number.NaN, 25), RangeError);
    assert.throws(() => capitalRecoveryFactor(0.07, Number.POSITIVE_INFINITY), RangeError);
  });
});

const CAPEX_ONLY = technology({
  technology_id: "capex_only",
  domain: "generation",
  instances: [
    instance({
      instance_id: "a",
      capex_usd_per_kw: 1000,
      lifetime_years: 25,
      opex_fixed_usd_per_kw_yr: 0,
    }),
  ],
});

Deno.test("toPyPSA() capital_cost is USD/MW/a: capex 1000 USD/kW, 25 a, 7 % -> 85,810.5", () => {
  const result = toPyPSA(CAPEX_ONLY);
  // 1000 USD/kW = 1e6 USD/MW; × CRF 0.0858105 = 85,810.5 USD/MW/a (85.81 would be per kW).
  close(result.parameters.capital_cost, 85_810.517, 1e-3);
  assert.ok(result.parameters.capital_cost! > 1000 * 1000 * 0.08);
  assert.equal(result.units.capital_cost, "USD/MW/a (annuitised capex + fixed O&M)");
});

Deno.test("toPyPSA() adds fixed O&M (USD/kW/a × 1000) to the annuity in capital_cost", () => {
  const result = toPyPSA(CCGT);
  const annuity = 1000 * 1000 * capitalRecoveryFactor(0.07, 25);
  close(result.parameters.capital_cost, annuity + 20 * 1000);
  close(result.capital_cost_parts.annuitised_capex, annuity);
  assert.equal(result.capital_cost_parts.fixed_om, 20_000);
  close(result.capital_cost_parts.crf, 0.0858105172, 1e-10);
});

Deno.test("toPyPSA() converts the other figures to PyPSA's units", () => {
  const result = toPyPSA(CCGT);
  assert.deepEqual(
    { ...result.parameters, capital_cost: 0 },
    {
      carrier: "electricity",
      efficiency: 0.58,
      capital_cost: 0,
      marginal_cost: 4,
      lifetime: 25,
    },
  );
  // The per-output CO2 is no Generator attribute (PyPSA books CO2 on the Carrier per MWh of
  // fuel); it is served beside the parameters for reference.
  assert.equal(result.co2_t_per_mwh_out, 0.35);
  assert.deepEqual(result.carriers, {});
  assert.equal(result.technology_id, "ccgt");
  assert.equal(result.instance_index, 0);
  assert.equal(result.instance_id, "ccgt-2025");
  assert.equal(result.discount_rate, 0.07);
  assert.deepEqual(result.units, {
    carrier: "name of the PyPSA carrier",
    efficiency: "per unit (MWh out / MWh in)",
    capital_cost: "USD/MW/a (annuitised capex + fixed O&M)",
    marginal_cost: "USD/MWh",
    lifetime: "a",
  });
  assert.deepEqual(result.missing, []);
});

Deno.test("toPyPSA() uses the discount rate given", () => {
  const r0 = toPyPSA(CAPEX_ONLY, { discountRate: 0 });
  close(r0.parameters.capital_cost, 1000 * 1000 / 25);
  const r10 = toPyPSA(CAPEX_ONLY, { discountRate: 0.1 });
  close(r10.parameters.capital_cost, 1000 * 1000 * capitalRecoveryFactor(0.1, 25));
  assert.equal(r10.discount_rate, 0.1);
});

Deno.test("toPyPSA() component type by domain", async (t) => {
  const cases: [string, typeof CCGT, string][] = [
    ["generation", CCGT, "Generator"],
    ["generation (variable renewable)", ONSHORE_WIND, "Generator"],
    ["storage", BATTERY, "StorageUnit"],
    ["transmission", HVDC, "Link"],
    ["conversion", ELECTROLYSER, "Link"],
  ];
  for (const [domain, tech, expected] of cases) {
    await t.step(`${domain} -> ${expected}`, () => {
      assert.equal(toPyPSA(tech).component_type, expected);
    });
  }
});

Deno.test("toPyPSA() keeps missing figures null and lists them", async (t) => {
  await t.step("no efficiency: efficiency null, listed", () => {
    const result = toPyPSA(ONSHORE_WIND);
    assert.equal(result.parameters.efficiency, null);
    assert.deepEqual(result.missing, ["efficiency_percent"]);
    assert.equal(result.co2_t_per_mwh_out, 0);
    assert.equal(result.parameters.marginal_cost, 0);
  });
  await t.step("no fixed O&M: capital_cost is the annuity alone, with a note", () => {
    const result = toPyPSA(CCGT, { instanceIndex: 1 });
    close(result.parameters.capital_cost, 950 * 1000 * capitalRecoveryFactor(0.07, 25));
    assert.equal(result.capital_cost_parts.fixed_om, null);
    assert.ok(result.missing.includes("opex_fixed_usd_per_kw_yr"));
    assert.ok(result.notes.some((n) => n.includes("excludes fixed O&M")));
    assert.deepEqual(result.missing, [
      "opex_fixed_usd_per_kw_yr",
      "opex_var_usd_per_mwh",
      "efficiency_percent",
      "co2_emission_factor_operational_g_per_kwh",
    ]);
    assert.equal(result.parameters.marginal_cost, null);
    assert.equal(result.parameters.efficiency, null);
    assert.equal(result.co2_t_per_mwh_out, null);
  });
  await t.step("no capex per kW: capital_cost null, per-km capex noted", () => {
    const result = toPyPSA(HVDC);
    assert.equal(result.parameters.capital_cost, null);
    assert.equal(result.capital_cost_parts.annuitised_capex, null);
    assert.ok(result.missing.includes("capex_usd_per_kw"));
    assert.ok(result.notes.some((n) => n.includes("USD/kW/km")));
  });
  await t.step("per-km capex with ?length_km: capex per kW·km × length, annualised", () => {
    const result = toPyPSA(HVDC, { lengthKm: 500 });
    // 1.2 USD/kW/km × 500 km = 600 USD/kW, × 1000 per MW, × CRF(0.07, 40); no fixed O&M.
    close(result.parameters.capital_cost, 1.2 * 500 * 1000 * capitalRecoveryFactor(0.07, 40));
    assert.equal(result.length_km, 500);
    assert.throws(() => toPyPSA(HVDC, { lengthKm: 0 }), RangeError);
  });
  await t.step("no lifetime: no CRF, capital_cost null even with capex and fixed O&M", () => {
    const tech = technology({
      technology_id: "no_life",
      domain: "generation",
      instances: [
        instance({ instance_id: "x", capex_usd_per_kw: 500, opex_fixed_usd_per_kw_yr: 5 }),
      ],
    });
    const result = toPyPSA(tech);
    assert.equal(result.parameters.capital_cost, null);
    assert.equal(result.parameters.lifetime, null);
    assert.equal(result.capital_cost_parts.crf, null);
    assert.equal(result.capital_cost_parts.fixed_om, 5000);
  });
});

Deno.test("toPyPSA() gives a StorageUnit efficiency_store and efficiency_dispatch, no efficiency", () => {
  const result = toPyPSA(BATTERY);
  assert.equal("efficiency" in result.parameters, false);
  close(result.parameters.efficiency_store ?? null, Math.sqrt(0.9), 1e-12);
  close(result.parameters.efficiency_dispatch ?? null, Math.sqrt(0.9), 1e-12);
  assert.equal(result.parameters.standing_loss, null);
  assert.equal(result.parameters.max_hours, null);
  assert.ok(result.notes.some((n) => n.includes("efficiency_store")));
  assert.ok(result.notes.some((n) => n.includes("max_hours is null")));
  assert.ok(result.missing.includes("opex_fixed_usd_per_kwh_yr"));
  assert.equal(result.units.efficiency_store, "per unit (MWh stored / MWh taken in)");
  assert.equal(result.units.efficiency, undefined);
});

Deno.test("toPyPSA() adds max_hours × the energy part to a StorageUnit's capital_cost", () => {
  const crf = capitalRecoveryFactor(0.07, 15);
  const result = toPyPSA(BATTERY, { maxHours: 4 });
  assert.equal(result.parameters.max_hours, 4);
  // 300 USD/kW power, 250 USD/kWh energy, 10 USD/kW/a fixed O&M, no fixed O&M per kWh.
  close(result.parameters.capital_cost, 300_000 * crf + 10_000 + 4 * 250_000 * crf, 1e-6);
  close(result.capital_cost_parts.energy_annuitised_capex ?? null, 250_000 * crf, 1e-6);
  assert.equal(result.capital_cost_parts.energy_fixed_om, null);
  for (const bad of [0, -1, Number.NaN]) {
    assert.throws(() => toPyPSA(BATTERY, { maxHours: bad }), RangeError, String(bad));
  }
});

Deno.test("toPyPSA() throws RangeError for an instance index out of range", () => {
  assert.equal(toPyPSA(CCGT, { instanceIndex: 1 }).instance_id, "ccgt-2030");
  for (const index of [2, -1, 0.5, Number.NaN]) {
    assert.throws(() => toPyPSA(CCGT, { instanceIndex: index }), RangeError, String(index));
  }
  assert.throws(() => toPyPSA(CCGT, { instanceIndex: 5 }), /has no instance 5 \(it has 2\)/);
});

Deno.test("toPyPSA() throws RangeError for a negative or non-finite discount rate", () => {
  assert.throws(() => toPyPSA(CCGT, { discountRate: -0.01 }), RangeError);
  assert.throws(() => toPyPSA(CCGT, { discountRate: Number.NaN }), RangeError);
});
