import assert from "node:assert/strict";
import { technologyColor } from "../../lib/catalogue/calliope/mod.ts";
import { parseModelConfig } from "../../lib/model/parse_model_config.ts";
import { deepMerge } from "../../lib/templates/resolve_templates.ts";
import {
  CATALOGUE_CALLIOPE_PATH,
  createTemplateLibrary,
} from "../../lib/templates/template_library.ts";

/** A fetch that answers the catalogue's techs block with `techs`, counting its calls. */
function fakeCatalogue(techs: Record<string, unknown>) {
  const calls: string[] = [];
  const fetcher = ((input: string | URL | Request) => {
    calls.push(String(input));
    return Promise.resolve(Response.json({ techs }));
  }) as typeof fetch;
  return { fetcher, calls };
}

const failing = (() => Promise.reject(new TypeError("connection refused"))) as typeof fetch;

Deno.test("createTemplateLibrary() without a catalogue URL serves built-in values", async () => {
  const library = await createTemplateLibrary({ log: () => {} });
  assert.equal(library.list().length, 49);
  const entry = library.get("onshore_wind")!;
  assert.equal(entry.source["costs.monetary.energy_cap"], "built-in");
  assert.equal(entry.parent, "supply_plus");
  assert.equal(library.get("no_such"), undefined);
});

Deno.test("the catalogue's values are merged over the defaults with source catalogue", async () => {
  const { fetcher, calls } = fakeCatalogue({
    onshore_wind: {
      essentials: { name: "Onshore wind", color: "#123456", parent: "supply_plus" },
      constraints: { energy_eff: 0.98, lifetime: 30, not_a_key: 1 },
      costs: { monetary: { energy_cap: 1500, bogus: 2 } },
    },
    flywheels: { constraints: { lifetime: 20 } },
    hvac_overhead_line: { constraints: { lifetime: 40 } },
  });
  const library = await createTemplateLibrary({
    catalogueUrl: "http://catalogue.test/",
    fetch: fetcher,
    log: () => {},
  });
  assert.deepEqual(calls, [`http://catalogue.test${CATALOGUE_CALLIOPE_PATH}`]);
  const wind = library.get("onshore_wind")!;
  assert.equal(wind.tech.constraints.energy_eff, 0.98);
  assert.equal(wind.source["constraints.energy_eff"], "catalogue");
  assert.equal(wind.tech.costs["monetary"]?.energy_cap, 1500);
  assert.equal(wind.source["costs.monetary.energy_cap"], "catalogue");
  // Not in the answer: still the built-in value.
  assert.equal(wind.source["costs.monetary.om_annual"], "built-in");
  assert.ok(!("not_a_key" in wind.tech.constraints));
  assert.ok(!wind.missing.includes("constraints.energy_eff"));
  const flywheels = library.get("flywheels")!;
  assert.equal(flywheels.tech.constraints.lifetime, 20);
  assert.ok(!flywheels.missing.includes("constraints.lifetime"));
  assert.equal(library.get("hvac_overhead_line"), undefined);
});

Deno.test("the catalogue's resource series and resource_unit are merged; malformed ones are not (issue 18)", async () => {
  const { fetcher } = fakeCatalogue({
    onshore_wind: {
      constraints: { resource: "file=wind_cf.csv:DE", resource_unit: "energy_per_cap" },
    },
    solar_pv_utility_scale: { constraints: { resource: "pv.csv", resource_unit: 3 } },
    hydroelectric_run_of_river: { constraints: { resource_unit: "per_cap" } },
  });
  const library = await createTemplateLibrary({
    catalogueUrl: "http://catalogue.test",
    fetch: fetcher,
    log: () => {},
  });
  const wind = library.get("onshore_wind")!;
  assert.equal(wind.tech.constraints.resource, "file=wind_cf.csv:DE");
  assert.equal(wind.source["constraints.resource"], "catalogue");
  assert.equal(wind.source["constraints.resource_unit"], "catalogue");
  // Not a series reference, not one of Calliope's units: the built-in values stay.
  const pv = library.get("solar_pv_utility_scale")!;
  assert.equal(pv.tech.constraints.resource, "file=solar_pv.csv");
  assert.equal(pv.tech.constraints.resource_unit, "energy_per_cap");
  assert.equal(pv.source["constraints.resource"], "built-in");
  const ror = library.get("hydroelectric_run_of_river")!;
  assert.equal(ror.tech.constraints.resource_unit, "energy_per_cap");
});

