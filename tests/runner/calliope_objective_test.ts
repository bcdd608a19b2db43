/**
 * Calliope 0.6.10's solved-value checks of its objective (`calliope/test/
 * test_backend_pyomo_objective.py`), through our importer and runner, with Calliope's numbers
 * and tolerances (pytest's approx: 1e-6 relative): cost classes weighted, the sense, and the
 * reported objective being the one that was optimised (issue 21 section 3).
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";
import { buildTestModel, solveTestModel } from "./_calliope_test_model.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;

const runner = await createHighsModelRunner();

/** `actual` within `rel` relative of `expected` (pytest's approx default, 1e-6). */
function near(actual: unknown, expected: number, what: string, rel = 1e-6): void {
  assert.equal(typeof actual, "number", `${what} is not a number: ${actual}`);
  const error = Math.abs((actual as number) - expected) / Math.max(Math.abs(expected), 1e-12);
  assert.ok(error <= rel, `${what}: ${actual} is not within ${rel} of ${expected} (${error})`);
}

const table = (r: RunResult, name: string) => r[name] as Record<string, number>;
const classSum = (r: RunResult, cls: string) =>
  Object.values((r["costs"] as Record<string, Record<string, number>>)[cls] ?? {})
    .reduce((a, b) => a + b, 0);
const allCostSum = (r: RunResult) =>
  Object.keys(r["costs"] as Record<string, unknown>).reduce((a, c) => a + classSum(r, c), 0);
const prodSum = (r: RunResult, key: string) =>
  (r["carrier_prod"] as Record<string, number[]>)[key]!.reduce((a, b) => a + b, 0);

async function national(scenario: string): Promise<RunResult> {
  const config = await importCalliopeModel(NATIONAL, {
    scenario,
    overrides: { "model.subset_time": "2005-01-01" },
  });
  return await solveOptimal(runner, config);
}

Deno.test("test_nationalscale_minimize_emissions: the weighted objective is reported", async () => {
  const r = await national("minimize_emissions_costs");
  near(table(r, "energy_cap")["region1-2::csp"], 10000, "energy_cap region1-2::csp");
  near(
    table(r, "energy_cap")["region1::ac_transmission:region2"],
    10000,
    "energy_cap region1::ac_transmission:region2",
  );
  near(prodSum(r, "region1::ccgt::power"), 66530.36492823533, "carrier_prod region1::ccgt");
  near(classSum(r, "emissions"), 13129619.1, "emissions cost");
  // {emissions: 1, monetary: 0} and no unmet demand: the objective is the emissions cost, not
  // the sum over both classes that the result reported before issue 21.
  near(r.objective, classSum(r, "emissions"), "objective");
  near(r["cost_sum_unweighted"], allCostSum(r), "cost_sum_unweighted");
  assert.ok((r["cost_sum_unweighted"] as number) > (r.objective as number) + 1);
});

Deno.test("test_nationalscale_maximize_utility: sense maximize", async () => {
  const r = await national("maximize_utility_costs");
  near(table(r, "energy_cap")["region1-2::csp"], 10000, "energy_cap region1-2::csp");
  near(
    table(r, "energy_cap")["region1::ac_transmission:region2"],
    10000,
    "energy_cap region1::ac_transmission:region2",
  );
  near(prodSum(r, "region1::ccgt::power"), 115569.4354, "carrier_prod region1::ccgt");
  assert.ok(allCostSum(r) > 6.6e7, `sum of cost ${allCostSum(r)} > 6.6e7`);
  near(r.objective, classSum(r, "utility"), "objective (the utility maximised)");
});

for (
  const [scenario, weights] of [
    ["monetary_objective", { monetary: 1 }],
    ["emissions_objective", { emissions: 1 }],
    ["weighted_objective", { monetary: 0.9, emissions: 0.1 }],
  ] as const
) {
  Deno.test(`test_weighted_objective_results: ${scenario}`, async () => {
    const r = await solveTestModel({ modelFile: "weighted_obj_func.yaml", scenario });
    const expected = Object.entries(weights)
      .reduce((sum, [cls, w]) => sum + classSum(r, cls) * w, 0);
    near(r.objective, expected, "objective");
  });
}

// test_update_cost_classes_weights updates the Pyomo parameters of a built model and reruns it;
// the same fact on our LP: weights doubled, the same solution, the objective doubled.
Deno.test("test_update_cost_classes_weights: weights doubled double the objective", async () => {
  const once = await solveTestModel({
    modelFile: "weighted_obj_func.yaml",
    scenario: "weighted_objective",
  });
  const config = await buildTestModel({
    modelFile: "weighted_obj_func.yaml",
    scenario: "weighted_objective",
    override: { run: { objective_options: { cost_class: { monetary: 1.8, emissions: 0.2 } } } },
  });
  assert.deepEqual(config.parameters.objective_cost_class, { monetary: 1.8, emissions: 0.2 });
  const twice = await solveOptimal(runner, config);
  near(twice.objective, 2 * (once.objective as number), "objective");
  near(allCostSum(twice), allCostSum(once), "sum of cost");
});

Deno.test("Calliope's default weight stays: {emissions: 0.1} weighs monetary 1", async () => {
  const config = await buildTestModel({
    modelFile: "weighted_obj_func.yaml",
    scenario: "emissions_objective_without_removing_monetary_default",
  });
  assert.deepEqual(config.parameters.objective_cost_class, { monetary: 1, emissions: 0.1 });
  const r = await solveOptimal(runner, config);
  near(r.objective, classSum(r, "monetary") + 0.1 * classSum(r, "emissions"), "objective");
});

// test_example_models.py TestNationalScaleExampleModelInfeasibility: Calliope's own
// check_feasibility scenario of the national-scale example is infeasible (no tables).
Deno.test("check_feasibility (national scale): accepted, solved, infeasible as Calliope's", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    scenario: "check_feasibility",
    overrides: { "run.cyclic_storage": false },
  });
  assert.equal(config.parameters.objective, "check_feasibility");
  const prepared = runner.prepare(config);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const r = await runner.run(prepared.model, {
    log: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  });
  assert.equal(r.termination, "infeasible");
  assert.equal(r.success, false);
  assert.equal(r.objective, null);
  assert.deepEqual(r["energy_cap"], {});
});

Deno.test("check_feasibility (test model): constant objective 1, a feasible point", async () => {
  const r = await solveTestModel({
    scenario: "simple_supply,one_day,investment_costs",
    override: { run: { objective: "check_feasibility" } },
  });
  assert.equal(r.success, true);
  assert.equal(r.termination_condition, "optimal");
  assert.equal(r.objective, 1);
  assert.equal(typeof r["cost_sum_unweighted"], "number");
});

Deno.test("the frontend's JSON form carries the objective settings in `parameters`", async () => {
  const body = JSON.parse(
    await Deno.readTextFile(
      new URL("../fixtures/model/national_scale_frontend.json", import.meta.url),
    ),
  );
  body.parameters = {
    objective: "minmax_cost_optimization",
    objective_sense: "minimize",
    objective_cost_class: { monetary: 2 },
    zero_threshold: 1e-6,
  };
  const prepared = runner.prepare(body);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  assert.equal(prepared.model.objective, "cost");
  assert.equal(prepared.model.objectiveSense, "minimize");
  assert.equal(prepared.model.zeroThreshold, 1e-6);
  const r = await solveOptimal(runner, body);
  // Calliope's published 2005-01-01 cost, weighted by 2 (no unmet demand).
  near(r.objective, 2 * 38988.7442, "objective");
  near(r["cost_sum_unweighted"], 38988.7442, "cost_sum_unweighted");
});
