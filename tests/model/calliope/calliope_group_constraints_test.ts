import assert from "node:assert/strict";
import { convertGroupConstraints } from "../../../lib/model/calliope/calliope_group_constraints.ts";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { writeCalliopeModel } from "../../../lib/model/calliope/calliope_export.ts";
import { parseCalliopeYaml } from "../../../lib/model/calliope/calliope_yaml.ts";
import { modelConfigSchema } from "../../../lib/model/model_config.ts";
import { type ModelProblem, ModelValidationError } from "../../../lib/model/model_problem.ts";
import { resolveModel } from "../../../lib/model/preprocess/resolve_model.ts";

const TEST_MODEL = new URL("../../fixtures/calliope_test_model", import.meta.url).pathname;
const GROUP = `${TEST_MODEL}/model_config_group/base_model.yaml`;

const techs = { known: new Set(["ccgt", "pv", "ac"]), removed: new Set(["old"]) };
const locs = { known: new Set(["r1", "r2"]), removed: new Set<string>() };

function convert(yaml: string) {
  const problems: ModelProblem[] = [];
  const groups = convertGroupConstraints(
    parseCalliopeYaml(yaml),
    techs,
    locs,
    (path, message) => problems.push({ path, message }),
  );
  return { groups, problems };
}

Deno.test("convertGroupConstraints() reads every implemented family", () => {
  const { groups, problems } = convert(`
group_constraints:
  caps:
    techs: [ccgt, pv, old]
    locs: [r1]
    energy_cap_max: .inf
    energy_cap_min: 6
    storage_cap_equals: 2
    resource_area_max: 10
    cost_max: {monetary: 100, co2: 5}
    cost_var_min: {monetary: 1}
    cost_investment_equals: {monetary: 2}
    energy_cap_share_max: 0.2
  prod: {exists: false, carrier_prod_min: {power: 10}}
  con: {carrier_con_max: {power: -5}}
  share: {techs: pv, carrier_prod_share_min: {power: 0.85}}
  d: {demand_share_equals: {power: 0.5}}
  dt: {demand_share_per_timestep_max: {power: 0.5}}
  pt: {carrier_prod_share_per_timestep_min: {power: 0.5}}
  imp: {locs: [r1], net_import_share_max: {power: 0.1}}
  dec: {demand_share_per_timestep_decision: {power: .inf}}
`);
  assert.deepEqual(problems, []);
  assert.deepEqual(groups, {
    caps: {
      techs: ["ccgt", "pv"], // a removed (exists: false) tech is dropped, as Calliope does
      locs: ["r1"],
      energy_cap_max: "inf",
      energy_cap_min: 6,
      storage_cap_equals: 2,
      resource_area_max: 10,
      cost_max: { monetary: 100, co2: 5 },
      cost_var_min: { monetary: 1 },
      cost_investment_equals: { monetary: 2 },
      energy_cap_share_max: 0.2,
    },
    prod: { exists: false, carrier_prod_min: { power: 10 } },
    con: { carrier_con_max: { power: -5 } },
    share: { techs: ["pv"], carrier_prod_share_min: { power: 0.85 } },
    d: { demand_share_equals: { power: 0.5 } },
    dt: { demand_share_per_timestep_max: { power: 0.5 } },
    pt: { carrier_prod_share_per_timestep_min: { power: 0.5 } },
    imp: { locs: ["r1"], net_import_share_max: { power: 0.1 } },
    dec: { demand_share_per_timestep_decision: { power: "inf" } },
  });
});

Deno.test("convertGroupConstraints() refuses unknown keys and names, and bad values", () => {
  const { problems } = convert(`
group_constraints:
  g:
    techs: [ccgt, nuclear]
    locs: [r3]
    demand_share_per_timestep_decision: 0.1
    energy_cap_maximum: 3
    energy_cap_min: lots
`);
  assert.deepEqual(problems, [
    { path: "group_constraints.g.techs", message: 'unknown technology "nuclear"' },
    { path: "group_constraints.g.locs", message: 'unknown location "r3"' },
    {
      path: "group_constraints.g.demand_share_per_timestep_decision",
      message: "a mapping of carrier or cost class to a number",
    },
    {
      path: "group_constraints.g.energy_cap_maximum",
      message: 'unknown group constraint key "energy_cap_maximum"',
    },
    { path: "group_constraints.g.energy_cap_min", message: "a number" },
  ]);
});

Deno.test("no or empty group_constraints gives no groupConstraints", () => {
  assert.deepEqual(convert("model: {name: x}"), { groups: undefined, problems: [] });
  assert.deepEqual(convert("group_constraints: {}"), { groups: undefined, problems: [] });
});

Deno.test("a Calliope scenario sets group_constraints through the importer's override path", async () => {
  const model = await importCalliopeModel(GROUP, { scenario: "energy_cap_min_max_supply" });
  assert.deepEqual(model.groupConstraints, {
    example_energy_cap_max_constraint: { energy_cap_max: 4, techs: ["cheap_elec_supply"] },
    example_energy_cap_constraint: { energy_cap_min: 6, techs: ["expensive_elec_supply"] },
  });
});

