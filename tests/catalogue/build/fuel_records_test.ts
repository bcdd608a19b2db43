import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { buildCatalogue, FUELS_DOMAIN } from "../../../lib/catalogue/build/build_catalogue.ts";
import { parseCostTable } from "../../../lib/catalogue/build/cost_table.ts";
import { fuelRecord } from "../../../lib/catalogue/build/fuel_records.ts";
import { catalogueFileSchema } from "../../../lib/catalogue/schema/technology_schema.ts";
import { readCatalogueInputs } from "../../../pipelines/catalogue_build.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FX = 1.13;
const HEADER = "technology,parameter,value,unit,source,further description,currency_year\n";

async function built() {
  const inputs = await readCatalogueInputs(ROOT);
  return { inputs, files: buildCatalogue(inputs) };
}

function instancesOf(files: ReturnType<typeof buildCatalogue>, technology_id: string) {
  const t = [...files.values()].flatMap((f) => f.technologies)
    .find((x) => x.technology_id === technology_id);
  assert.ok(t, technology_id);
  return t.instances;
}

Deno.test("fuelRecord() reads the price and CO2 intensity rows, price in USD, rows kept", () => {
  // The gas rows of costs_2025.csv, shortened source text.
  const table = parseCostTable(
    HEADER + "gas,fuel,42.9003,EUR/MWh_th,World Bank,monthly prices,2020.0\n" +
      "gas,CO2 intensity,0.198,tCO2/MWh_th,Stoichiometric,,\n",
    "fixture.csv",
  );
  const errors: string[] = [];
  const r = fuelRecord(
    { fuel_id: "gas", fuel_name: "Natural gas", source_technology: "gas" },
    2025,
    table,
    "fixture.csv",
    FX,
    errors,
  );
  assert.deepEqual(errors, []);
  assert.equal(r.price_usd_per_mwh_th, 48.4773); // 42.9003 × 1.13, 6 digits
  assert.equal(r.co2_intensity_t_per_mwh_th, 0.198);
  assert.deepEqual(r.price_source, {
    technology: "gas",
    parameter: "fuel",
    value: 42.9003,
    unit: "EUR/MWh_th",
    currency: "EUR",
    currency_year: 2020,
    source: "World Bank",
    description: "monthly prices",
  });
  assert.equal(r.co2_intensity_source?.currency_year, null);
});

Deno.test("fuelRecord() leaves a missing price null and says why", () => {
  const table = parseCostTable(
    HEADER + "methanol,CO2 intensity,0.2482,tCO2/MWh_th,,,\n",
    "fixture.csv",
  );
  const errors: string[] = [];
  const r = fuelRecord(
    { fuel_id: "methanol", fuel_name: "Methanol", source_technology: "methanol" },
    2030,
    table,
    "fixture.csv",
    FX,
    errors,
  );
  assert.deepEqual(errors, []);
  assert.equal(r.price_usd_per_mwh_th, null);
  assert.equal(r.price_source, null);
  assert.equal(r.co2_intensity_t_per_mwh_th, 0.2482);
  assert.ok(r.notes.some((n) => /Price missing: fixture.csv has no "methanol,fuel" row/.test(n)));
});

Deno.test("fuelRecord() refuses a price unit that is not per MWh", () => {
  const table = parseCostTable(HEADER + "x,fuel,5,EUR/t,s,,\n", "fixture.csv");
  const errors: string[] = [];
  fuelRecord(
    { fuel_id: "x", fuel_name: "X", source_technology: "x" },
    2025,
    table,
    "f",
    FX,
    errors,
  );
  assert.match(errors.join("\n"), /fuel price unit "EUR\/t" is not per MWh/);
});

Deno.test("the catalogue's fuel records are those of the cost tables, per year", async () => {
  const { files } = await built();
  const fuels = files.get(FUELS_DOMAIN)?.fuels ?? [];
  for (const [domain, file] of files) {
    if (domain !== FUELS_DOMAIN) assert.equal(file.fuels, undefined, domain);
    catalogueFileSchema.parse(file);
  }
  const get = (id: string, year: number) => {
    const r = fuels.find((f) => f.fuel_id === id && f.year === year);
    assert.ok(r, `${id} ${year}`);
    return r;
  };
  assert.equal(fuels.length, 16 * 3);
  assert.equal(get("gas", 2025).price_source?.value, 42.9003);
  assert.equal(get("gas", 2030).price_source?.value, 28.4158);
  assert.equal(get("gas", 2050).price_source?.value, 22.7578);
  assert.equal(get("gas", 2050).co2_intensity_t_per_mwh_th, 0.198);
  assert.equal(get("coal", 2025).co2_intensity_t_per_mwh_th, 0.3361);
  assert.equal(get("coal", 2050).price_source?.value, 6.7204);
  assert.equal(get("lignite", 2025).co2_intensity_t_per_mwh_th, 0.4069);
  assert.equal(get("solid_biomass", 2025).co2_intensity_t_per_mwh_th, 0.3667);
  assert.equal(get("uranium", 2025).price_usd_per_mwh_th, 8.42257); // 7.4536 × 1.13
  assert.equal(get("uranium", 2025).co2_intensity_t_per_mwh_th, null);
  assert.equal(get("oil", 2025).price_source?.unit, "EUR/MWh");
  // No price row for methanol in any year: null, never borrowed from shipping fuel methanol.
  for (const year of [2025, 2030, 2050]) {
    assert.equal(get("methanol", year).price_usd_per_mwh_th, null);
  }
  assert.ok(!fuels.some((f) => f.fuel_id === "hydrogen"), "no hydrogen record is invented");
});

