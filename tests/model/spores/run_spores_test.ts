/**
 * Calliope 0.6.10's TestNationalScaleExampleModelSpores (test_example_models.py), the facts it
 * checks of the solves: spores 0..3, spore 0's monetary cost × (1 + slack) is the slack limit,
 * later spores within it (× 1.0001), the spores score never decreasing, the final weights.
 */
import assert from "node:assert/strict";
import { runSpores } from "../../../lib/model/spores/run_spores.ts";
import { keepLog, nationalSporesModel, SCENARIO_OPTIONS, solveHere } from "./_spores_national.ts";

Deno.test("runSpores() on the national example's spores scenario: Calliope's checks", async () => {
  const model = await nationalSporesModel();
  // The initial objective weights: monetary 1, spores_score 0.
  assert.deepEqual(model.objectiveWeights, { monetary: 1, spores_score: 0 });
  const { lines, hooks } = keepLog();
  const out = await runSpores(model, SCENARIO_OPTIONS, await solveHere(), hooks);
  assert.deepEqual(out.spores.map((s) => s.spore), [0, 1, 2, 3]);
  assert.deepEqual(lines, ["spore 0 of 3", "spore 1 of 3", "spore 2 of 3", "spore 3 of 3"]);
  assert.equal(out.termination, "optimal");
  assert.equal(out.objective, out.spores[0]!.objective);
  assert.deepEqual(out.warnings, []);

  const monetary = out.spores.map((s) => s.costs_by_class["monetary"]!);
  const slackCost = out.spores[1]!.slack_cost_max["monetary"]!;
  // Spore 0 is the cost-optimal solve, the others come up against the slack cost.
  assert.ok(Math.abs(monetary[0]! * 1.1 - slackCost) <= 1e-6 * slackCost);
  for (const c of monetary.slice(1)) assert.ok(c <= slackCost * 1.0001, `${c} > ${slackCost}`);
  // Spore 0 was solved with the model's own limit.
  assert.equal(out.spores[0]!.slack_cost_max["monetary"], 1e10);

  // The spores score never decreases.
  const score = out.spores.map((s) => s.costs_by_class["spores_score"]!);
  for (let k = 1; k < score.length; k++) assert.ok(score[k]! >= score[k - 1]!, `${score}`);
  assert.ok(score[3]! > 0);

  // The weights: monetary first, spores_score from spore 1 on.
  assert.deepEqual(out.spores[0]!.objective_weights, { monetary: 1, spores_score: 0 });
  assert.deepEqual(out.spores[3]!.objective_weights, { monetary: 0, spores_score: 1 });

  // The score reaches the objective as Calliope's cost_investment: score × depreciation (interest
  // rate 1: 2^L/(2^L−1)) × the period's share of a year × capacity, halved at each link end.
  const W = 72 / 8760;
  for (const s of out.spores.slice(1)) {
    const cap = s["energy_cap"] as Record<string, number>;
    const cost = (s["costs"] as Record<string, Record<string, number>>)["spores_score"]!;
    let total = 0;
    for (const lt of model.locTechs) {
      const score = s.score_costs[lt.id];
      if (score === undefined) continue;
      const dep = lt.costs["spores_score"]!.depreciation;
      const L = lt.constraints.lifetime!;
      assert.ok(Math.abs(dep - 2 ** L / (2 ** L - 1)) < 1e-12);
      const want = score * dep * W * cap[lt.id]! / (lt.type === "transmission" ? 2 : 1);
      assert.ok(Math.abs(cost[lt.id]! - want) <= 1e-6 * Math.max(1, want), lt.id);
      total += want;
    }
    assert.ok(Math.abs(s.objective! - total) <= 1e-6 * Math.max(1, total));
  }

  // Every spore keeps its tables.
  for (const s of out.spores) {
    for (const t of ["energy_cap", "storage_cap", "costs", "carrier_prod", "cost_investment"]) {
      assert.ok(s[t] !== undefined, `spore ${s.spore} has ${t}`);
    }
  }
});
