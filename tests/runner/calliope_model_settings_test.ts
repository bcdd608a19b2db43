/**
 * Calliope 0.6.10's `TestModelSettings` (`calliope/test/test_constraint_results.py`): unmet
 * demand and unused supply with `run.ensure_feasibility` and `run.bigM`, through our importer
 * and runner, with Calliope's numbers. Calliope's `unmet_demand` result is unmet demand plus
 * unused supply (its `clean_results` merges them), as ours.
 */
import assert from "node:assert/strict";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { buildTestModel } from "./_calliope_test_model.ts";

const runner = await createHighsModelRunner();

/** Calliope's `TestModelSettings.model(feasibility, cap_val)`, solved (optimal or not). */
async function model(feasibility: boolean, capVal: number): Promise<RunResult> {
  const config = await buildTestModel({
    scenario: "investment_costs",
    override: {
      "locations.0.techs": { test_supply_elec: {}, test_demand_elec: {} },
      "links.0,1.exists": false,
      // A time subset where demand is uniformly -10 throughout.
      "model.subset_time": ["2005-01-01 06:00:00", "2005-01-01 08:00:00"],
      "run.ensure_feasibility": feasibility,
      "run.bigM": 1e3,
      // resource with force_resource and energy_cap_equals force the mismatch.
      "techs.test_supply_elec.constraints": {
        resource: capVal,
        energy_eff: 1,
        energy_cap_equals: 15,
        force_resource: true,
      },
    },
  });
  const prepared = runner.prepare(config);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems, null, 2));
  return await runner.run(prepared.model, {
    log: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  });
}

const unmetSum = (r: RunResult) =>
  Object.values(r["unmet_demand"] as Record<string, number[]>)
    .flat().reduce((a, b) => a + b, 0);

const noUnmet = model(true, 10);
const unmetDemand = model(true, 5);
const unusedSupply = model(true, 15);

Deno.test("TestModelSettings.test_unmet_demand_zero", async () => {
  const r = await noUnmet;
  assert.equal(r.termination, "optimal");
  assert.equal(unmetSum(r), 0);
});

Deno.test("TestModelSettings.test_unmet_demand_nonzero: unmet_demand sums to 15", async () => {
  const r = await unmetDemand;
  assert.equal(r.termination, "optimal");
  assert.equal(unmetSum(r), 15);
});

Deno.test("TestModelSettings.test_unmet_supply_nonzero: unmet_demand sums to -15", async () => {
  const r = await unusedSupply;
  assert.equal(r.termination, "optimal");
  assert.equal(unmetSum(r), -15);
});

Deno.test("TestModelSettings.test_expected_impact_on_objective_function_value", async () => {
  const [none, unmet, unused] = [await noUnmet, await unmetDemand, await unusedSupply];
  const approx = (actual: number, expected: number, what: string) =>
    assert.ok(
      Math.abs(actual - expected) <= 1e-6 * Math.abs(expected),
      `${what}: ${actual} is not ${expected}`,
    );
  approx((unused.objective as number) - (none.objective as number), 1e3 * 15, "unused supply");
  approx((unmet.objective as number) - (none.objective as number), 1e3 * 15, "unmet demand");
});

for (const capVal of [5, 15]) {
  Deno.test(`TestModelSettings.test_expected_infeasible_result: resource ${capVal}`, async () => {
    const r = await model(false, capVal);
    assert.notEqual(r.termination, "optimal");
    assert.equal(r.success, false);
    assert.deepEqual(r["unmet_demand"], {});
  });
}