Deno.test("group_constraints survive export and re-import", async () => {
  const model = await importCalliopeModel(GROUP, {
    scenario: "energy_cap_min_max_supply_loc_0_1",
    overrides: {
      "group_constraints.shares.carrier_prod_share_max": { electricity: 0.9 },
      "group_constraints.off.exists": false,
      "group_constraints.off.cost_max": { monetary: 1e6 },
      "group_constraints.off.energy_cap_max": ".inf",
    },
  });
  assert.ok(model.groupConstraints !== undefined);
  const dir = await Deno.makeTempDir();
  try {
    await writeCalliopeModel(model, dir);
    const back = await importCalliopeModel(dir);
    assert.deepEqual(back.groupConstraints, model.groupConstraints);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ModelConfig groupConstraints: the decision family takes one carrier, no sense", async () => {
  const model = await importCalliopeModel(GROUP);
  const withGroup = (group: Record<string, unknown>) =>
    modelConfigSchema.safeParse({ ...model, groupConstraints: { g: group } });
  assert.equal(
    withGroup({ demand_share_per_timestep_decision: { electricity: 0.5 } }).success,
    true,
  );
  const sensed = withGroup({ demand_share_per_timestep_decision_max: { electricity: 0.5 } });
  assert.deepEqual(
    sensed.error!.issues.map((i) => [i.path.join("."), i.message]),
    [[
      "groupConstraints.g.demand_share_per_timestep_decision_max",
      'unknown group constraint key "demand_share_per_timestep_decision_max"',
    ]],
  );
  const twoCarriers = modelConfigSchema.parse({
    ...model,
    groupConstraints: { g: { demand_share_per_timestep_decision: { electricity: 0.5, heat: 1 } } },
  });
  assert.throws(
    () => resolveModel(twoCarriers),
    (e: unknown) =>
      e instanceof ModelValidationError &&
      e.problems.some((p) =>
        p.path === "groupConstraints.g.demand_share_per_timestep_decision" &&
        p.message === "give exactly one carrier"
      ),
  );
});

Deno.test("ModelConfig groupConstraints: unknown tech, location and cost class named", async () => {
  const model = await importCalliopeModel(GROUP);
  const bad = modelConfigSchema.parse({
    ...model,
    groupConstraints: {
      g: { techs: ["nuclear"], locs: ["9"], cost_max: { money: 1 } },
      c: { carrier_prod_max: { electricity: 1, heat: 2 }, energy_cap_max: 3 },
    },
  });
  assert.throws(() => resolveModel(bad), (e: unknown) => {
    assert.ok(e instanceof ModelValidationError);
    assert.deepEqual(e.problems.map((p) => p.path), [
      "groupConstraints.g.techs[0]",
      "groupConstraints.g.locs[0]",
      "groupConstraints.g.cost_max.money",
      "groupConstraints.c.carrier_prod_max",
      "groupConstraints.c.carrier_prod_max",
    ]);
    return true;
  });
});

Deno.test("demand_share_per_timestep_decision: a demand per area or capacity is refused", async () => {
  const model = await importCalliopeModel(
    `${TEST_MODEL}/group_constraint_demand_share_decision.yaml`,
    {
      scenario: "demand_share_per_timestep_decision_simple",
      overrides: { "techs.electricity_demand.constraints.resource_unit": "energy_per_cap" },
    },
  );
  assert.throws(
    () => resolveModel(model),
    (e: unknown) =>
      e instanceof ModelValidationError && e.problems.some((p) =>
        p.path ===
          "groupConstraints.demand_share_per_timestep_decision_simple_constraint." +
            "demand_share_per_timestep_decision" &&
        /resource_unit energy_per_cap.*not be linear/.test(p.message)
      ),
  );
});

Deno.test("run.relax_constraint: read, checked, applied by a scenario and exported", async () => {
  const file = `${TEST_MODEL}/group_constraint_demand_share_decision.yaml`;
  const key = "run.relax_constraint.demand_share_per_timestep_decision_main_constraint";
  const model = await importCalliopeModel(file, { overrides: { [key]: 0.05 } });
  assert.deepEqual(model.parameters.relax_constraint, {
    demand_share_per_timestep_decision_main_constraint: 0.05,
  });
  const dir = await Deno.makeTempDir();
  try {
    await writeCalliopeModel(model, dir);
    assert.deepEqual((await importCalliopeModel(dir)).parameters.relax_constraint, {
      demand_share_per_timestep_decision_main_constraint: 0.05,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  await assert.rejects(
    importCalliopeModel(file, {
      overrides: { [key]: -1, "run.relax_constraint.carrier_prod_share": 0.1 },
    }),
    (e: unknown) => {
      const paths = (e as ModelValidationError).problems.map((p) => [p.path, p.message]);
      assert.deepEqual(paths, [
        [
          "run.relax_constraint.carrier_prod_share",
          'constraint "carrier_prod_share" cannot be relaxed ' +
          "(demand_share_per_timestep_decision_main_constraint)",
        ],
        [key, "the relaxation is a fraction from 0 to 1"],
      ]);
      return true;
    },
  );
  // As a ModelConfig scenario (parameters.overrides), the same key lands in parameters.
  const base = await importCalliopeModel(file);
  const scenario = modelConfigSchema.parse({
    ...base,
    parameters: { ...base.parameters, scenario: "r", overrides: { r: { [key]: 0.1 } } },
  });
  assert.equal(resolveModel(scenario).demandShareDecisionRelaxation, 0.1);
});
