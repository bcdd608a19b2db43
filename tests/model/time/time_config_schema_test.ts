/** `parameters.time`: Calliope 0.6.10's `model.time` shape, its options and nothing else. */
import assert from "node:assert/strict";
import { z } from "zod";
import { timeConfigSchema } from "../../../lib/model/time/time_config_schema.ts";

interface Issue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly errors?: readonly (readonly Issue[])[];
}

/** Issues as lib/model/parse_model_config.ts reads a union's: its deep branch with fewest. */
function flat(issue: Issue, prefix: readonly PropertyKey[]): { path: string; message: string }[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors && issue.errors.length > 0) {
    const deep = issue.errors.filter((b) => b.some((i) => i.path.length > 0));
    if (deep.length > 0) {
      return deep.reduce((a, b) => (b.length < a.length ? b : a)).flatMap((i) => flat(i, path));
    }
  }
  return [{ path: path.join("."), message: issue.message }];
}

function issues(input: unknown): { path: string; message: string }[] {
  const parsed = timeConfigSchema.safeParse(input);
  assert.ok(!parsed.success, "expected the settings to be refused");
  return parsed.error.issues.flatMap((i) => flat(i as Issue, []));
}

Deno.test("timeConfigSchema reads the examples' time scenarios as Calliope writes them", async (t) => {
  // data/models/calliope_national_scale/scenarios.yaml: time_resampling, time_clustering;
  // data/models/calliope_urban_scale/scenarios.yaml: time_masking.
  await t.step("time_resampling", () => {
    const input = { function: "resample", function_options: { resolution: "6H" } };
    assert.deepEqual(timeConfigSchema.parse(input), input);
  });
  await t.step("time_clustering", () => {
    const input = {
      function: "apply_clustering",
      function_options: { clustering_func: "kmeans", how: "closest", k: 10 },
    };
    assert.deepEqual(timeConfigSchema.parse(input), input);
  });
  await t.step("time_masking", () => {
    const input = {
      masks: [{
        function: "extreme_diff",
        options: { tech0: "demand_heat", tech1: "demand_electricity", how: "max", n: 2 },
      }],
      function: "resample",
      function_options: { resolution: "6H" },
    };
    assert.deepEqual(timeConfigSchema.parse(input), input);
  });
});

Deno.test("timeConfigSchema takes every option Calliope has", () => {
  const parsed = timeConfigSchema.parse({
    masks: [
      { function: "zero", options: { tech: "csp", var: "resource", locs: ["region1-1"] } },
      {
        function: "extreme",
        options: {
          tech: "csp",
          var: "resource",
          how: "min",
          length: "2D",
          n: 2,
          groupby_length: "W",
          padding: "calendar_week",
          normalize: false,
          locs: "region1-1",
        },
      },
      { function: "extreme_diff", options: { tech0: "a", tech1: "b", costs: "monetary" } },
    ],
    function: "apply_clustering",
    function_options: {
      clustering_func: "file=clusters.csv:a",
      how: "mean",
      k: 3,
      normalize: true,
      scale_clusters: null,
      storage_inter_cluster: false,
      variables: "resource",
      tech: ["csp", "demand_power"],
    },
  });
  assert.ok(parsed.function === "apply_clustering");
  assert.equal(parsed.function_options.variables, "resource");
  assert.deepEqual(parsed.function_options.tech, ["csp", "demand_power"]);
  assert.equal(parsed.masks?.length, 3);
  assert.deepEqual(timeConfigSchema.parse({ masks: [] }), { masks: [] });
  assert.deepEqual(timeConfigSchema.parse({}), {});
  assert.deepEqual(timeConfigSchema.parse({ function: null }), { function: null });
  assert.deepEqual(
    timeConfigSchema.parse({ function: "drop", function_options: { timesteps: ["2005-01-01"] } }),
    { function: "drop", function_options: { timesteps: ["2005-01-01"] } },
  );
});

Deno.test("timeConfigSchema refuses options Calliope does not have, naming them", async (t) => {
  await t.step("resample takes only resolution", () => {
    assert.deepEqual(
      issues({ function: "resample", function_options: { resolution: "2H", how: "sum" } }),
      [{
        path: "function_options",
        message: "unknown option(s) how: resample takes resolution",
      }],
    );
  });
  await t.step("apply_clustering", () => {
    assert.deepEqual(
      issues({
        function: "apply_clustering",
        function_options: { clustering_func: "kmeans", how: "mean", n_clusters: 3, seed: 1 },
      }),
      [{
        path: "function_options",
        message: "unknown option(s) n_clusters, seed: apply_clustering takes clustering_func, " +
          "how, k, normalize, scale_clusters, storage_inter_cluster, variables, tech",
      }],
    );
  });
  await t.step("a mask", () => {
    const found = issues({
      masks: [{ function: "extreme", options: { tech: "csp", threshold: 1 } }],
    });
    assert.deepEqual(found.map((i) => i.path), ["masks.0.options"]);
    assert.match(found[0]!.message, /^unknown option\(s\) threshold: extreme takes tech, var/);
  });
  await t.step("zero has no extreme settings", () => {
    const found = issues({ masks: [{ function: "zero", options: { tech: "csp", n: 2 } }] });
    assert.match(found[0]!.message, /^unknown option\(s\) n: zero takes tech, var, locs, costs$/);
  });
  await t.step("drop", () => {
    const found = issues({ function: "drop", function_options: { timestep: ["2005-01-01"] } });
    assert.match(found[0]!.message, /^unknown option\(s\) timestep: drop takes timesteps$/);
  });
  await t.step("keys beside masks, function and function_options", () => {
    const found = issues({ function: "resample", function_options: { resolution: "2H" }, k: 2 });
    assert.deepEqual(found.map((i) => i.path), [""]);
    assert.equal(
      found[0]!.message,
      "unknown key(s) k: parameters.time takes masks, function, function_options",
    );
  });
});

Deno.test("timeConfigSchema refuses wrong values at their paths", () => {
  assert.deepEqual(issues({ function: "cluster" }).map((i) => i.path), ["function"]);
  assert.deepEqual(issues({ function: "resample" }).map((i) => i.path), ["function_options"]);
  assert.deepEqual(
    issues({
      function: "apply_clustering",
      function_options: { clustering_func: "dbscan", how: "median", k: 0 },
    })
      .map((i) => i.path),
    ["function_options.clustering_func", "function_options.how", "function_options.k"],
  );
  assert.deepEqual(
    issues({ masks: [{ function: "extreme", options: { tech: "csp", n: 1.5, how: "avg" } }] })
      .map((i) => i.path),
    ["masks.0.options.how", "masks.0.options.n"],
  );
  assert.deepEqual(issues({ masks: [{ function: "peak", options: {} }] }).map((i) => i.path), [
    "masks.0.function",
  ]);
  assert.deepEqual(issues({ masks: [{ function: "zero" }] }).map((i) => i.path), [
    "masks.0.options",
  ]);
});

Deno.test("timeConfigSchema renders as JSON Schema, for input and output", () => {
  for (const io of ["input", "output"] as const) {
    const schema = JSON.stringify(z.toJSONSchema(timeConfigSchema, { io }));
    assert.match(schema, /storage_inter_cluster/);
    assert.match(schema, /calendar_week/);
  }
});
