import assert from "node:assert/strict";
import {
  applyScenario,
  frequencyHours,
  scenarioNames,
} from "../../../lib/model/preprocess/apply_model_overrides.ts";
import { type ModelConfig, modelConfigSchema } from "../../../lib/model/model_config.ts";
import { type ModelProblem, ModelValidationError } from "../../../lib/model/model_problem.ts";
import { supplyDemandModel } from "../../fixtures/model/small_models.ts";

function withOverrides(
  overrides: Record<string, Record<string, unknown>>,
  scenario: string | string[],
  edit: (m: ReturnType<typeof supplyDemandModel>) => void = () => {},
): ModelConfig {
  const input = supplyDemandModel(4);
  edit(input);
  input.parameters = { scenario, overrides };
  return modelConfigSchema.parse(input);
}

function problemsOf(config: ModelConfig): ModelProblem[] {
  try {
    applyScenario(config);
  } catch (e) {
    if (e instanceof ModelValidationError) return [...e.problems];
    throw e;
  }
  assert.fail("expected a ModelValidationError");
}

Deno.test("scenarioNames() reads a list or a comma-separated string", () => {
  assert.deepEqual(scenarioNames("a, b,,c"), ["a", "b", "c"]);
  assert.deepEqual(scenarioNames(["x", " y "]), ["x", "y"]);
  assert.deepEqual(scenarioNames(undefined), []);
});

Deno.test("frequencyHours() reads pandas frequencies", () => {
  assert.equal(frequencyHours("6H"), 6);
  assert.equal(frequencyHours("3h"), 3);
  assert.equal(frequencyHours("30min"), 0.5);
  assert.equal(frequencyHours("1D"), 24);
  assert.equal(frequencyHours("H"), 1);
  assert.equal(frequencyHours("fortnight"), undefined);
});

Deno.test("applyScenario() without a scenario returns the config unchanged", () => {
  const config = modelConfigSchema.parse(supplyDemandModel(4));
  assert.equal(applyScenario(config), config);
});

Deno.test("applyScenario() applies dotted and nested keys in order", () => {
  const config = withOverrides({
    a: {
      "techs.ccgt.constraints.energy_cap_max": 10,
      techs: { ccgt: { costs: { monetary: { om_prod: 0.5 } }, essentials: { name: "Gas" } } },
      "model.name": "renamed",
    },
    b: { "techs.ccgt.constraints.energy_cap_max": 20, "run.bigM": 100 },
  }, "a,b");
  const out = applyScenario(config);
  const ccgt = out.technologies[0]!;
  assert.equal(ccgt.constraints!.energy_cap_max, 20);
  assert.equal(ccgt.constraints!.energy_eff, 0.5);
  assert.equal(ccgt.costs!.monetary!.om_prod, 0.5);
  assert.equal(ccgt.costs!.monetary!.energy_cap, 750);
  assert.equal(ccgt.essentials!.name, "Gas");
  assert.equal(out.name, "renamed");
  assert.equal(out.parameters.bigM, 100);
  assert.equal(out.parameters.scenario, undefined);
  // the input is not modified, and applying again changes nothing
  assert.equal(config.technologies[0]!.constraints!.energy_cap_max, 40000);
  assert.deepEqual(applyScenario(out), out);
});

Deno.test("applyScenario() sets location keys, adding the technology where absent", () => {
  const out = applyScenario(withOverrides(
    {
      loc: {
        "locations.r1.techs.battery": null,
        "locations.r1.techs.ccgt.constraints.energy_cap_max": 5,
        "locations.r1.techs.ccgt.costs.monetary.om_con": 0.1,
        "locations.r1.available_area": 100,
      },
    },
    ["loc"],
    (m) => {
      m.technologies.push({ name: "battery", type: "storage", carrier: "power" });
    },
  ));
  const loc = out.locations[0]!;
  assert.deepEqual(loc.technologies, [
    { name: "ccgt", constraints: { energy_cap_max: 5 }, costs: { monetary: { om_con: 0.1 } } },
    "demand_power",
    "battery",
  ]);
  assert.equal(loc.available_area, 100);
});

Deno.test("applyScenario() sets link keys, splitting a shared link and creating new ones", () => {
  const out = applyScenario(withOverrides(
    {
      l: {
        "links.r1,r2.techs.ac.constraints.energy_cap_max": 7,
        "links.r2,r1.techs.ac.distance": 12,
        "links.r1,r2.techs.dc.costs.monetary.om_prod": 0.3,
        "links.r1,r3.techs.ac": null,
      },
    },
    "l",
    (m) => {
      m.locations.push({ id: "r2", technologies: [] }, { id: "r3", technologies: [] });
      m.technologies.push(
        { name: "ac", type: "transmission", carrier: "power" },
        { name: "dc", type: "transmission", carrier: "power" },
      );
      m.links = [{ source: "r1", target: "r2", technology: ["ac", "dc"] }];
    },
  ));
  assert.deepEqual(out.links, [
    { source: "r1", target: "r2", technology: ["dc"], costs: { monetary: { om_prod: 0.3 } } },
    {
      source: "r1",
      target: "r2",
      technology: "ac",
      constraints: { energy_cap_max: 7 },
      distance: 12,
    },
    { source: "r1", target: "r3", technology: "ac" },
  ]);
});

