/**
 * Golden values of the fuel and capacity-basis conventions of the adapters for eight catalogue
 * instances (CCGT, OCGT, hard coal, nuclear, PEM and alkaline electrolysers, PEM fuel cell, SMR),
 * each worked out here by hand from the figures of `catalogues/*.json` (copied below and checked
 * against the files) and the tool's own documented convention:
 *
 * - PyPSA Generator (`pypsa/data/component_attrs/generators.csv`): `marginal_cost` in currency
 *   per MWh of output; PyPSA-Eur `scripts/add_electricity.py` sets it to VOM + fuel /
 *   efficiency. The CO2 of a fuel is the Carrier attribute `co2_emissions` in t per MWh of fuel
 *   (`pypsa/data/component_attrs/carriers.csv`); PyPSA divides it by the generator's efficiency.
 * - PyPSA Link (`pypsa/data/component_attrs/links.csv`): `p_nom` is the power at bus0 (the
 *   input), `capital_cost` per MW of p_nom, `marginal_cost` per MWh of p0 (input).
 * - Calliope 0.6 (`calliope/config/defaults.yaml`, `default_cost`): `om_con` is the cost per unit
 *   of resource (supply) or carrier_in (conversion) consumed, per kWh; the national-scale example
 *   model's `ccgt` (a supply with `resource: inf`, `energy_eff`) carries its fuel cost as
 *   `om_con` per kWh. `energy_cap` of a conversion is its carrier_out capacity (per kW of output).
 */
import assert from "node:assert/strict";
import { CALLIOPE_ALLOWED, toCalliopeReport } from "../../../lib/catalogue/calliope/mod.ts";
import type { FuelRecord } from "../../../lib/catalogue/schema/fuel_schema.ts";
import { toPyPSA } from "../../../lib/catalogue/adapters/pypsa.ts";
import type { Technology } from "../../../lib/catalogue/schema/technology_schema.ts";

type File = { technologies: Technology[]; fuels?: FuelRecord[] };
const read = async (name: string): Promise<File> =>
  JSON.parse(await Deno.readTextFile(new URL(`../../../catalogues/${name}`, import.meta.url)));
const GENERATION = await read("generation.json");
const CONVERSION = await read("conversion.json");
const FUELS = GENERATION.fuels ?? [];

/** The technology and index of `instanceId`, its figures checked against the copy here. */
function find(
  file: File,
  technologyId: string,
  instanceId: string,
  figures: Record<string, number | string | null>,
): [Technology, number] {
  const technology = file.technologies.find((t) => t.technology_id === technologyId);
  assert.ok(technology, `no technology ${technologyId}`);
  const index = technology.instances.findIndex((i) => i.instance_id === instanceId);
  assert.ok(index >= 0, `no instance ${instanceId}`);
  const instance = technology.instances[index] as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(figures)) {
    assert.equal(instance[field], value, `${instanceId}.${field}`);
  }
  return [technology, index];
}

/** A fuel record of 2025, its figures checked against the copy here. */
function fuel(id: string, price: number | null, co2: number | null) {
  const record = FUELS.find((f) => f.fuel_id === id && f.year === 2025);
  assert.ok(record, `no fuel ${id} 2025`);
  assert.equal(record.price_usd_per_mwh_th, price);
  assert.equal(record.co2_intensity_t_per_mwh_th, co2);
  return { price, co2 };
}

function close(actual: number | null | undefined, expected: number, tolerance = 1e-9) {
  assert.ok(
    typeof actual === "number" && Math.abs(actual - expected) <= tolerance * Math.abs(expected),
    `${actual} != ${expected}`,
  );
}

/** CRF = r(1+r)^n / ((1+r)^n - 1), written out. */
const crf = (r: number, n: number) => r * (1 + r) ** n / ((1 + r) ** n - 1);

const GAS = fuel("gas", 48.4773, 0.198);
const COAL = fuel("coal", 8.83683, 0.3361);
const URANIUM = fuel("uranium", 8.42257, null);

