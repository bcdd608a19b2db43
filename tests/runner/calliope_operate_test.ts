/**
 * `run.operation.use_cap_results` through the importer and the runner: the national `operate`
 * scenario over three days is solved in plan mode first, and its capacities fix the operate
 * windows (Calliope runs plan then operate on the same model).
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;
const runner = await createHighsModelRunner();

Deno.test("use_cap_results: operate on the capacities of a plan solve of the same model", async () => {
  const days = { "model.subset_time": ["2005-01-01", "2005-01-03"] };
  const plan = await solveOptimal(
    runner,
    await importCalliopeModel(NATIONAL, {
      scenario: "operate",
      overrides: { ...days, "run.mode": "plan" },
    }),
  );
  const config = await importCalliopeModel(NATIONAL, {
    scenario: "operate",
    overrides: { ...days, "run.operation.use_cap_results": true },
  });
  const log: string[] = [];
  const prepared = runner.prepare(config);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const operate = await runner.run(prepared.model, {
    log: (line) => log.push(line),
    progress: () => {},
    signal: new AbortController().signal,
  });
  assert.equal(operate.termination, "optimal");
  assert.ok(log.some((l) => /use_cap_results: solving in plan mode/.test(l)));
  assert.ok(log.some((l) => /window 6 of 6/.test(l)));
  const planCaps = plan["energy_cap"] as Record<string, number>;
  const fixedCaps = operate["energy_cap"] as Record<string, number>;
  for (const id of ["region1-1::csp", "region2::battery", "region1::ccgt"]) {
    assert.ok(Math.abs(fixedCaps[id]! - planCaps[id]!) <= 1e-6 * Math.max(1, planCaps[id]!), id);
  }
  assert.ok(planCaps["region1-1::csp"]! > 0, "the plan built csp");
});
