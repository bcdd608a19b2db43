/**
 * Calliope 0.6.10 `test_constraint_results.py::TestModelConstraints::test_reserve_margin`: the
 * national-scale example with its `reserve_margin` scenario (10 % on power), imported unchanged
 * and solved by the runner's real pipeline, costs 282487.35489 (pytest's approx: 1e-6 relative).
 */
import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import { prepareModel } from "../../lib/model/preprocess/resolve_model.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";
import { buildTestModel, solveTestModel } from "./_calliope_test_model.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";
import { row } from "../lp/_lp_row.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;

const runner = await createHighsModelRunner();

const sumCost = (result: RunResult) =>
  Object.values(result["costs"] as Record<string, Record<string, number>>)
    .flatMap((byLocTech) => Object.values(byLocTech))
    .reduce((a, b) => a + b, 0);

Deno.test("national-scale example, scenario reserve_margin: Calliope's cost 282487.35489", async () => {
  const config = await importCalliopeModel(NATIONAL, { scenario: "reserve_margin" });
  assert.deepEqual(config.parameters.reserve_margin, { power: 0.1 });
  // Calliope's (commented-out) check of the constraint string, on our LP row.
  const prepared = prepareModel(config);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const { lp } = buildLp(prepared.model);
  const { terms, lower } = row(lp, "reserve_margin_constraint[power]");
  const t = "2005-01-05T16:00:00";
  assert.deepEqual(terms, {
    "energy_cap[region1::ccgt]": 1,
    "energy_cap[region1-1::csp]": 1,
    "energy_cap[region1-2::csp]": 1,
    "energy_cap[region1-3::csp]": 1,
    [`carrier_con[region1::demand_power::power,${t}]`]: 1.1,
    [`carrier_con[region2::demand_power::power,${t}]`]: 1.1,
  });
  assert.equal(lower, 0);
  const result = await solveOptimal(runner, config);
  const cost = sumCost(result);
  const expected = 282487.35489;
  assert.ok(
    Math.abs(cost - expected) <= 1e-6 * expected,
    `sum of cost ${cost} is not within 1e-6 of ${expected}`,
  );
});

// test_backend_pyomo.py::TestConstraintSets::test_carriers_reserve_margin_constraint checks that
// Pyomo built `reserve_margin_constraint`; here: our LP has the row, and the model solves.
Deno.test("test model, reserve_margin.electricity 0.01: the row is built and the run optimal", async () => {
  const options = {
    override: { model: { reserve_margin: { electricity: 0.01 } } },
    scenario: "simple_supply,two_hours,investment_costs",
  };
  const prepared = prepareModel(await buildTestModel(options));
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const { lp } = buildLp(prepared.model);
  const rows = nameArray(lp.rowNames).filter((n) => n.startsWith("reserve_margin_constraint"));
  assert.deepEqual(rows, ["reserve_margin_constraint[electricity]"]);
  await solveTestModel(options);
});