Deno.test("an offline catalogue gives built-in values, logged once until it answers", async () => {
  const lines: string[] = [];
  let online = false;
  const fetcher =
    ((input: string | URL | Request) =>
      online
        ? fakeCatalogue({ lead_acid_batteries: { constraints: { lifetime: 11 } } }).fetcher(input)
        : failing(input)) as typeof fetch;
  const library = await createTemplateLibrary({
    catalogueUrl: "http://catalogue.test",
    fetch: fetcher,
    log: (line) => lines.push(line),
  });
  assert.equal(library.get("lead_acid_batteries")!.source["constraints.lifetime"], "built-in");
  assert.deepEqual(await library.refresh(), { catalogue: false, updated: 0 });
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /unavailable \(connection refused\); built-in values served/);
  online = true;
  assert.deepEqual(await library.refresh(), { catalogue: true, updated: 1 });
  assert.equal(library.get("lead_acid_batteries")!.tech.constraints.lifetime, 11);
  online = false;
  await library.refresh();
  assert.equal(library.get("lead_acid_batteries")!.source["constraints.lifetime"], "built-in");
  assert.equal(lines.length, 3);
});

Deno.test("resolveModel() puts the template under the technology's own keys", async (t) => {
  const library = await createTemplateLibrary({ log: () => {} });
  const model = {
    name: "m",
    locations: [{ id: "r1", technologies: ["wind", "battery"] }],
    technologies: [
      {
        name: "wind",
        template: "onshore_wind",
        constraints: { resource: 0.3, lifetime: 20 },
        costs: { monetary: { energy_cap: 1000 } },
      },
      { name: "battery", template: "lithium_ion_bess", carrier: "power" },
    ],
  };
  const frozen = structuredClone(model);
  const resolved = library.resolveModel(model);
  assert.ok(resolved.ok);
  assert.deepEqual(model, frozen, "the stored model is not changed");
  const [wind, battery] = (resolved.model as typeof model).technologies as Record<
    string,
    // deno-lint-ignore no-explicit-any
    any
  >[];

  await t.step("the model's keys win, the template fills the rest", () => {
    assert.equal(wind!["type"], "supply_plus");
    assert.equal(wind!["carrier_out"], "electricity");
    assert.equal(wind!["constraints"].lifetime, 20);
    assert.equal(wind!["constraints"].resource, 0.3);
    assert.equal(wind!["costs"].monetary.energy_cap, 1000);
    assert.equal(wind!["costs"].monetary.om_annual, 20.0755);
    assert.equal(wind!["template"], "onshore_wind");
    assert.deepEqual(wind!["essentials"], {
      name: "Onshore wind",
      color: technologyColor("onshore_wind"),
    });
  });

  await t.step("a technology naming a carrier keeps its own and none of the template's", () => {
    assert.equal(battery!["type"], "storage");
    assert.equal(battery!["carrier"], "power");
    assert.ok(!("carrier_in" in battery!) && !("carrier_out" in battery!));
    assert.equal(battery!["costs"].monetary.storage_cap, 399.365);
  });

  await t.step("the result passes the runner's ModelConfig schema", () => {
    const parsed = parseModelConfig(resolved.model);
    assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems));
  });
});

Deno.test("resolveModel() names an unknown template with a suggestion", async () => {
  const library = await createTemplateLibrary({ log: () => {} });
  const resolved = library.resolveModel({
    technologies: [
      { name: "a", type: "demand", carrier: "power" },
      { name: "b", template: "onshore_wnd" },
      { name: "c", template: 3 },
    ],
  });
  assert.deepEqual(resolved, {
    ok: false,
    problems: [
      {
        path: "technologies[1].template",
        message: 'unknown template "onshore_wnd"; did you mean onshore_wind?',
      },
      { path: "technologies[2].template", message: "template must be a template id (text)" },
    ],
  });
});

Deno.test("resolveModel() in the frontend's form merges Calliope-shaped essentials", async () => {
  const library = await createTemplateLibrary({ log: () => {} });
  const model = {
    name: "f",
    parameters: [],
    technologies: [
      { name: "pv", template: "solar_pv_utility_scale", essentials: { name: "My PV" } },
      { name: "store", type: "storage", template: "flywheels" },
    ],
  };
  const resolved = library.resolveModel(model);
  assert.ok(resolved.ok);
  // deno-lint-ignore no-explicit-any
  const [pv, store] = (resolved.model as any).technologies;
  assert.equal(pv.essentials.parent, "supply_plus");
  assert.equal(pv.essentials.name, "My PV");
  assert.equal(pv.essentials.carrier_out, "electricity");
  assert.equal(pv.costs.monetary.energy_cap, 672.197);
  assert.ok(!("parent" in store.essentials), "its own type is not outranked");
});

Deno.test("deepMerge() keeps a __proto__ key an own property", () => {
  const merged = deepMerge({ a: { b: 1 } }, JSON.parse('{"__proto__": {"x": 1}, "a": {"c": 2}}'));
  assert.deepEqual(Object.getPrototypeOf(merged), Object.prototype);
  assert.deepEqual((merged as Record<string, unknown>)["a"], { b: 1, c: 2 });
  assert.equal(({} as Record<string, unknown>)["x"], undefined);
});
