import assert from "node:assert/strict";
import {
  opentechInstance,
  opentechTechnology,
} from "../../../lib/catalogue/opentech/opentech_technology.ts";
import type { Instance } from "../../../lib/catalogue/schema/technology_schema.ts";

const HEAT_PUMP: Instance = {
  instance_id: "central_air_sourced_heat_pump-2030",
  instance_name: "Air-sourced heat pump, 2030",
  year: 2030,
  lifecycle_stage: "projection",
  capacity_basis: "output",
  capacity_unit: "kW_th output",
  fuel: null,
  typical_capacity_mw: 5,
  capex_usd_per_kw: 1000,
  opex_fixed_usd_per_kw_yr: 3,
  opex_var_usd_per_mwh: 2,
  efficiency_percent: 350,
  lifetime_years: 25,
  co2_emission_factor_operational_g_per_kwh: 0,
  ramping_rate_percent_per_min: null,
  capex_usd_per_kwh: null,
  opex_fixed_usd_per_kwh_yr: null,
  capex_usd_per_kw_km: null,
  opex_fixed_usd_per_kw_km_yr: null,
  capex_usd_per_t_co2_per_h: null,
  opex_fixed_usd_per_t_co2_per_h_yr: null,
  capex_usd_per_t_co2_per_h_km: null,
  opex_fixed_usd_per_t_co2_per_h_km_yr: null,
  reference_source: "DEA",
  source_technologies: [],
  notes: [],
};

Deno.test("instance figures in the frontend's units, null where the source has none", () => {
  const o = opentechInstance(HEAT_PUMP, "heat");
  assert.deepEqual(o.capex_per_kw, { value: 1000, unit: "USD/kW", source: "DEA" });
  assert.deepEqual(o.capacity_kw, { value: 5000, unit: "kW", source: "DEA" });
  assert.equal(o.thermal_efficiency?.value, 3.5);
  assert.equal(o.electrical_efficiency, null);
  assert.equal(o.ramp_up_rate, null);
  assert.equal(o.discount_rate, null);
  assert.equal(o.life_cycle_stage, "projection");
  assert.deepEqual(o.extra, {});
  const co2 = opentechInstance(
    { ...HEAT_PUMP, co2_emission_factor_operational_g_per_kwh: 365 },
    "electricity",
  );
  assert.equal(co2.co2_emission_factor?.value, 0.365);
  assert.equal(co2.electrical_efficiency?.value, 3.5);
});

Deno.test("output carriers: stated, else the main one unless it is consumed", () => {
  const base = { technology_id: "x", technology_name: "X", domain: "conversion" as const };
  assert.deepEqual(
    opentechTechnology({
      ...base,
      carrier: "heat",
      carrier_in: ["electricity"],
      carrier_out: ["heat"],
    })
      .output_carriers,
    ["heat"],
  );
  assert.deepEqual(
    opentechTechnology({
      ...base,
      carrier: "electricity",
      carrier_in: ["electricity"],
      carrier_out: null,
    })
      .output_carriers,
    [],
  );
  assert.deepEqual(
    opentechTechnology({ ...base, carrier: "heat", carrier_in: null, carrier_out: null })
      .output_carriers,
    ["heat"],
  );
});
