import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { buildCatalogue } from "../../../lib/catalogue/build/build_catalogue.ts";
import { parseCostTable } from "../../../lib/catalogue/build/cost_table.ts";
import { readCatalogueInputs } from "../../../pipelines/catalogue_build.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FX = 1.13;

/** Equal within the 6-significant-digit rounding of the build. */
function close(actual: number | null | undefined, expected: number, what: string): void {
  assert.ok(actual !== null && actual !== undefined, `${what} is null`);
  assert.ok(
    Math.abs(actual - expected) <= Math.abs(expected) * 1e-5,
    `${what}: ${actual} vs ${expected}`,
  );
}

Deno.test("every template is a record or listed as not included, exactly once", async () => {
  const inputs = await readCatalogueInputs(ROOT);
  const files = buildCatalogue(inputs);
  const ids = [...files.values()].flatMap((f) => f.technologies.map((t) => t.technology_id));
  const missing = [...files.values()].flatMap((f) => f.metadata.not_included ?? [])
    .map((n) => n.template_id);
  assert.equal(inputs.templates.size, 45);
  for (const template of inputs.templates.keys()) {
    assert.equal(
      ids.filter((id) => id === template).length + missing.filter((id) => id === template).length,
      1,
      template,
    );
  }
  assert.deepEqual(missing.toSorted(), [
    "biogas_power_plant",
    "co2_geological_storage",
    "flywheels",
    "internal_combustion_engine",
    "latent_thermal_storage",
    "marine_energy",
    "small_modular_reactors_smr",
    "sodium_sulfur_batteries",
    "solid_oxide_fuel_cell_sofc",
  ]);
  for (const line of ["hvac_overhead_line", "hvdc_overhead_line", "hvdc_submarine_cable"]) {
    assert.ok(files.get("transmission")?.technologies.some((t) => t.technology_id === line));
  }
});

Deno.test("the build refuses rows it cannot read honestly", async (t) => {
  const inputs = await readCatalogueInputs(ROOT);
  const header = "technology,parameter,value,unit,source,further description,currency_year\n";
  const build = (csv: string, variant: Record<string, unknown>) => {
    const table = parseCostTable(header + csv, "synthetic.csv");
    const technology = {
      ...inputs.recipe.technologies.find((x) => x.technology_id === "onshore_wind")!,
      variants: [{
        key: "turbine",
        name: "Synthetic test plant",
        capacity_unit: "kW_e output",
        components: ["a", "b"],
        efficiency: { from: "none", reason: "Synthetic." },
        ...variant,
      }],
    };
    return () =>
      buildCatalogue({
        ...inputs,
        recipe: {
          ...inputs.recipe,
          fuels: [],
          technologies: [technology],
          not_included: [],
        } as typeof inputs.recipe,
        tables: new Map([[2025, table]]),
        templates: new Map([["onshore_wind", "generation"]]),
      });
  };
  // Synthetic test rows, not technology data.
  await t.step("components that disagree on lifetime", () => {
    assert.throws(
      build(
        "a,investment,100,EUR/kW,s,,\na,lifetime,20,years,s,,\nb,investment,5,EUR/kWh,s,,\n" +
          "b,lifetime,10,years,s,,\n",
        {},
      ),
      /disagree on lifetime \(20, 10 years\)/,
    );
  });
  await t.step("two per-kW investments that are not declared a sum", () => {
    assert.throws(
      build("a,investment,100,EUR/kW,s,,\nb,investment,50,EUR/MW,s,,\n", {}),
      /a and b both give investment per kw/,
    );
  });
  await t.step("an unknown investment unit", () => {
    assert.throws(
      build("a,investment,100,EUR/m^3,s,,\nb,lifetime,10,years,s,,\n", {}),
      /a investment unit "EUR\/m\^3" is not a known cost unit/,
    );
  });
  await t.step("a placeholder source", () => {
    assert.throws(
      build("a,investment,100,EUR/kW,TODO,,\nb,lifetime,10,years,s,,\n", {}),
      /placeholder source "TODO"/,
    );
  });
  await t.step("a square root the source does not state", () => {
    assert.throws(
      build("a,investment,100,EUR/kW,s,,\nb,efficiency,0.9,per unit,s,,\n", {
        efficiency: { from: "square", component: "b", basis: "round trip" },
      }),
      /not marked as a square root/,
    );
  });
  await t.step("declared sums add up, with their fixed O&M", () => {
    const files = build(
      "a,investment,100,EUR/kW,s,,\na,FOM,2,%/year,s,,\nb,investment,300,EUR/kW,s,,\n" +
        "b,FOM,1,%/year,s,,\n",
      { sum: ["a", "b"] },
    )();
    const i = files.get("generation")?.technologies[0]?.instances[0];
    close(i?.capex_usd_per_kw, 400 * FX, "sum");
    close(i?.opex_fixed_usd_per_kw_yr, (2 + 3) * FX, "FOM sum");
  });
});
