/**
 * Calliope 0.6.10's test_nationalscale_skip_cost_op_spores: a model whose inputs are those of
 * spore k+1 of a full run (its slack cost_max and score costs; Calliope passes that spore's
 * model data relabelled as spore k) run with skip_cost_op from spore k gives spores k+1..3 of the
 * full run again. Calliope's result also lists spore k, whose data it was given; ours lists only
 * what it solved.
 */
import assert from "node:assert/strict";
import { runSpores } from "../../../lib/model/spores/run_spores.ts";
import { sporeModel } from "../../../lib/model/spores/spore_model.ts";
import { keepLog, nationalSporesModel, SCENARIO_OPTIONS, solveHere } from "./_spores_national.ts";

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}

Deno.test("runSpores() with skip_cost_op from spore k repeats spores k+1..3", async () => {
  const model = await nationalSporesModel();
  const solve = await solveHere();
  const base = await runSpores(model, SCENARIO_OPTIONS, solve, keepLog().hooks);
  for (const init of [0, 1, 2]) {
    const from = base.spores[init + 1]!;
    const inputs = sporeModel(model, {
      slackGroup: "systemwide_cost_max",
      slackCostMax: from.slack_cost_max,
      objectiveWeights: model.objectiveWeights,
      scoreClass: "spores_score",
      scores: new Map(Object.entries(from.score_costs)),
    });
    const { lines, hooks } = keepLog();
    const out = await runSpores(
      inputs,
      { ...SCENARIO_OPTIONS, skip_cost_op: true },
      solve,
      hooks,
      init,
    );
    const expected = [1, 2, 3].filter((k) => k > init);
    assert.deepEqual(out.spores.map((s) => s.spore), expected);
    assert.equal(lines.filter((l) => l.startsWith("spore ")).length, expected.length);
    assert.equal(out.objective, out.spores[0]!.objective);
    for (const s of out.spores) {
      const b = base.spores[s.spore]!;
      assert.deepEqual(s.objective_weights, b.objective_weights);
      assert.deepEqual(s.score_costs, b.score_costs);
      for (const [cls, v] of Object.entries(b.costs_by_class)) {
        assert.ok(close(s.costs_by_class[cls]!, v), `spore ${s.spore} ${cls}`);
      }
      const cap = s["energy_cap"] as Record<string, number>;
      for (const [id, v] of Object.entries(b["energy_cap"] as Record<string, number>)) {
        assert.ok(close(cap[id]!, v), `spore ${s.spore} ${id}: ${cap[id]} vs ${v}`);
      }
    }
  }
});
