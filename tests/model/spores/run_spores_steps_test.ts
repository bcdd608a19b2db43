/** runSpores() over a stub solve: the stops (infeasible, cancel) and what each solve is given. */
import assert from "node:assert/strict";
import { ModelValidationError } from "../../../lib/model/model_problem.ts";
import type { ResolvedModel } from "../../../lib/model/preprocess/resolved_model.ts";
import {
  INFEASIBLE_SPORE_WARNING,
  runSpores,
  type SolveSpore,
} from "../../../lib/model/spores/run_spores.ts";
import { sporesOptions } from "../../../lib/model/spores/spores_options.ts";
import type { RunResult } from "../../../lib/results/run_result.ts";
import { keepLog, nationalSporesModel } from "./_spores_national.ts";

const model = await nationalSporesModel();
const OPTIONS = sporesOptions({ slack_cost_group: "systemwide_cost_max", slack: 0.5 });

function result(
  ok: boolean,
  termination: RunResult["termination"] = ok ? "optimal" : "infeasible",
) {
  return {
    success: ok,
    termination,
    termination_condition: termination,
    objective: ok ? 10 : null,
    costs: ok
      ? { monetary: { "region1::ccgt": 60, "region2::battery": 40 }, spores_score: {} }
      : {},
    energy_cap: ok ? { "region1::ccgt": 5, "region2::battery": 0 } : {},
    warnings: ["a model warning"],
  } satisfies RunResult;
}

/** A solve answering `answers` in turn, keeping the models it was given. */
function stub(answers: RunResult[], onSolve: () => void = () => {}) {
  const seen: ResolvedModel[] = [];
  const solve: SolveSpore = (m) => {
    seen.push(m);
    onSolve();
    return Promise.resolve(answers[seen.length - 1]!);
  };
  return { seen, solve };
}

Deno.test("each spore gets the slacked cost_max, the new weights and the cumulative scores", async () => {
  const { seen, solve } = stub([result(true), result(true), result(true), result(true)]);
  const out = await runSpores(model, OPTIONS, solve, keepLog().hooks);
  assert.equal(seen[0], model);
  const group = (m: ResolvedModel) =>
    m.groupConstraints!.find((g) => g.group === "systemwide_cost_max")!.value;
  assert.equal(group(seen[1]!), 150); // Σ monetary over every loc::tech × 1.5
  assert.deepEqual(seen[1]!.objectiveWeights, { monetary: 0, spores_score: 1 });
  const score = (m: ResolvedModel, id: string) =>
    m.locTechs.find((l) => l.id === id)!.costs["spores_score"]!.energy_cap;
  assert.deepEqual([1, 2, 3].map((k) => score(seen[k]!, "region1::ccgt")), [100, 200, 300]);
  assert.deepEqual([1, 2, 3].map((k) => score(seen[k]!, "region2::battery")), [0, 0, 0]);
  // The monetary costs of the base model are untouched.
  assert.equal(
    seen[3]!.locTechs.find((l) => l.id === "region1::ccgt")!.costs["monetary"],
    model.locTechs.find((l) => l.id === "region1::ccgt")!.costs["monetary"],
  );
  assert.deepEqual(out.warnings, ["a model warning"]);
  assert.equal("spores" in out.spores[0]!, false);
});

Deno.test("an infeasible spore ends the run with Calliope's warning", async () => {
  const { seen, solve } = stub([result(true), result(true), result(false), result(true)]);
  const out = await runSpores(model, OPTIONS, solve, keepLog().hooks);
  assert.equal(seen.length, 3);
  assert.deepEqual(out.spores.map((s) => [s.spore, s.termination]), [
    [0, "optimal"],
    [1, "optimal"],
    [2, "infeasible"],
  ]);
  assert.deepEqual(out.warnings, ["a model warning", INFEASIBLE_SPORE_WARNING]);
  assert.equal(out.termination, "optimal");
});

Deno.test("an infeasible cost-optimal solve ends the run at spore 0", async () => {
  const { seen, solve } = stub([result(false)]);
  const out = await runSpores(model, OPTIONS, solve, keepLog().hooks);
  assert.equal(seen.length, 1);
  assert.equal(out.termination, "infeasible");
  assert.deepEqual(out.warnings, ["a model warning", INFEASIBLE_SPORE_WARNING]);
});

Deno.test("a cancel stops between solves", async () => {
  const ac = new AbortController();
  const { lines, hooks } = keepLog(ac.signal);
  const { seen, solve } = stub([result(true), result(true), result(true)], () => {
    if (seen.length === 2) ac.abort();
  });
  const out = await runSpores(model, OPTIONS, solve, hooks);
  assert.equal(seen.length, 2);
  assert.deepEqual(lines, ["spore 0 of 3", "spore 1 of 3"]);
  assert.deepEqual(out.warnings, ["a model warning", "SPORES cancelled after spore 1."]);
});

Deno.test("a solve cancelled within ends the run without the infeasible warning", async () => {
  const { solve } = stub([result(true), result(false, "interrupted")]);
  const out = await runSpores(model, OPTIONS, solve, keepLog().hooks);
  assert.deepEqual(out.warnings, ["a model warning", "SPORES cancelled during spore 1."]);
});

Deno.test("runSpores() throws the problems before any solve", async () => {
  const { seen, solve } = stub([]);
  await assert.rejects(
    runSpores(model, sporesOptions(), solve, keepLog().hooks),
    (e) => e instanceof ModelValidationError && e.problems[0]!.path.endsWith("slack_cost_group"),
  );
  await assert.rejects(
    runSpores(model, { ...OPTIONS, skip_cost_op: true }, solve, keepLog().hooks, 3),
    ModelValidationError,
  );
  assert.equal(seen.length, 0);
});
