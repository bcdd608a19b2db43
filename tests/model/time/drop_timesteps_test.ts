/** Calliope 0.6.10's TestFuncs drop tests (`calliope/test/test_core_time.py`) ported. */
import assert from "node:assert/strict";
import { drop, dropTimesteps } from "../../../lib/model/time/drop_timesteps.ts";
import { exampleTimeData, ms, stamp } from "./_time_fixtures.ts";

const national = await exampleTimeData("national", "2005-01");

Deno.test("drop() removes two timesteps and spreads their weight (test_drop)", () => {
  const outcome = drop(national, ["2005-01-01 23:00", "2005-01-01 22:00"]);
  assert.ok(outcome.ok);
  const data = outcome.result.data;
  assert.equal(data.timestamps.length, 742);
  const kept = new Set(data.timestamps.map(stamp));
  assert.ok(!kept.has("2005-01-01 22:00:00"));
  assert.ok(!kept.has("2005-01-01 23:00:00"));
  assert.ok(kept.has("2005-01-01 21:00:00"));
  assert.deepEqual(new Set(data.weights), new Set([1 + 2 / 742]));
  assert.ok(data.variables.every((v) => v.values.length === 742));
  const demand = national.variables.find((v) => v.locTech === "region1::demand_power")!;
  const after = data.variables.find((v) => v.locTech === "region1::demand_power")!;
  assert.deepEqual(after.values.slice(20, 24), [
    ...demand.values.slice(20, 22),
    ...demand.values.slice(24, 26),
  ]);
});

Deno.test("drop() refuses invalid timesteps (test_drop_invalid_timesteps)", () => {
  const outcome = drop(national, ["XXX2005-01-01 23:00"]);
  assert.ok(!outcome.ok);
  assert.deepEqual(outcome.problems, [{
    path: "parameters.time.function_options.timesteps[0]",
    message: '"XXX2005-01-01 23:00" is not a timestamp like 2005-01-01 23:00',
  }]);
});

Deno.test("drop() refuses a timestep the model does not have, and dropping them all", () => {
  const outcome = drop(national, ["2005-01-01 00:00", "2005-02-01 00:00"]);
  assert.ok(!outcome.ok);
  assert.deepEqual(outcome.problems, [{
    path: "parameters.time.function_options.timesteps[1]",
    message: "the model has no timestep 2005-02-01 00:00",
  }]);
  const all = drop(national, national.timestamps.map(stamp));
  assert.ok(!all.ok);
  assert.match(all.problems[0]!.message, /no timestep/);
});

Deno.test("dropTimesteps() spreads uneven weights evenly", () => {
  const data = {
    timestamps: [0, 1, 2].map((h) => ms("2005-01-01 00:00") + h * 3_600_000),
    resolution: [1, 1, 1],
    weights: [1, 4, 2],
    variables: [{ variable: "resource", locTech: "a::pv", values: [3, 4, 5] }],
  };
  const out = dropTimesteps(data, [1]);
  assert.deepEqual(out.weights, [3, 4]);
  assert.deepEqual(out.variables[0]!.values, [3, 5]);
  assert.equal(out.weights.reduce((a, b) => a + b), 7);
});