const fuelled = [
  {
    name: "CCGT",
    file: GENERATION,
    id: "combined_cycle_gas_turbine_ccgt",
    instance: "combined_cycle_gas_turbine_ccgt-2025",
    capex: 1290.59,
    fom: 43.0953,
    vom: 6.49072,
    eff: 57,
    lifetime: 25,
    fuelId: "gas",
    fuel: GAS,
  },
  {
    name: "OCGT",
    file: GENERATION,
    id: "open_cycle_gas_turbine_ocgt",
    instance: "open_cycle_gas_turbine_ocgt-2025",
    capex: 671.105,
    fom: 11.9349,
    vom: 6.79254,
    eff: 40.5,
    lifetime: 25,
    fuelId: "gas",
    fuel: GAS,
  },
  {
    name: "hard coal",
    file: GENERATION,
    id: "coal_power_plant",
    instance: "coal_power_plant-hard_coal-2025",
    capex: 5437.59,
    fom: 71.2324,
    vom: 4.63356,
    eff: 35.6,
    lifetime: 40,
    fuelId: "coal",
    fuel: COAL,
  },
  {
    name: "nuclear",
    file: GENERATION,
    id: "nuclear_power_conventional",
    instance: "nuclear_power_conventional-2025",
    capex: 12210.4,
    fom: 155.073,
    vom: 5.03867,
    eff: 32.6,
    lifetime: 40,
    fuelId: "uranium",
    fuel: URANIUM,
  },
] as const;

for (const g of fuelled) {
  Deno.test(`${g.name}: PyPSA Generator and Calliope supply with fuel`, async (t) => {
    const [tech, index] = find(g.file, g.id, g.instance, {
      capex_usd_per_kw: g.capex,
      opex_fixed_usd_per_kw_yr: g.fom,
      opex_var_usd_per_mwh: g.vom,
      efficiency_percent: g.eff,
      lifetime_years: g.lifetime,
      fuel: g.fuelId,
      capacity_basis: "output",
    });
    await t.step("PyPSA: marginal_cost = VOM + fuel / efficiency (add_electricity.py)", () => {
      const result = toPyPSA(tech, { instanceIndex: index, fuels: FUELS });
      assert.equal(result.component_type, "Generator");
      // PyPSA-Eur add_electricity.py: marginal_cost = VOM + fuel / efficiency, USD/MWh_el.
      close(result.parameters.marginal_cost, g.vom + g.fuel.price! / (g.eff / 100));
      assert.deepEqual(result.marginal_cost_parts.variable_om, g.vom);
      // carriers.csv: co2_emissions in t per MWh of fuel (thermal), the fuel's own intensity.
      assert.equal(result.parameters.carrier, g.fuelId);
      assert.deepEqual(result.carriers, { [g.fuelId]: { co2_emissions: g.fuel.co2 } });
      assert.equal("co2_emissions" in result.parameters, false);
      // Generators are output based, as PyPSA's p_nom: capital_cost unconverted.
      assert.equal(result.capacity_conversion, null);
      close(
        result.parameters.capital_cost,
        g.capex * 1000 * crf(0.07, g.lifetime) + g.fom * 1000,
      );
      assert.ok(result.notes.some((n) => n.includes(`${g.fuel.price} USD/MWh_th`)));
    });
    await t.step("PyPSA ?fuel=false: VOM only, no fuel Carrier", () => {
      const result = toPyPSA(tech, { instanceIndex: index, fuels: FUELS, fuel: false });
      assert.equal(result.parameters.marginal_cost, g.vom);
      assert.equal(result.parameters.carrier, "electricity");
      assert.deepEqual(result.carriers, {});
    });
    await t.step("Calliope: om_con = fuel price / 1000 per kWh of resource (defaults.yaml)", () => {
      const report = toCalliopeReport(tech, { instanceIndex: index, fuels: FUELS });
      const { essentials, costs } = report.config[g.id]!;
      assert.equal(essentials.parent, "supply");
      assert.ok(CALLIOPE_ALLOWED.supply.costs.includes("om_con"));
      // defaults.yaml default_cost.om_con: cost per unit of resource consumed; the supply's
      // resource is the fuel, so USD/MWh_th / 1000 = USD/kWh_th.
      close(costs.monetary!.om_con, g.fuel.price! / 1000);
      // Generation stays output based: energy_cap is capex per kW of output.
      assert.equal(costs.monetary!.energy_cap, g.capex);
      if (g.fuel.co2 === null) assert.equal(costs.co2, undefined);
      else close(costs.co2!.om_con, g.fuel.co2 / 1000);
      assert.equal(report.conversion, null);
    });
    await t.step("Calliope ?fuel=false: no om_con, no co2 class", () => {
      const { costs } = toCalliopeReport(tech, {
        instanceIndex: index,
        fuels: FUELS,
        fuel: false,
      }).config[g.id]!;
      assert.equal(costs.monetary!.om_con, undefined);
      assert.equal(costs.co2, undefined);
    });
  });
}

