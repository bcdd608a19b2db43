import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { modelConfigSchema, type Technology } from "../../../lib/model/model_config.ts";
import { ModelValidationError } from "../../../lib/model/model_problem.ts";

const MODELS = fileURLToPath(new URL("../../../data/models/", import.meta.url));
const NATIONAL = join(MODELS, "calliope_national_scale");
const URBAN = join(MODELS, "calliope_urban_scale");

function tech(techs: readonly Technology[], name: string): Technology {
  const t = techs.find((x) => x.name === name);
  assert.ok(t, `technology ${name}`);
  return t;
}

function problemPaths(error: unknown): string[] {
  assert.ok(error instanceof ModelValidationError, String(error));
  return error.problems.map((p) => p.path);
}

Deno.test("importCalliopeModel() reads Calliope's national-scale example", async (t) => {
  const model = await importCalliopeModel(NATIONAL);

  await t.step("the result is a valid ModelConfig", () => {
    assert.deepEqual(modelConfigSchema.parse(model), model);
    assert.equal(model.name, "National-scale example model");
  });

  await t.step("every technology with its parent, carriers, constraints and costs", () => {
    assert.deepEqual(
      model.technologies.map((x) => [x.name, x.type]).sort(),
      [
        ["ac_transmission", "transmission"],
        ["battery", "storage"],
        ["ccgt", "supply"],
        ["csp", "supply_plus"],
        ["demand_power", "demand"],
        ["free_transmission", "transmission"],
      ],
    );
    assert.deepEqual(tech(model.technologies, "ccgt"), {
      name: "ccgt",
      type: "supply",
      carrier_out: "power",
      essentials: { name: "Combined cycle gas turbine", color: "#E37A72" },
      constraints: {
        resource: "inf",
        energy_eff: 0.5,
        energy_cap_max: 40000,
        energy_cap_max_systemwide: 100000,
        energy_ramping: 0.8,
        lifetime: 25,
      },
      costs: { monetary: { interest_rate: 0.1, energy_cap: 750, om_con: 0.02 } },
    });
    const csp = tech(model.technologies, "csp");
    assert.equal(csp.constraints?.resource, "file=csp_resource.csv");
    assert.equal(csp.constraints?.resource_area_max, "inf");
    assert.equal(csp.constraints?.resource_unit, "energy_per_area");
    assert.equal(csp.costs?.["monetary"]?.resource_area, 200);
    const battery = tech(model.technologies, "battery");
    assert.equal(battery.carrier, "power");
    assert.equal(battery.constraints?.storage_cap_max, "inf");
    assert.equal(battery.constraints?.storage_loss, 0);
    assert.deepEqual(tech(model.technologies, "free_transmission").constraints, {
      energy_cap_max: "inf",
      energy_eff: 1,
    });
    assert.equal(tech(model.technologies, "demand_power").constraints, undefined);
  });

  await t.step("five locations, the comma key exploded and merged with coordinates", () => {
    const byId = new Map(model.locations.map((l) => [l.id, l]));
    assert.deepEqual([...byId.keys()].sort(), [
      "region1",
      "region1-1",
      "region1-2",
      "region1-3",
      "region2",
    ]);
    assert.deepEqual(byId.get("region1-1"), {
      id: "region1-1",
      lat: 41,
      lon: -2,
      technologies: ["csp"],
    });
    assert.deepEqual(byId.get("region1-2")?.technologies, ["csp"]);
    assert.equal(byId.get("region1-3")?.lat, 39);
    const region1 = byId.get("region1");
    assert.deepEqual(region1?.technologies, [
      { name: "ccgt", constraints: { energy_cap_max: 30000 } },
      { name: "demand_power", constraints: { resource: "file=demand-1.csv:demand" } },
    ]);
    assert.deepEqual(byId.get("region2")?.technologies, [
      "battery",
      { name: "demand_power", constraints: { resource: "file=demand-2.csv:demand" } },
    ]);
  });

  await t.step("four links, one per pair and technology", () => {
    assert.equal(model.links.length, 4);
    assert.deepEqual(
      model.links.find((l) => l.technology === "ac_transmission"),
      {
        source: "region1",
        target: "region2",
        technology: "ac_transmission",
        constraints: { energy_cap_max: 10000 },
      },
    );
    assert.deepEqual(
      model.links.filter((l) => l.technology === "free_transmission").map((l) => l.target).sort(),
      ["region1-1", "region1-2", "region1-3"],
    );
  });

  await t.step("the three referenced series, a year of hours each", () => {
    assert.deepEqual(model.timeSeries.map((s) => s.id).sort(), [
      "csp_resource",
      "demand-1",
      "demand-2",
    ]);
    for (const s of model.timeSeries) {
      assert.equal(s.timestamps.length, 8760);
      assert.equal(s.timestamps[0], "2005-01-01T00:00:00");
      assert.equal(s.timestamps[8759], "2005-12-31T23:00:00");
      for (const col of Object.values(s.columns)) assert.equal(col.length, 8760);
    }
    const csp = model.timeSeries.find((s) => s.id === "csp_resource");
    assert.deepEqual(Object.keys(csp?.columns ?? {}), ["region1-1", "region1-2", "region1-3"]);
    assert.equal(
      model.timeSeries.find((s) => s.id === "demand-1")?.columns["demand"]?.[0],
      -25284.48,
    );
  });

  await t.step("model and run settings become parameters", () => {
    const p = model.parameters;
    assert.deepEqual(p.subset_time, ["2005-01-01", "2005-01-05"]);
    assert.equal(p.bigM, 1e6);
    assert.equal(p.ensure_feasibility, true);
    assert.deepEqual(p.objective_cost_class, { monetary: 1 });
    assert.equal(p.time_resolution_h, undefined);
    assert.equal(p.scenario, undefined);
    assert.deepEqual(p.overrides?.["time_resampling"], {
      "model.name": "National-scale example model with time resampling",
      "model.subset_time": "2005-01",
      "model.time.function": "resample",
      "model.time.function_options.resolution": "6H",
    });
  });
});