Deno.test("applyScenario() maps model.time resampling and run settings", () => {
  const out = applyScenario(withOverrides({
    t: {
      model: {
        subset_time: ["2005-01-01", "2005-01-01"],
        time: { function: "resample", function_options: { resolution: "6H" } },
      },
      run: {
        ensure_feasibility: true,
        cyclic_storage: false,
        mode: "plan",
        objective_options: { cost_class: { emissions: 0.5 } },
      },
    },
  }, "t"));
  assert.equal(out.parameters.time_resolution_h, 6);
  assert.deepEqual(out.parameters.subset_time, ["2005-01-01", "2005-01-01"]);
  assert.equal(out.parameters.ensure_feasibility, true);
  assert.equal(out.parameters.cyclic_storage, false);
  assert.deepEqual(out.parameters.objective_cost_class, { monetary: 1, emissions: 0.5 });
});

Deno.test("applyScenario() reports unknown names and unsupported keys by path", async (t) => {
  await t.step("unknown override name", () => {
    const [p] = problemsOf(withOverrides({ cheap: { "run.bigM": 1 } }, "chaep"));
    assert.equal(p!.path, "parameters.scenario");
    assert.match(p!.message, /override "chaep" is not defined.*did you mean cheap\?/);
  });
  await t.step("unsupported keys", () => {
    const ps = problemsOf(withOverrides({
      x: {
        "group_constraints.g.techs": ["ccgt"],
        "run.mode": "design",
        "techs.ccgt.exists": false,
      },
    }, "x"));
    const paths = ps.map((p) => p.path);
    assert.ok(paths.includes("parameters.overrides.x.group_constraints.g.techs"));
    assert.ok(paths.includes("parameters.overrides.x.run.mode"));
    assert.ok(paths.includes("parameters.overrides.x.techs.ccgt.exists"));
    assert.ok(
      ps.every((p) => /not supported|not a resolution/.test(p.message)),
      JSON.stringify(ps),
    );
  });
  await t.step("model.time options the time functions lack, at the override's time keys", () => {
    const ps = problemsOf(withOverrides({
      x: { "model.time": { function: "apply_clustering", function_options: { k: 3 } } },
    }, "x"));
    assert.ok(ps.length > 0);
    assert.ok(
      ps.every((p) => p.path.startsWith("parameters.overrides.x.model.time")),
      JSON.stringify(ps),
    );
    assert.match(JSON.stringify(ps), /clustering_func|how/);
  });
  await t.step("an unknown technology with a suggestion", () => {
    const [p] = problemsOf(withOverrides({ x: { "techs.ccgtt.constraints.lifetime": 2 } }, "x"));
    assert.equal(p!.path, "parameters.overrides.x.techs.ccgtt.constraints.lifetime");
    assert.match(p!.message, /did you mean ccgt\?/);
  });
  await t.step("a value the schema refuses is reported at the override key", () => {
    const ps = problemsOf(withOverrides({ x: { "techs.ccgt.constraints.energy_cap_mx": 2 } }, "x"));
    assert.equal(ps[0]!.path, "parameters.overrides.x.techs.ccgt.constraints.energy_cap_mx");
    assert.match(ps[0]!.message, /did you mean energy_cap_max\?/);
  });
  await t.step("a deeply nested override does not overflow", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const ps = problemsOf(withOverrides({ x: { techs: deep as Record<string, unknown> } }, "x"));
    assert.ok(ps.length >= 1);
  });
});

Deno.test("applyScenario() maps run.objective, its sense and zero_threshold (issue 21)", () => {
  const out = applyScenario(withOverrides({
    t: {
      "run.objective": "check_feasibility",
      "run.objective_options.sense": "maximise",
      "run.zero_threshold": 1e-6,
    },
  }, "t"));
  assert.equal(out.parameters.objective, "check_feasibility");
  assert.equal(out.parameters.objective_sense, "maximize");
  assert.equal(out.parameters.zero_threshold, 1e-6);
  const [p] = problemsOf(withOverrides({
    t: { "model.time.function_options.how": "mean" },
  }, "t"));
  assert.equal(p!.path, "parameters.overrides.t.model.time.function_options.how");
});

Deno.test("applyScenario() merges model.time keys into parameters.time, plain resampling aside", () => {
  const clustered = applyScenario(withOverrides({
    c: {
      "model.random_seed": 23,
      "model.time": {
        function: "apply_clustering",
        function_options: { clustering_func: "kmeans", how: "closest", k: 10 },
      },
    },
  }, "c"));
  assert.deepEqual(clustered.parameters.time, {
    function: "apply_clustering",
    function_options: { clustering_func: "kmeans", how: "closest", k: 10 },
  });
  assert.equal(clustered.parameters.random_seed, 23);
  const resampled = applyScenario(withOverrides({
    r: { "model.time": { function: "resample", function_options: { resolution: "6H" } } },
  }, "r"));
  assert.equal(resampled.parameters.time_resolution_h, 6);
  assert.equal(resampled.parameters.time, undefined);
  const masked = applyScenario(withOverrides({
    m: {
      "model.time.function": "resample",
      "model.time.function_options.resolution": "6H",
      "model.time.masks": [{ function: "extreme", options: { tech: "demand_power", n: 1 } }],
    },
  }, "m"));
  assert.deepEqual(masked.parameters.time, {
    function: "resample",
    function_options: { resolution: "6H" },
    masks: [{ function: "extreme", options: { tech: "demand_power", n: 1 } }],
  });
  assert.equal(masked.parameters.time_resolution_h, undefined);
});
