import assert from "node:assert/strict";
import { buildRunModel } from "../../lib/backend/run_model.ts";
import { buildSweepModels, scenarioLabel } from "../../lib/backend/run_sweep.ts";

const fixture = () =>
  JSON.parse(
    Deno.readTextFileSync(
      new URL("../fixtures/model/national_scale_frontend.json", import.meta.url),
    ),
  );

/** The frontend fixture with two override groups of its own (frontend `overrides`). */
function withOverrides(): Record<string, unknown> {
  const model = fixture();
  model.overrides = {
    cheap_gas: { "techs.ccgt.costs.monetary.energy_cap": 100 },
    dear_gas: { "techs.ccgt.costs.monetary.energy_cap": 2000 },
    broken: { "techs.ccgt.constraints.energy_cap_max": "lots" },
  };
  return model;
}

Deno.test("sweep: one checked model per scenario, the model's own scenario replaced", () => {
  const model = withOverrides();
  model.parameters = [];
  const sweep = buildSweepModels(model, { parameters: { time_resolution_h: 2 } }, [
    "cheap_gas",
    ["cheap_gas", "dear_gas"],
    " dear_gas ",
  ]);
  assert.ok(sweep.ok, JSON.stringify(!sweep.ok && sweep.problems));
  assert.deepEqual(sweep.runs.map((r) => r.label), ["cheap_gas", "cheap_gas,dear_gas", "dear_gas"]);
  const parameters = sweep.runs.map((r) => r.model["parameters"] as Record<string, unknown>);
  assert.deepEqual(parameters.map((p) => p["scenario"]), [
    "cheap_gas",
    ["cheap_gas", "dear_gas"],
    " dear_gas ",
  ]);
  assert.ok(parameters.every((p) => p["time_resolution_h"] === 2));
  assert.equal(scenarioLabel(["a", " b "]), "a,b");
});

Deno.test("sweep: every scenario's problems under scenarios[i]; the model's own once", () => {
  const sweep = buildSweepModels(withOverrides(), {}, ["cheap_gas", "nope", "broken"]);
  assert.ok(!sweep.ok);
  assert.deepEqual(sweep.problems.map((p) => p.path), [
    "scenarios[1]",
    "scenarios[2].parameters.overrides.broken.techs.ccgt.constraints.energy_cap_max",
  ]);
  assert.match(sweep.problems[0]!.message, /override "nope" is not defined/);

  // A problem the frontend reader finds is the saved body's, before any scenario.
  const bad = withOverrides();
  (bad["technologies"] as Record<string, unknown>[]).push({ name: "x", parent: "moon" });
  const read = buildSweepModels(bad, {}, ["cheap_gas", "nope"]);
  assert.ok(!read.ok);
  assert.deepEqual(read.problems.map((p) => p.path), ["technologies[6].parent"]);

  // One the canonical model has with or without a scenario is named once, at its own path.
  const canonical = buildRunModel(withOverrides());
  assert.ok(canonical.ok);
  const model = canonical.model;
  model["parameters"] = { ...model["parameters"] as object, bigM: -1 };
  const both = buildSweepModels(model, {}, ["cheap_gas", "nope"]);
  assert.ok(!both.ok);
  // (The model is parsed before any scenario applies: "nope" is not reached.)
  assert.deepEqual(both.problems.map((p) => p.path), ["parameters.bigM"]);
});