Deno.test("importCalliopeModel() applies scenarios and overrides at the Calliope level", async (t) => {
  await t.step("time_resampling: 6-hourly, January", async () => {
    const model = await importCalliopeModel(NATIONAL, { scenario: "time_resampling" });
    assert.equal(model.parameters.time_resolution_h, 6);
    assert.equal(model.parameters.subset_time, "2005-01");
    assert.equal(model.name, "National-scale example model with time resampling");
  });
  await t.step("-o model.subset_time=2005-01-01", async () => {
    const model = await importCalliopeModel(NATIONAL, {
      overrides: { "model.subset_time": "2005-01-01" },
    });
    assert.equal(model.parameters.subset_time, "2005-01-01");
  });
  await t.step("-o wins over the scenario", async () => {
    const model = await importCalliopeModel(NATIONAL, {
      scenario: "time_resampling",
      overrides: { "model.subset_time": "2005-01-01" },
    });
    assert.equal(model.parameters.subset_time, "2005-01-01");
    assert.equal(model.parameters.time_resolution_h, 6);
  });
  await t.step("comma-separated overrides in order, adding a technology", async () => {
    const model = await importCalliopeModel(NATIONAL, {
      scenario: "cold_fusion,minimize_emissions_costs",
    });
    assert.equal(tech(model.technologies, "cold_fusion").type, "supply");
    assert.equal(tech(model.technologies, "ccgt").costs?.["emissions"]?.om_prod, 100);
    assert.deepEqual(model.parameters.objective_cost_class, { emissions: 1, monetary: 0 });
    const region1 = model.locations.find((l) => l.id === "region1");
    assert.ok(region1?.technologies.includes("cold_fusion"));
  });
  await t.step("a location override merges into the location's technology", async () => {
    const model = await importCalliopeModel(NATIONAL, { scenario: "run3" });
    const region1 = model.locations.find((l) => l.id === "region1");
    assert.deepEqual(region1?.technologies[0], {
      name: "ccgt",
      constraints: { energy_cap_max: 0 },
    });
  });
});