Deno.test("each thermal technology links to its fuel as the recipe declares", async () => {
  const { files } = await built();
  const cases: [string, string | null][] = [
    ["combined_cycle_gas_turbine_ccgt", "gas"],
    ["open_cycle_gas_turbine_ocgt", "gas"],
    ["nuclear_power_conventional", "uranium"],
    ["biomass_power_plant", "solid_biomass"],
    ["hydrogen_steam_reforming_smr", "gas"],
    ["waste_to_energy", null],
    ["pem_fuel_cell", null],
    ["onshore_wind", null],
  ];
  for (const [id, fuel] of cases) {
    for (const i of instancesOf(files, id)) assert.equal(i.fuel, fuel, i.instance_id);
  }
  const coal = instancesOf(files, "coal_power_plant");
  assert.deepEqual(
    [...new Set(coal.map((i) => `${i.instance_id.split("-")[1]}:${i.fuel}`))],
    ["hard_coal:coal", "lignite:lignite"],
  );
  const fuelCell = instancesOf(files, "pem_fuel_cell")[0];
  assert.ok(fuelCell?.notes?.some((n) => /no hydrogen fuel row/.test(n)));
});

Deno.test("capacity_basis of each conversion technology", async () => {
  const { files } = await built();
  const cases: [string, "input" | "output"][] = [
    ["pem_electrolyzer", "input"],
    ["alkaline_electrolyzer", "input"],
    ["solid_oxide_electrolyzer_soec", "input"],
    ["pem_fuel_cell", "output"],
    ["hydrogen_to_methane", "output"],
    ["hydrogen_to_liquid_fuels", "output"],
    ["hydrogen_steam_reforming_smr", "input"],
    ["post_combustion_ccs", "output"],
    ["direct_air_capture_dac", "output"],
  ];
  for (const [id, basis] of cases) {
    for (const i of instancesOf(files, id)) assert.equal(i.capacity_basis, basis, i.instance_id);
  }
  // Derived from the unit where it names a carrier of one side only.
  const dea = instancesOf(files, "alkaline_electrolyzer").find((i) =>
    /dea_100mw/.test(i.instance_id)
  );
  assert.ok(
    dea?.notes?.some((n) => /from the investment unit of electrolysis \(EUR\/kW_e\)/.test(n)),
  );
  const pem = instancesOf(files, "pem_electrolyzer")[0];
  assert.ok(pem?.notes?.some((n) => /Capacity basis: input, declared/.test(n)));
  // Generation is output based; an energy-only store has no power capacity.
  for (const t of files.get("generation")?.technologies ?? []) {
    for (const i of t.instances) assert.equal(i.capacity_basis, "output", i.instance_id);
  }
  const energyOnly = instancesOf(files, "lithium_ion_bess").find((i) =>
    /utility_energy/.test(i.instance_id)
  );
  assert.equal(energyOnly?.capacity_basis, null);
});

Deno.test("the build refuses an unstated or contradicted capacity basis and unknown fuels", async (t) => {
  const inputs = await readCatalogueInputs(ROOT);
  const base = inputs.recipe.technologies.find((x) => x.technology_id === "pem_electrolyzer")!;
  const build = (csv: string, patch: Record<string, unknown>) => () =>
    buildCatalogue({
      ...inputs,
      recipe: {
        ...inputs.recipe,
        fuels: [],
        technologies: [{ ...base, ...patch } as typeof base],
        not_included: [],
      },
      tables: new Map([[2025, parseCostTable(HEADER + csv, "synthetic.csv")]]),
      templates: new Map([["pem_electrolyzer", "conversion"]]),
    });
  // Synthetic test rows, not technology data.
  const rows = "PEM electrolyzer small size,investment,100,EUR/kW,s,,\n";
  await t.step("a bare EUR/kW without a declaration", () => {
    const { capacity_basis: _, ...undeclared } = base;
    assert.throws(
      () =>
        buildCatalogue({
          ...inputs,
          recipe: { ...inputs.recipe, fuels: [], technologies: [undeclared], not_included: [] },
          tables: new Map([[2025, parseCostTable(HEADER + rows, "synthetic.csv")]]),
          templates: new Map([["pem_electrolyzer", "conversion"]]),
        }),
      /does not say input or output; declare capacity_basis/,
    );
  });
  await t.step("a declaration the unit contradicts", () => {
    assert.throws(
      build("PEM electrolyzer small size,investment,100,EUR/kW_e,s,,\n", {
        capacity_basis: { side: "output", reason: "wrong on purpose" },
      }),
      /declared output but the unit says input/,
    );
  });
  await t.step("a link to a fuel that is not in fuels", () => {
    assert.throws(
      build(rows, { fuel: { fuel_id: "hydrogen" } }),
      /fuel "hydrogen" is not in fuels/,
    );
  });
});
