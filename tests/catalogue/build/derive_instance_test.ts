import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { readCatalogueDir } from "../../../lib/catalogue/loading/catalogue_file.ts";
import { type CostTable, parseCostTable } from "../../../lib/catalogue/build/cost_table.ts";
import type { Instance } from "../../../lib/catalogue/schema/technology_schema.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FX = 1.13;

async function sourceTable(year: number): Promise<CostTable> {
  const file = `costs_${year}.csv`;
  return parseCostTable(await Deno.readTextFile(`${ROOT}data/technology/${file}`), file);
}

function value(table: CostTable, technology: string, parameter: string): number {
  const row = table.get(technology)?.get(parameter);
  assert.ok(row, `${technology} / ${parameter}`);
  return row.value;
}

async function instances(): Promise<Map<string, Instance>> {
  const { technologies, problems } = await readCatalogueDir(`${ROOT}catalogues`);
  assert.deepEqual(problems, []);
  return new Map(technologies.flatMap((t) => t.instances.map((i) => [i.instance_id, i])));
}

/** Equal within the 6-significant-digit rounding of the build. */
function close(actual: number | null | undefined, expected: number, what: string): void {
  assert.ok(actual !== null && actual !== undefined, `${what} is null`);
  assert.ok(
    Math.abs(actual - expected) <= Math.abs(expected) * 1e-5,
    `${what}: ${actual} vs ${expected}`,
  );
}

Deno.test("conversions agree with the source rows", async (t) => {
  const all = await instances();
  const y2025 = await sourceTable(2025);
  const y2050 = await sourceTable(2050);
  const get = (id: string) => {
    const i = all.get(id);
    assert.ok(i, id);
    return i;
  };

  await t.step("onshore wind 2025: capex EUR/kW × rate, FOM % × capex, VOM", () => {
    const i = get("onshore_wind-2025");
    const capex = value(y2025, "onwind", "investment") * FX;
    close(i.capex_usd_per_kw, capex, "capex");
    close(i.opex_fixed_usd_per_kw_yr, value(y2025, "onwind", "FOM") / 100 * capex, "FOM");
    close(i.opex_var_usd_per_mwh, value(y2025, "onwind", "VOM") * FX, "VOM");
    assert.equal(i.lifetime_years, value(y2025, "onwind", "lifetime"));
    assert.equal(i.co2_emission_factor_operational_g_per_kwh, 0);
    assert.equal(i.lifecycle_stage, "commercial");
  });

  await t.step("CCGT 2025: CO2 = 0.198 / efficiency × 1000", () => {
    const i = get("combined_cycle_gas_turbine_ccgt-2025");
    const efficiency = value(y2025, "CCGT", "efficiency");
    assert.equal(value(y2025, "gas", "CO2 intensity"), 0.198);
    close(i.co2_emission_factor_operational_g_per_kwh, 0.198 / efficiency * 1000, "CO2");
    close(i.efficiency_percent, efficiency * 100, "efficiency");
  });

  await t.step("steam methane reforming: EUR/MW_CH4 / 1000, CO2 net of capture", () => {
    const i = get("hydrogen_steam_reforming_smr-smr_cc-2025");
    close(i.capex_usd_per_kw, value(y2025, "SMR CC", "investment") / 1000 * FX, "capex");
    const co2 = 0.198 / value(y2025, "SMR CC", "efficiency") * 1000 *
      (1 - value(y2025, "SMR CC", "capture_rate"));
    close(i.co2_emission_factor_operational_g_per_kwh, co2, "CO2");
  });

  await t.step("LFP battery: power per kW, energy per kWh, round trip = one-way²", () => {
    const i = get("lithium_ion_bess-lfp-2025");
    close(
      i.capex_usd_per_kw,
      value(y2025, "Lithium-Ion-LFP-bicharger", "investment") / 1000 * FX,
      "kW",
    );
    close(
      i.capex_usd_per_kwh,
      value(y2025, "Lithium-Ion-LFP-store", "investment") / 1000 * FX,
      "kWh",
    );
    close(
      i.efficiency_percent,
      value(y2025, "Lithium-Ion-LFP-bicharger", "efficiency") ** 2 * 100,
      "RTE",
    );
  });

  await t.step("HVDC submarine 2050: cable per kW·km, converter pair per kW", () => {
    const i = get("hvdc_submarine_cable-2050");
    close(i.capex_usd_per_kw_km, value(y2050, "HVDC submarine", "investment") / 1000 * FX, "km");
    close(i.capex_usd_per_kw, value(y2050, "HVDC inverter pair", "investment") * FX, "kW");
    assert.equal(i.lifecycle_stage, "projection");
  });

  await t.step("SOEC: the source's USD investment is not converted", () => {
    const i = get("solid_oxide_electrolyzer_soec-2025");
    close(i.capex_usd_per_kw, value(y2025, "SOEC", "investment"), "capex");
    close(i.efficiency_percent, 100 / value(y2025, "SOEC", "electricity-input"), "efficiency");
    assert.equal(i.lifecycle_stage, "demonstration");
    assert.ok(i.notes.some((n) => n.includes("in USD in the source")));
  });

  await t.step("DAC: per tCO2/h of capacity", () => {
    const i = get("direct_air_capture_dac-2025");
    close(
      i.capex_usd_per_t_co2_per_h,
      value(y2025, "direct air capture", "investment") * FX,
      "capex",
    );
    assert.equal(i.capex_usd_per_kw, null);
    assert.equal(i.co2_emission_factor_operational_g_per_kwh, null);
  });

  await t.step("offshore wind: the made-up VOM row is left out", () => {
    const i = get("offshore_wind_fixed_bottom-turbine-2025");
    assert.ok(y2025.get("offwind")?.has("VOM"));
    assert.equal(i.opex_var_usd_per_mwh, null);
  });

  await t.step("geothermal: no investment in the source, so no money figures", () => {
    const i = get("geothermal_power-2025");
    assert.equal(i.capex_usd_per_kw, null);
    assert.equal(i.opex_fixed_usd_per_kw_yr, null);
    assert.equal(i.lifetime_years, value(y2025, "geothermal", "lifetime"));
  });

  await t.step("every instance: no ramping or unit size; year and stage; source named", () => {
    for (const i of all.values()) {
      assert.equal(i.ramping_rate_percent_per_min, null);
      assert.equal(i.typical_capacity_mw, null);
      assert.ok([2025, 2030, 2050].includes(i.year ?? 0), i.instance_id);
      assert.equal(i.lifecycle_stage === "projection", i.year !== 2025, i.instance_id);
      assert.ok(i.instance_id.endsWith(`-${i.year}`), i.instance_id);
      assert.ok(i.reference_source, i.instance_id);
      assert.ok(i.source_technologies.length > 0, i.instance_id);
    }
  });
});