Deno.test("importCalliopeModel() refuses what the runner cannot solve, by Calliope path", async (t) => {
  const cases: [string, string[]][] = [
    ["capacity_factor", ["techs.ccgt.constraints.capacity_factor_max"]],
  ];
  for (const [scenario, paths] of cases) {
    await t.step(scenario, async () => {
      const error = await importCalliopeModel(NATIONAL, { scenario }).catch((e) => e);
      const found = problemPaths(error);
      for (const path of paths) assert.ok(found.includes(path), `${path} in ${found.join(", ")}`);
    });
  }
  await t.step("MILP keys (urban milp override) are imported, mipgap as mip_rel_gap", async () => {
    const config = await importCalliopeModel(URBAN, { scenario: "milp" });
    const tech = (name: string) => config.technologies.find((t) => t.name === name)!;
    assert.equal(tech("chp").constraints?.units_max, 4);
    assert.equal(tech("chp").constraints?.energy_cap_per_unit, 300);
    assert.equal(tech("chp").costs?.["monetary"]?.purchase, 40000);
    assert.equal(tech("boiler").costs?.["monetary"]?.purchase, 2000);
    assert.equal(tech("heat_pipes").constraints?.force_asynchronous_prod_con, true);
    assert.equal(config.parameters.solver?.mip_rel_gap, 0.05);
  });
  await t.step("time clustering and masking are imported as parameters.time", async () => {
    const clustered = await importCalliopeModel(NATIONAL, { scenario: "time_clustering" });
    assert.deepEqual(clustered.parameters.time, {
      function: "apply_clustering",
      function_options: { clustering_func: "kmeans", how: "closest", k: 10 },
    });
    assert.equal(clustered.parameters.random_seed, 23);
    const masked = await importCalliopeModel(URBAN, { scenario: "time_masking" });
    assert.deepEqual(masked.parameters.time, {
      masks: [{
        function: "extreme_diff",
        options: { tech0: "demand_heat", tech1: "demand_electricity", how: "max", n: 2 },
      }],
      function: "resample",
      function_options: { resolution: "6H" },
    });
    assert.equal(masked.parameters.time_resolution_h, undefined);
  });
});

