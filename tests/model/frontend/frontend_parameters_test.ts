import assert from "node:assert/strict";
import { newFrontendContext } from "../../../lib/model/frontend/frontend_context.ts";
import {
  readFrontendParameters,
  solverMethod,
} from "../../../lib/model/frontend/frontend_parameters.ts";

Deno.test("solverMethod() maps the frontend's method to HiGHS's solver option", async (t) => {
  const cases: [unknown, string | undefined][] = [
    ["simplex", "simplex"],
    ["dual simplex", "simplex"],
    ["IPM", "ipm"],
    ["barrier", "ipm"],
    ["interior point", "ipm"],
    ["pdlp", "pdlp"],
    ["auto", "choose"],
    [-1, "choose"],
    [1, "simplex"],
    [2, "ipm"],
    ["sifting", undefined],
  ];
  for (const [input, expected] of cases) {
    await t.step(`${JSON.stringify(input)} -> ${expected}`, () => {
      assert.equal(solverMethod(input), expected);
    });
  }
});

Deno.test("readFrontendParameters() keeps canonical parameters given as an object", () => {
  const ctx = newFrontendContext();
  const out = readFrontendParameters(
    { parameters: { subset_time: "2005-01", bigM: 1e9, ensure_feasibility: false } },
    ctx,
  );
  assert.deepEqual(out, { subset_time: "2005-01", bigM: 1e9, ensure_feasibility: false });
  assert.deepEqual(ctx.problems, []);
});

Deno.test("readFrontendParameters() takes the mode of metadata.runConfig only without a form", () => {
  const ctx = newFrontendContext();
  const out = readFrontendParameters(
    { metadata: { runConfig: { mode: "operate", operation: { window: 24, horizon: 48 } } } },
    ctx,
  );
  assert.deepEqual(ctx.problems, []);
  assert.equal(out["mode"], "operate");
  assert.deepEqual(out["operation"], { window: 24, horizon: 48 });
  const ctx2 = newFrontendContext();
  const out2 = readFrontendParameters(
    { metadata: { runConfig: { mode: "operate" } }, modelConfig: { mode: "plan" } },
    ctx2,
  );
  assert.deepEqual(ctx2.problems, []);
  assert.equal(out2["mode"], undefined);
  const ctx3 = newFrontendContext();
  readFrontendParameters({ metadata: { runConfig: { mode: "spores" } } }, ctx3);
  assert.deepEqual(ctx3.problems.map((p) => p.path), ["metadata.runConfig.mode"]);
});

Deno.test("readFrontendParameters() ignores one subset_time row alone, with a note", () => {
  const ctx = newFrontendContext();
  const out = readFrontendParameters(
    { parameters: [{ key: "subset_time_start", value: "2005-01-01" }] },
    ctx,
  );
  assert.equal(out["subset_time"], undefined);
  assert.match(ctx.notes[0]!, /must both be given/);
});

Deno.test("readFrontendParameters() takes Calliope's model.time and random_seed from the form", () => {
  const ctx = newFrontendContext();
  const time = {
    function: "apply_clustering",
    function_options: { clustering_func: "kmeans", how: "mean", k: 4 },
  };
  const out = readFrontendParameters(
    { modelConfig: { startDate: "2005-01-01", endDate: "2005-01-31", time, randomSeed: 23 } },
    ctx,
  );
  assert.deepEqual(out["time"], time);
  assert.equal(out["random_seed"], 23);
  assert.deepEqual(ctx.problems, []);
});