Deno.test("nuclear: uranium has no CO2 intensity, so the Carrier's co2_emissions is null", () => {
  const [tech] = find(GENERATION, "nuclear_power_conventional", "nuclear_power_conventional-2025", {
    fuel: "uranium",
  });
  const result = toPyPSA(tech, { fuels: FUELS });
  assert.deepEqual(result.carriers, { uranium: { co2_emissions: null } });
  // 5.03867 + 8.42257 / 0.326 = 30.8748 USD/MWh.
  close(result.parameters.marginal_cost, 5.03867 + 8.42257 / 0.326);
});

Deno.test("CCGT: about 91.5 USD/MWh, against 6.49 VOM alone", () => {
  const [tech] = find(
    GENERATION,
    "combined_cycle_gas_turbine_ccgt",
    "combined_cycle_gas_turbine_ccgt-2025",
    {},
  );
  close(toPyPSA(tech, { fuels: FUELS }).parameters.marginal_cost, 91.5386147368421, 1e-12);
});

const electrolysers = [
  {
    name: "PEM electrolyser",
    id: "pem_electrolyzer",
    instance: "pem_electrolyzer-2025",
    capex: 1754.42,
    fom: 52.6326,
    eff: 72.4638,
    lifetime: 6.5,
  },
  {
    name: "alkaline electrolyser",
    id: "alkaline_electrolyzer",
    instance: "alkaline_electrolyzer-dea_100mw-2025",
    capex: 2557.42,
    fom: 102.297,
    eff: 58.74,
    lifetime: 25,
  },
] as const;

for (const e of electrolysers) {
  Deno.test(`${e.name}: input based; PyPSA Link as is, Calliope ÷ efficiency`, () => {
    const [tech, index] = find(CONVERSION, e.id, e.instance, {
      capex_usd_per_kw: e.capex,
      opex_fixed_usd_per_kw_yr: e.fom,
      opex_var_usd_per_mwh: null,
      efficiency_percent: e.eff,
      lifetime_years: e.lifetime,
      fuel: null,
      capacity_basis: "input",
    });
    // links.csv: p_nom is the power at bus0 (electricity in), the catalogue's basis: unchanged.
    const pypsa = toPyPSA(tech, { instanceIndex: index, fuels: FUELS });
    assert.equal(pypsa.component_type, "Link");
    assert.equal(pypsa.capacity_conversion, null);
    close(pypsa.parameters.capital_cost, e.capex * 1000 * crf(0.07, e.lifetime) + e.fom * 1000);
    assert.equal(pypsa.parameters.marginal_cost, null);
    // Calliope: energy_cap of a conversion is carrier_out (hydrogen): per kW_e in ÷ efficiency.
    const report = toCalliopeReport(tech, { instanceIndex: index, fuels: FUELS });
    const costs = report.config[e.id]!.costs.monetary!;
    close(costs.energy_cap, e.capex / (e.eff / 100));
    close(costs.om_annual, e.fom / (e.eff / 100));
    assert.equal(costs.om_con, undefined, "no fuel record");
    assert.equal(report.conversion?.from, "input");
    assert.equal(report.conversion?.to, "output");
    close(report.conversion?.factor, 1 / (e.eff / 100));
    assert.deepEqual(report.conversion?.converted.capex_usd_per_kw?.before, e.capex);
  });
}

Deno.test("alkaline electrolyser: about 4,354 USD per kW of hydrogen in Calliope", () => {
  const [tech, index] = find(
    CONVERSION,
    "alkaline_electrolyzer",
    "alkaline_electrolyzer-dea_100mw-2025",
    {},
  );
  // 2557.42 USD/kW_e / 0.5874 = 4353.80 USD/kW_H2.
  close(
    toCalliopeReport(tech, { instanceIndex: index }).config.alkaline_electrolyzer!.costs.monetary!
      .energy_cap,
    4353.796390875043,
    1e-12,
  );
});

