import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { normaliseCatalogueTechnology } from "../../../lib/catalogue/loading/catalogue_file.ts";
import {
  type CatalogueFile,
  catalogueFileSchema,
  DOMAINS,
  type Instance,
  instanceSchema,
  iriLastSegment,
  technologySchema,
} from "../../../lib/catalogue/schema/technology_schema.ts";

const CATALOGUES = fileURLToPath(new URL("../../../catalogues/", import.meta.url));

async function committed(domain: string): Promise<CatalogueFile> {
  return JSON.parse(await Deno.readTextFile(`${CATALOGUES}${domain}.json`));
}

/** A valid instance to break one member at a time (figures of onshore_wind-2025). */
function instance(): Instance {
  return {
    instance_id: "onshore_wind-2025",
    instance_name: "Onshore wind turbine (DEA 20), 2025",
    year: 2025,
    lifecycle_stage: "commercial",
    capacity_basis: "output",
    typical_capacity_mw: null,
    capex_usd_per_kw: 1625.94,
    opex_fixed_usd_per_kw_yr: 20.0755,
    opex_var_usd_per_mwh: 2.15095,
    efficiency_percent: null,
    lifetime_years: 28.5,
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
    reference_source: "Danish Energy Agency, inputs/technology_data_for_el_and_dh.xlsx",
    source_technologies: ["onwind"],
    notes: [],
  };
}

Deno.test("every committed catalogue file, technology and instance passes the schemas", async (t) => {
  for (const domain of DOMAINS) {
    await t.step(domain, async () => {
      const file = await committed(domain);
      const parsed = catalogueFileSchema.safeParse(file);
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3)));
      assert.equal(file.metadata.domain, domain);
      assert.ok(file.technologies.length > 0);
      for (const tech of parsed.data.technologies) {
        const served = technologySchema.safeParse(normaliseCatalogueTechnology(tech));
        assert.ok(served.success, `${tech.technology_id}: ${served.error?.message}`);
        for (const i of served.data.instances) assert.ok(instanceSchema.safeParse(i).success);
      }
    });
  }
});

Deno.test("instanceSchema rejects figures outside their range", async (t) => {
  const cases: [string, Partial<Instance>][] = [
    ["negative capex", { capex_usd_per_kw: -1 }],
    ["efficiency above 1000 %", { efficiency_percent: 1200 }],
    ["zero efficiency", { efficiency_percent: 0 }],
    ["zero lifetime", { lifetime_years: 0 }],
    ["negative CO2", { co2_emission_factor_operational_g_per_kwh: -3 }],
    ["negative per-kWh capex", { capex_usd_per_kwh: -1 }],
    ["id with spaces", { instance_id: "onshore wind 2025" }],
    ["unknown lifecycle stage", { lifecycle_stage: "pilot" as Instance["lifecycle_stage"] }],
    ["a number as text", { capex_usd_per_kw: "1625" as unknown as number }],
  ];
  assert.ok(instanceSchema.safeParse(instance()).success);
  for (const [name, change] of cases) {
    await t.step(name, () => {
      assert.equal(instanceSchema.safeParse({ ...instance(), ...change }).success, false);
    });
  }
  await t.step("an unknown member", () => {
    assert.equal(instanceSchema.safeParse({ ...instance(), colour: "green" }).success, false);
  });
  await t.step("heat-pump efficiency above 100 % is allowed", () => {
    assert.ok(instanceSchema.safeParse({ ...instance(), efficiency_percent: 350 }).success);
  });
});

Deno.test("iriLastSegment() returns the class id of an OEO IRI", () => {
  assert.equal(
    iriLastSegment("https://openenergyplatform.org/ontology/oeo/OEO_00000311"),
    "OEO_00000311",
  );
  assert.equal(iriLastSegment("http://example.org/onto#Thing"), "Thing");
  assert.equal(iriLastSegment("https://example.org/a/b/"), "b");
});
