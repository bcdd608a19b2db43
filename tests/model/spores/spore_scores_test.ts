import assert from "node:assert/strict";
import type { ResolvedModel } from "../../../lib/model/preprocess/resolved_model.ts";
import {
  addSporeScores,
  initialSporeScores,
  sporeScores,
} from "../../../lib/model/spores/spore_scores.ts";

/** Only what the scoring reads. */
function lt(id: string, c: { equals?: number; min?: number }, costs: Record<string, number>) {
  return {
    id,
    constraints: {
      energy_cap_min: c.min ?? 0,
      ...(c.equals === undefined ? {} : { energy_cap_equals: c.equals }),
    },
    sets: { investmentCost: Object.keys(costs).length > 0 },
    costs: Object.fromEntries(Object.entries(costs).map(([k, v]) => [k, { energy_cap: v }])),
  };
}

const model = {
  locTechs: [
    lt("a::free", {}, { spores_score: 0 }),
    lt("a::min", { min: 10 }, { spores_score: 0 }),
    lt("a::equals", { min: 5, equals: 20 }, { spores_score: 7 }),
    lt("a::monetary_only", {}, { monetary: 1 }),
    lt("a::demand", {}, {}),
  ],
} as unknown as ResolvedModel;

Deno.test("sporeScores() gives 100 beyond the forced capacity by more than 1e-3", () => {
  const caps = {
    "a::free": 0.002,
    "a::min": 10.0005,
    "a::equals": 20.01,
    "a::monetary_only": 50,
    "a::demand": 50,
  };
  assert.deepEqual(
    [...sporeScores(model, "spores_score", caps)],
    [["a::free", 100], ["a::min", 0], ["a::equals", 100]],
  );
  // energy_cap_equals is the forced capacity even when energy_cap_min is lower.
  assert.equal(sporeScores(model, "spores_score", { "a::equals": 19 }).get("a::equals"), 0);
  assert.equal(sporeScores(model, "spores_score", { "a::min": 10.002 }).get("a::min"), 100);
  // Nothing built: nothing scored.
  assert.equal(sporeScores(model, "spores_score", {}).get("a::free"), 0);
});

Deno.test("scores start from the model's own energy_cap cost and add up", () => {
  const init = initialSporeScores(model, "spores_score");
  assert.deepEqual([...init], [["a::free", 0], ["a::min", 0], ["a::equals", 7]]);
  const once = addSporeScores(init, sporeScores(model, "spores_score", { "a::equals": 30 }));
  const twice = addSporeScores(
    once,
    sporeScores(model, "spores_score", { "a::free": 1, "a::equals": 30 }),
  );
  assert.deepEqual([...twice], [["a::free", 100], ["a::min", 0], ["a::equals", 207]]);
});
