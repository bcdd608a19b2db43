import assert from "node:assert/strict";
import { copy } from "../copy_dir.ts";
import { fileURLToPath } from "node:url";
import {
  CatalogueError,
  detectFormat,
  formatCatalogueProblem,
  parseCatalogueText,
  readCatalogueDir,
} from "../../../lib/catalogue/loading/catalogue_file.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const LEGACY = `${ROOT}tests/fixtures/catalogue/legacy`;
const BROKEN = `${ROOT}tests/fixtures/catalogue/broken`;

Deno.test("detectFormat() tells catalogue from legacy files by their root members", async (t) => {
  const cases: [string, unknown, ReturnType<typeof detectFormat>][] = [
    ["metadata and technologies", { metadata: {}, technologies: [] }, "catalogue"],
    ["metadata only", { metadata: {} }, "catalogue"],
    ["technologies only", { technologies: [] }, "catalogue"],
    ["neither", { id: "x", instances: [] }, "legacy"],
    ["an array", [], undefined],
    ["a string", "text", undefined],
    ["null", null, undefined],
  ];
  for (const [name, json, expected] of cases) {
    await t.step(name, () => assert.equal(detectFormat(json), expected));
  }
});

Deno.test("legacy fixtures are detected and normalised into catalogue units", async () => {
  const dir = await readCatalogueDir(LEGACY);
  assert.deepEqual(dir.problems, []);
  assert.deepEqual(dir.files.map((f) => f.format), ["legacy", "legacy"]);
  const ccgt = dir.technologies.find((t) => t.technology_name.startsWith("CCGT"));
  assert.ok(ccgt);
  assert.equal(ccgt.technology_id, "7d3a9f20-81c4-4b6e-b2d5-0e9c4a6f1b38");
  assert.equal(ccgt.oeo_class, "OEO_00000184");
  assert.equal(ccgt.oeo_uri, "https://openenergyplatform.org/ontology/oeo/OEO_00000184");
  const [i2025, i2030] = ccgt.instances;
  assert.ok(i2025 && i2030);
  // Ids default to <file id>-<index>; fraction -> percent; tCO2/MWh -> g/kWh.
  assert.equal(i2025.instance_id, "7d3a9f20-81c4-4b6e-b2d5-0e9c4a6f1b38-0");
  assert.equal(i2025.efficiency_percent, 57);
  assert.equal(i2025.co2_emission_factor_operational_g_per_kwh, 347.368);
  assert.equal(i2025.capex_usd_per_kw, 1290.59);
  assert.equal(i2025.lifetime_years, 25);
  assert.equal(i2025.ramping_rate_percent_per_min, null);
  assert.equal(i2025.typical_capacity_mw, null);
  assert.equal(i2030.efficiency_percent, 58);
  assert.equal(i2030.co2_emission_factor_operational_g_per_kwh, 341.379);
  assert.equal(i2030.opex_fixed_usd_per_kw_yr, null);
  assert.equal(
    i2025.reference_source,
    "Danish Energy Agency, inputs/technology_data_for_el_and_dh.xlsx | " +
      "Stoichiometric calculation with 50 GJ/t CH4",
  );
});

Deno.test("legacy figures equal the catalogue instances they were copied from", async () => {
  const legacy = (await readCatalogueDir(LEGACY)).technologies;
  const catalogue = (await readCatalogueDir(`${ROOT}catalogues`)).technologies;
  const instance = (id: string) =>
    catalogue.flatMap((t) => t.instances).find((i) => i.instance_id === id);
  const pairs: [string, string][] = [
    ["onshore_wind_legacy-2025", "onshore_wind-2025"],
    ["7d3a9f20-81c4-4b6e-b2d5-0e9c4a6f1b38-0", "combined_cycle_gas_turbine_ccgt-2025"],
  ];
  for (const [legacyId, catalogueId] of pairs) {
    const a = legacy.flatMap((t) => t.instances).find((i) => i.instance_id === legacyId);
    const b = instance(catalogueId);
    assert.ok(a && b);
    for (const f of ["capex_usd_per_kw", "efficiency_percent", "lifetime_years"] as const) {
      assert.equal(a[f], b[f], `${legacyId} ${f}`);
    }
    assert.equal(
      a.co2_emission_factor_operational_g_per_kwh,
      b.co2_emission_factor_operational_g_per_kwh,
    );
  }
});

