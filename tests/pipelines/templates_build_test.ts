import assert from "node:assert/strict";
import { prepareModelBody } from "../../lib/model/prepare_model_body.ts";
import { BUILT_IN_KINDS } from "../../lib/templates/build_templates.ts";
import { techLeaves } from "../../lib/templates/template_entry.ts";
import { TEMPLATE_GROUPS, TEMPLATE_IDS } from "../../lib/templates/template_ids.ts";
import { builtInTemplates, createTemplateLibrary } from "../../lib/templates/template_library.ts";
import { buildTemplatesText, templatesDrift } from "../../pipelines/templates_build.ts";
import { profileIndexSchema } from "../../lib/profiles/profile_schema.ts";
import { hourly } from "../fixtures/model/small_models.ts";

Deno.test("templatesDrift() finds the committed templates.json equal to a fresh build", async () => {
  assert.deepEqual(await templatesDrift(), []);
});

Deno.test("buildTemplatesText() is the same text twice (a deterministic build)", async () => {
  assert.equal(await buildTemplatesText(), await buildTemplatesText());
});

Deno.test("templates.json has every id of the spec, once, in its group", () => {
  const templates = builtInTemplates();
  assert.deepEqual(templates.map((t) => t.id), [...TEMPLATE_IDS]);
  assert.equal(templates.length, 49);
  for (const t of templates) assert.ok(TEMPLATE_GROUPS[t.category].includes(t.id), t.id);
});

Deno.test("every value of every template has a source, and no key is both set and missing", () => {
  for (const t of builtInTemplates()) {
    const paths = techLeaves(t.tech).map(([path]) => path);
    assert.deepEqual(Object.keys(t.sources).sort(), [...paths].sort(), t.id);
    for (const text of Object.values(t.sources)) assert.ok(text.length > 10, t.id);
    for (const path of t.missing) assert.ok(!paths.includes(path), `${t.id}: ${path}`);
    for (const [path, value] of techLeaves(t.tech)) {
      if (typeof value === "number") assert.ok(t.units[path] !== undefined, `${t.id}: ${path}`);
    }
  }
});

Deno.test("catalogue templates cite their 2025 instance; the others carry no number", () => {
  const templates = builtInTemplates();
  const onshore = templates.find((t) => t.id === "onshore_wind")!;
  assert.equal(onshore.tech.costs["monetary"]?.energy_cap, 1625.94);
  assert.match(onshore.sources["costs.monetary.energy_cap"]!, /^catalogue:onshore_wind-2025 /);
  // Issue 18: the resource is the catalogue's profile, no longer missing.
  assert.ok(!onshore.missing.includes("constraints.resource"));
  assert.equal(onshore.tech.constraints.resource, "file=onshore_wind.csv");
  for (const id of Object.keys(BUILT_IN_KINDS)) {
    const t = templates.find((x) => x.id === id)!;
    assert.deepEqual(techLeaves(t.tech).filter(([, v]) => typeof v === "number"), [], id);
    assert.ok(t.missing.length > 0, id);
  }
  const flywheels = templates.find((t) => t.id === "flywheels")!;
  assert.ok(flywheels.missing.includes("costs.monetary.storage_cap"));
  assert.match(flywheels.notes[0]!, /technology_mapping\.csv: No flywheel row/);
  const demand = templates.find((t) => t.id === "heat_demand")!;
  assert.deepEqual(demand.tech.essentials.parent, "demand");
  assert.deepEqual(demand.tech.essentials.carrier, "heat");
  assert.deepEqual(demand.tech.costs, {});
});

/** A tiny model around one template: a demand of its output, and a supply of its input. */
function modelWith(id: string, parent: string, carrierOut: string, carrierIn?: string) {
  const hours = 24;
  const technologies: Record<string, unknown>[] = [
    { name: "t", template: id },
    {
      name: "d",
      type: "demand",
      carrier: carrierOut,
      constraints: { resource: "file=demand.csv:r1" },
    },
  ];
  const here = ["t", "d"];
  if (carrierIn !== undefined && carrierIn !== carrierOut) {
    technologies.push({ name: "s", type: "supply", carrier_out: carrierIn });
    here.push("s");
  }
  if (parent === "supply_plus") {
    (technologies[0] as Record<string, unknown>)["constraints"] = { resource: 1 };
  }
  const transmission = parent === "transmission";
  if (transmission) {
    technologies.push({ name: "s", type: "supply", carrier_out: carrierOut });
  }
  return {
    name: `template ${id}`,
    locations: transmission
      ? [
        { id: "r1", lat: 50, lon: 10, technologies: ["d"] },
        { id: "r2", lat: 51, lon: 10, technologies: ["s"] },
      ]
      : [{ id: "r1", lat: 50, lon: 10, technologies: here }],
    links: transmission ? [{ source: "r1", target: "r2", technology: "t" }] : [],
    technologies,
    timeSeries: [{
      id: "demand",
      timestamps: hourly(hours),
      columns: { r1: Array.from({ length: hours }, () => -1) },
    }],
  };
}