Deno.test("importCalliopeModel() errors name the file", async (t) => {
  await t.step("unknown scenario", async () => {
    await assert.rejects(
      importCalliopeModel(NATIONAL, { scenario: "no_such_thing" }),
      (e: unknown) =>
        e instanceof RangeError && /model\.yaml/.test(e.message) &&
        /override "no_such_thing" is not defined/.test(e.message),
    );
  });
  await t.step("missing directory", async () => {
    await assert.rejects(importCalliopeModel(join(MODELS, "nope")), /nope.*no such directory/);
  });
  await t.step("missing model.yaml, missing CSV, YAML syntax error with its line", async () => {
    const dir = await Deno.makeTempDir();
    try {
      await assert.rejects(importCalliopeModel(dir), /model\.yaml.*no such file/);
      await Deno.writeTextFile(
        join(dir, "model.yaml"),
        [
          "import: ['techs.yaml']",
          "model: {name: tiny, timeseries_data_path: ts}",
          "locations:",
          "  1--2: {techs: {d: null}}",
          "",
        ].join("\n"),
      );
      await Deno.writeTextFile(
        join(dir, "techs.yaml"),
        "techs:\n  d:\n    essentials: {parent: demand, carrier: power}\n" +
          "    constraints: {resource: 'file=dem.csv'\n",
      );
      await assert.rejects(
        importCalliopeModel(dir),
        (e: unknown) => e instanceof SyntaxError && /techs\.yaml:\d+:\d+/.test(e.message),
      );
      await Deno.writeTextFile(
        join(dir, "techs.yaml"),
        "techs:\n  d:\n    essentials: {parent: demand, carrier: power}\n" +
          "    constraints: {resource: 'file=dem.csv'}\n",
      );
      await assert.rejects(importCalliopeModel(dir), /ts\/dem\.csv.*no such file/);
      await Deno.mkdir(join(dir, "ts"));
      await Deno.writeTextFile(join(dir, "ts", "dem.csv"), ",1,2\n2005-01-01 00:00,-1,-2\n");
      const model = await importCalliopeModel(dir);
      assert.deepEqual(model.locations.map((l) => l.id), ["1", "2"]);
      assert.deepEqual(model.timeSeries, [{
        id: "dem",
        timestamps: ["2005-01-01T00:00:00"],
        columns: { "1": [-1], "2": [-2] },
      }]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("importCalliopeModel() flattens tech_groups and honours exists: false", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, "model.yaml"),
      `
model.name: groups
tech_groups:
  base_plus:
    essentials: {parent: supply_plus, carrier: electricity, color: '#000'}
    constraints: {lifetime: 20, energy_eff: 0.9}
    costs.monetary: {interest_rate: 0.05, energy_cap: 10}
  solar:
    essentials.parent: base_plus
    constraints.energy_eff: 0.8
    costs.emissions.energy_cap: 1
techs:
  pv:
    essentials: {name: PV, parent: solar}
    constraints: {energy_cap_max: 5, lifetime: 25}
  gone:
    exists: false
    essentials: {parent: supply, carrier_out: electricity}
  d:
    essentials: {parent: demand, carrier: electricity}
locations:
  a,b:
    techs: {pv: null, gone: null}
  b.techs.pv.costs.monetary.energy_cap: 12
  b.available_area: 100
  c:
    exists: false
    techs: {pv: null}
  d.coordinates: {x: 1, y: 2}
  d.techs: {d: {exists: false}, pv: null}
links:
  a,b.techs.gone: null
  a,c.techs.pv: null
`,
    );
    const model = await importCalliopeModel(dir);
    assert.deepEqual(model.technologies.map((x) => x.name), ["pv", "d"]);
    assert.deepEqual(tech(model.technologies, "pv"), {
      name: "pv",
      type: "supply_plus",
      carrier: "electricity",
      essentials: { name: "PV", color: "#000" },
      constraints: { lifetime: 25, energy_eff: 0.8, energy_cap_max: 5 },
      costs: { monetary: { interest_rate: 0.05, energy_cap: 10 }, emissions: { energy_cap: 1 } },
    });
    assert.deepEqual(model.locations, [
      { id: "a", technologies: ["pv"] },
      {
        id: "b",
        available_area: 100,
        technologies: [{ name: "pv", costs: { monetary: { energy_cap: 12 } } }],
      },
      { id: "d", x: 1, y: 2, technologies: ["pv"] },
    ]);
    assert.deepEqual(model.links, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importCalliopeModel() reads Calliope's urban-scale example", async () => {
  const model = await importCalliopeModel(URBAN);
  assert.deepEqual(modelConfigSchema.parse(model), model);
  const chp = tech(model.technologies, "chp");
  assert.equal(chp.type, "conversion_plus");
  assert.equal(chp.carrier_in, "gas");
  assert.equal(chp.carrier_out, "electricity");
  assert.equal(chp.carrier_out_2, "heat");
  assert.equal(chp.primary_carrier_out, "electricity");
  assert.deepEqual(chp.constraints?.carrier_ratios, { carrier_out_2: { heat: 0.8 } });
  assert.equal(chp.constraints?.export_carrier, "electricity");
  assert.equal(chp.costs?.["monetary"]?.export, "file=export_power.csv");
  const pv = tech(model.technologies, "pv");
  assert.equal(pv.type, "supply_plus", "tech_group supply_power_plus flattened");
  assert.equal(pv.carrier, "electricity");
  assert.equal(pv.constraints?.export_carrier, "electricity");
  assert.equal(pv.constraints?.resource, "file=pv_resource.csv:per_area");
  const byId = new Map(model.locations.map((l) => [l.id, l]));
  assert.deepEqual(
    ["X1", "X2", "X3", "N1"].map((id) => byId.get(id)?.available_area),
    [500, 1300, 900, undefined],
  );
  assert.deepEqual(byId.get("N1"), { id: "N1", x: 5, y: 7, technologies: [] });
  assert.deepEqual(
    byId.get("X2")?.technologies.find((x) => typeof x !== "string" && x.name === "pv"),
    {
      name: "pv",
      costs: { monetary: { om_prod: -0.0203, export: -0.0491 } },
    },
  );
  assert.deepEqual(
    model.links.find((l) => l.source === "X1" && l.target === "X2"),
    { source: "X1", target: "X2", technology: "power_lines", distance: 10 },
  );
  assert.equal(model.links.length, 5);
  assert.deepEqual(model.timeSeries.map((s) => s.id).sort(), [
    "demand_heat",
    "demand_power",
    "export_power",
    "pv_resource",
  ]);
  const pvSeries = model.timeSeries.find((s) => s.id === "pv_resource");
  assert.equal(pvSeries?.timestamps[1], "2005-01-01T01:00:00");
  assert.deepEqual(model.parameters.subset_time, ["2005-07-01", "2005-07-02"]);
});