Deno.test("ramping rates convert to one field: up = down, or the one given", () => {
  const file = (up: number | undefined, down: number | undefined) =>
    JSON.stringify({
      id: "4e8b2d6f-0a9c-4c31-b7e5-2f6d8a1c3b94",
      name: "Synthetic test technology",
      domain: "generation",
      carrier: "electricity",
      instances: [{
        name: "Synthetic instance",
        ...(up === undefined ? {} : { ramp_up_rate: { value: up, unit: "%/min" } }),
        ...(down === undefined ? {} : { ramp_down_rate: { value: down, unit: "%/min" } }),
        capacity_kw: { value: 2500, unit: "kW" },
      }],
    });
  const ramp = (up?: number, down?: number) => {
    const r = parseCatalogueText("t.json", file(up, down));
    assert.deepEqual(r.problems, []);
    return r.technologies[0]?.instances[0];
  };
  assert.equal(ramp(8, 8)?.ramping_rate_percent_per_min, 8);
  assert.equal(ramp(8)?.ramping_rate_percent_per_min, 8);
  assert.equal(ramp(undefined, 6)?.ramping_rate_percent_per_min, 6);
  assert.equal(ramp()?.ramping_rate_percent_per_min, null);
  assert.equal(ramp()?.typical_capacity_mw, 2.5);
});

Deno.test("catalogue-format records keep their numbers and split oeo_class", async () => {
  const [file] = (await readCatalogueDir(`${ROOT}catalogues`)).files.filter((f) =>
    f.file.endsWith("generation.json")
  );
  assert.ok(file);
  assert.equal(file.format, "catalogue");
  const wind = file.technologies.find((t) => t.technology_id === "onshore_wind");
  assert.equal(wind?.oeo_class, "OEO_00000311");
  assert.equal(wind?.oeo_uri, "https://openenergyplatform.org/ontology/oeo/OEO_00000311");
  assert.equal(wind?.instances[0]?.capex_usd_per_kw, 1625.94);
});

Deno.test("both formats may sit in one folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(`${ROOT}catalogues/generation.json`, `${dir}/generation.json`);
    await copy(LEGACY, dir);
    const read = await readCatalogueDir(dir);
    assert.deepEqual(read.problems, []);
    assert.deepEqual(
      read.files.map((f) => [f.file.slice(dir.length + 1), f.format]),
      [
        ["ccgt_legacy.json", "legacy"],
        ["generation.json", "catalogue"],
        ["onshore_wind_legacy.json", "legacy"],
      ],
    );
    assert.equal(read.technologies.length, 2 + read.files[1]!.technologies.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readCatalogueDir() reports every problem of every file with its JSON path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await copy(BROKEN, dir);
    await Deno.writeTextFile(`${dir}/not_json.json`, '{ "metadata": ');
    const read = await readCatalogueDir(dir);
    const found = read.problems.map((p) => `${p.file.slice(dir.length + 1)} ${p.path}`);
    const expected = [
      "bad_id_no_instances_legacy.json id",
      "bad_id_no_instances_legacy.json instances",
      "bad_schema_catalogue.json metadata.version",
      "bad_schema_catalogue.json technologies[0].lifecycle",
      "bad_schema_catalogue.json technologies[0].instances[0]",
      "bad_schema_catalogue.json technologies[0].instances[0].capex_usd_per_kw",
      "bad_schema_catalogue.json technologies[0].instances[0].lifetime_years",
      "bad_units_legacy.json instances[0].capex_per_kw.unit",
      "bad_units_legacy.json instances[0].electrical_efficiency.value",
      "domain_mismatch_catalogue.json technologies[0].domain",
      "domain_mismatch_catalogue.json technologies[0].oeo_uri",
      "domain_mismatch_catalogue.json technologies[0].instances[1]",
      "duplicate_id_catalogue_2.json technologies[0].technology_id",
      "not_json.json ",
      "ramp_mismatch_legacy.json instances[0].ramp_down_rate",
    ];
    assert.deepEqual(found.toSorted(), expected.toSorted());
    assert.deepEqual(read.technologies, []);
    const messages = read.problems.map(formatCatalogueProblem).join("\n");
    assert.match(messages, /id must be a UUID, got "not-a-uuid"/);
    assert.match(messages, /unit must be one of USD\/kW, got "EUR\/kW"/);
    assert.match(messages, /is "generation" but the file's metadata.domain is "storage"/);
    assert.match(messages, /differs from ramp_up_rate \(3 vs 5 %\/min\)/);
    assert.match(
      messages,
      /technology id "dup_tech" is also defined in .*duplicate_id_catalogue\.json/,
    );
    assert.match(messages, /not_json\.json: not valid JSON/);
    assert.match(messages, /Unrecognized key: "colour"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CatalogueError lists the problems in its message", () => {
  const error = new CatalogueError([{ file: "a.json", path: "technologies[0]", message: "bad" }]);
  assert.match(
    error.message,
    /1 problem\(s\) in the catalogue files:\na\.json: technologies\[0\]: bad/,
  );
});
