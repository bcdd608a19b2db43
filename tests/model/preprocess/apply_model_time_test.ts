import assert from "node:assert/strict";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { resolveModel } from "../../../lib/model/preprocess/resolve_model.ts";
import { ModelValidationError } from "../../../lib/model/model_problem.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

/** January 1-2 with ccgt's resource a finite constant (energy per step). */
const base = () =>
  importCalliopeModel(NATIONAL, {
    overrides: {
      "model.subset_time": ["2005-01-01", "2005-01-02"],
      "techs.ccgt.constraints.resource": 30000,
    },
  });

Deno.test("parameters.time resample equals time_resolution_h, a constant resource summed too", async () => {
  const viaTimeline = await base();
  viaTimeline.parameters.time_resolution_h = 6;
  const viaTime = await base();
  viaTime.parameters.time = { function: "resample", function_options: { resolution: "6H" } };
  const a = resolveModel(viaTimeline);
  const b = resolveModel(viaTime);
  assert.deepEqual(b.timestamps, a.timestamps);
  assert.deepEqual(b.resolution, a.resolution);
  for (const [i, lt] of a.locTechs.entries()) {
    assert.deepEqual(b.locTechs[i]!.constraints.resource, lt.constraints.resource, lt.id);
  }
  const ccgt = b.locTechs.find((lt) => lt.id === "region1::ccgt")!;
  assert.equal(ccgt.constraints.resource, 6 * 30000);
});

Deno.test("parameters.time and time_resolution_h together are refused", async () => {
  const config = await base();
  config.parameters.time_resolution_h = 6;
  config.parameters.time = { function: "resample", function_options: { resolution: "6H" } };
  assert.throws(
    () => resolveModel(config),
    (e: unknown) =>
      e instanceof ModelValidationError && e.problems[0]!.path === "parameters.time" &&
      /either time_resolution_h or time/.test(e.problems[0]!.message),
  );
});

Deno.test("a clustering the data cannot take is a problem under parameters.time", async () => {
  const config = await base();
  config.parameters.time = {
    function: "apply_clustering",
    function_options: { clustering_func: "hierarchical", how: "mean" },
  };
  assert.throws(
    () => resolveModel(config),
    (e: unknown) =>
      e instanceof ModelValidationError &&
      e.problems.some((p) => p.path.startsWith("parameters.time.function_options")),
  );
});