Deno.test("every template with numbers gives a technology the runner's schema accepts", async () => {
  const library = await createTemplateLibrary({ log: () => {} });
  let checked = 0;
  for (const t of builtInTemplates()) {
    const numbers = techLeaves(t.tech).some(([, v]) => typeof v === "number");
    if (!numbers || t.tech.essentials.parent === "demand") continue;
    const { parent, carrier_in, carrier_out, carrier } = t.tech.essentials;
    const out = carrier_out ?? carrier!;
    const model = modelWith(t.id, parent, out, parent === "conversion" ? carrier_in : undefined);
    const resolved = library.resolveModel(model);
    assert.ok(resolved.ok, t.id);
    const prepared = prepareModelBody(resolved.model);
    assert.ok(prepared.ok, `${t.id}: ${JSON.stringify(!prepared.ok && prepared.problems)}`);
    checked++;
  }
  assert.equal(checked, 36);
});

const PROFILE_INDEX = profileIndexSchema.parse(
  JSON.parse(
    await Deno.readTextFile(new URL("../../catalogues/profiles/index.json", import.meta.url)),
  ),
);

Deno.test("every supply_plus template names its resource per kW of capacity, a profile the catalogue ships (issue 18; unlimited before)", () => {
  const shipped = new Set(PROFILE_INDEX.profiles.map((p) => p.profile_id));
  const supplyPlus = builtInTemplates().filter((t) => t.tech.essentials.parent === "supply_plus");
  assert.deepEqual(supplyPlus.map((t) => t.id), [
    "solar_pv_utility_scale",
    "solar_pv_distributed",
    "onshore_wind",
    "offshore_wind_fixed_bottom",
    "offshore_wind_floating",
    "hydroelectric_run_of_river",
    "hydroelectric_reservoir",
    "marine_energy",
  ]);
  for (const t of supplyPlus) {
    const { resource, resource_unit } = t.tech.constraints;
    assert.equal(resource_unit, "energy_per_cap", t.id);
    const series = /^file=([a-z_]+)\.csv$/.exec(String(resource))?.[1];
    assert.ok(series, `${t.id}: ${resource}`);
    assert.ok(!t.missing.includes("constraints.resource"), t.id);
    assert.match(t.units["constraints.resource"] ?? "", /kWh per kW of energy_cap/, t.id);
    if (t.id === "marine_energy") {
      // No catalogue profile: the model supplies the series, and the notes say so.
      assert.ok(t.notes.some((n) => n.includes("the catalogue ships no profile")), t.id);
      continue;
    }
    // The catalogue's profiles of that key exist, and the reference names them.
    const ids = [...shipped].filter((id) => new RegExp(`^[A-Z]{2}_${series}_2016$`).test(id));
    assert.ok(ids.length > 0, `${t.id}: no shipped ${series} profile`);
    for (const id of ids) assert.ok(t.sources["constraints.resource"]!.includes(id), id);
  }
});

Deno.test("capacity-factor templates have energy_eff 1; run-of-river no longer 0.9 (issue 18)", () => {
  const templates = new Map(builtInTemplates().map((t) => [t.id, t]));
  for (
    const id of [
      "solar_pv_utility_scale",
      "solar_pv_distributed",
      "onshore_wind",
      "offshore_wind_fixed_bottom",
      "offshore_wind_floating",
      "hydroelectric_run_of_river",
    ]
  ) {
    assert.equal(templates.get(id)!.tech.constraints.energy_eff, 1, id);
  }
  const ror = templates.get("hydroelectric_run_of_river")!;
  assert.match(ror.sources["constraints.energy_eff"]!, /capacity-factor resource.*90 %/);
  // The reservoir's profile is an inflow (MWh per MW into the plant): its efficiency stays.
  assert.equal(templates.get("hydroelectric_reservoir")!.tech.constraints.energy_eff, 0.9);
});

Deno.test("per-distance template costs are per metre, and no template names run.distance_unit (issue 18; per km before)", async () => {
  const file = JSON.parse(
    await Deno.readTextFile(new URL("../../catalogues/transmission.json", import.meta.url)),
  ) as { technologies: { technology_id: string; instances: Record<string, unknown>[] }[] };
  const pipeline = file.technologies.find((t) => t.technology_id === "hydrogen_pipeline")!;
  const perKm = pipeline.instances.find((i) => i["year"] === 2025)!["capex_usd_per_kw_km"];
  assert.equal(perKm, 0.431471);
  const template = builtInTemplates().find((t) => t.id === "hydrogen_pipeline")!;
  const perM = template.tech.costs["monetary"]!.energy_cap_per_distance!;
  assert.ok(Math.abs(perM - 0.431471 / 1000) < 1e-15, String(perM));
  assert.match(template.units["costs.monetary.energy_cap_per_distance"]!, /^USD\/kW\/m /);
  const text = await Deno.readTextFile(
    new URL("../../lib/templates/templates.json", import.meta.url),
  );
  assert.ok(!text.includes("distance_unit"), "templates.json names run.distance_unit");
  assert.ok(!/USD\/kW\/km"/.test(text), "a unit per km");
});