Deno.test("PEM fuel cell: output based; PyPSA Link × efficiency, Calliope as is", () => {
  const [tech, index] = find(CONVERSION, "pem_fuel_cell", "pem_fuel_cell-2025", {
    capex_usd_per_kw: 1811.35,
    opex_fixed_usd_per_kw_yr: 90.5674,
    efficiency_percent: 50,
    lifetime_years: 10,
    fuel: null,
    capacity_basis: "output",
  });
  // links.csv: p_nom at bus0 (hydrogen in); per kW_e out × 0.5 = per kW_H2 in.
  const pypsa = toPyPSA(tech, { instanceIndex: index, fuels: FUELS });
  close(pypsa.parameters.capital_cost, 1811.35 * 0.5 * 1000 * crf(0.07, 10) + 90.5674 * 0.5 * 1000);
  assert.equal(pypsa.capacity_conversion?.from, "output");
  assert.equal(pypsa.capacity_conversion?.to, "input");
  assert.equal(pypsa.capacity_conversion?.factor, 0.5);
  close(pypsa.capacity_conversion?.converted.capex_usd_per_kw?.after, 905.675);
  assert.ok(pypsa.notes.some((n) => n.startsWith("Capacity basis")));
  // Calliope energy_cap is the output (electricity): unchanged.
  const report = toCalliopeReport(tech, { instanceIndex: index, fuels: FUELS });
  assert.equal(report.config.pem_fuel_cell!.costs.monetary!.energy_cap, 1811.35);
  assert.equal(report.conversion, null);
});

Deno.test("SMR: input based, gas in; fuel per MWh at bus0 and om_con per kWh of methane", () => {
  const [tech, index] = find(
    CONVERSION,
    "hydrogen_steam_reforming_smr",
    "hydrogen_steam_reforming_smr-smr-2025",
    {
      capex_usd_per_kw: 744.873,
      opex_fixed_usd_per_kw_yr: 37.2436,
      opex_var_usd_per_mwh: null,
      efficiency_percent: 76,
      lifetime_years: 30,
      fuel: "gas",
      capacity_basis: "input",
    },
  );
  // links.csv: marginal_cost per MWh of p0 (gas in), so the fuel adds its price, not / eff.
  const pypsa = toPyPSA(tech, { instanceIndex: index, fuels: FUELS });
  close(pypsa.parameters.marginal_cost, GAS.price!);
  assert.equal(pypsa.marginal_cost_parts.fuel, GAS.price);
  assert.equal(pypsa.capacity_conversion, null);
  close(pypsa.parameters.capital_cost, 744.873 * 1000 * crf(0.07, 30) + 37.2436 * 1000);
  // CO2 of a Link goes on bus2, not on a Carrier (PyPSA counts carrier CO2 of generators).
  assert.deepEqual(pypsa.carriers, {});
  assert.ok(pypsa.notes.some((n) => n.includes("efficiency2 = 0.198")));
  assert.equal(
    toPyPSA(tech, { instanceIndex: index, fuels: FUELS, fuel: false }).parameters.marginal_cost,
    null,
  );
  // Calliope conversion: om_con per kWh of carrier_in (methane); energy_cap per kW_H2 out.
  const report = toCalliopeReport(tech, { instanceIndex: index, fuels: FUELS });
  const { essentials, costs } = report.config.hydrogen_steam_reforming_smr!;
  assert.equal(essentials.carrier_in, "methane");
  assert.ok(CALLIOPE_ALLOWED.conversion.costs.includes("om_con"));
  close(costs.monetary!.om_con, 48.4773 / 1000);
  close(costs.co2!.om_con, 0.198 / 1000);
  close(costs.monetary!.energy_cap, 744.873 / 0.76);
  close(costs.monetary!.om_annual, 37.2436 / 0.76);
});

Deno.test("a fuel without a price: VOM only with a note", () => {
  const [tech] = find(
    GENERATION,
    "combined_cycle_gas_turbine_ccgt",
    "combined_cycle_gas_turbine_ccgt-2025",
    {},
  );
  const fuels = FUELS.map((f) =>
    f.fuel_id === "gas" ? { ...f, price_usd_per_mwh_th: null, notes: ["no price row"] } : f
  );
  const result = toPyPSA(tech, { fuels });
  assert.equal(result.parameters.marginal_cost, 6.49072);
  assert.ok(result.notes.some((n) => n.includes("no price") && n.includes("variable O&M only")));
  const costs = toCalliopeReport(tech, { fuels }).config.combined_cycle_gas_turbine_ccgt!.costs;
  assert.equal(costs.monetary!.om_con, undefined);
  close(costs.co2!.om_con, 0.198 / 1000);
});

Deno.test("no fuel records given: no fuel cost, and the notes say so", () => {
  const [tech] = find(
    GENERATION,
    "combined_cycle_gas_turbine_ccgt",
    "combined_cycle_gas_turbine_ccgt-2025",
    {},
  );
  const result = toPyPSA(tech);
  assert.equal(result.parameters.marginal_cost, 6.49072);
  assert.ok(result.notes.some((n) => n.includes("no fuel records")));
});
