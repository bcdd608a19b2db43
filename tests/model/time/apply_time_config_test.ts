/**
 * `applyTimeConfig`: Calliope 0.6.10's apply_time_clustering, masks first and the function on
 * the timesteps they did not pick, on the examples and the test model.
 */
import assert from "node:assert/strict";
import { applyTimeConfig } from "../../../lib/model/time/apply_time_config.ts";
import { type TimeConfig, timeConfigSchema } from "../../../lib/model/time/time_config_schema.ts";
import type { TimeData, TimeOutcome } from "../../../lib/model/time/time_data.ts";
import { exampleTimeData, stamp, stamps, testModelTimeData } from "./_time_fixtures.ts";

const urban = await exampleTimeData("urban", "2005-01");
const national = await exampleTimeData("national", "2005-01");
const quarterHours = await testModelTimeData("demand_elec_15mins.csv");

const config = (input: unknown): TimeConfig => timeConfigSchema.parse(input);

function result(outcome: TimeOutcome) {
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return outcome.result;
}

function series(data: TimeData, locTech: string, variable = "resource"): readonly number[] {
  return data.variables.find((v) => v.locTech === locTech && v.variable === variable)!.values;
}

function near(actual: readonly number[], expected: readonly number[]) {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) =>
    assert.ok(Math.abs(a - expected[i]!) < 1e-9, `${i}: ${a} vs ${expected[i]}`)
  );
}

Deno.test("applyTimeConfig() runs the urban example's time_masking scenario", () => {
  // Expected values: Calliope 0.6.10's extreme_diff (masks.py, copied) and pandas 3 resample
  // of the rest (`.resample("6h").sum()` for resource, `.mean()` for cost_export, empty bins
  // dropped, masked rows concatenated and sorted), run offline on the same data.
  const { data, clusters, warnings } = result(applyTimeConfig(
    urban,
    config({
      masks: [{
        function: "extreme_diff",
        options: { tech0: "demand_heat", tech1: "demand_electricity", how: "max", n: 2 },
      }],
      function: "resample",
      function_options: { resolution: "6H" },
    }),
  ));
  assert.equal(clusters, undefined);
  assert.deepEqual(warnings, []);
  assert.equal(data.timestamps.length, 164); // 2 days at 1 h, 29 at 6 h
  const times = data.timestamps.map(stamp);
  assert.deepEqual(times.slice(0, 24), stamps("2005-01-01 00:00", "2005-01-02 00:00", 60));
  assert.deepEqual(times.slice(24, 44), stamps("2005-01-02 00:00", "2005-01-07 00:00", 360));
  assert.deepEqual(times.slice(44, 68), stamps("2005-01-07 00:00", "2005-01-08 00:00", 60));
  assert.deepEqual(data.resolution.slice(20, 28), [1, 1, 1, 1, 6, 6, 6, 6]);
  assert.deepEqual(new Set(data.weights), new Set([1]));
  assert.equal(data.resolution.reduce((a, b) => a + b), 744);
  near(series(data, "X1::demand_heat").slice(0, 6), [
    -4.348485824,
    -4.516168088,
    -4.74699871,
    -4.987144125,
    -5.156719251,
    -5.383694341,
  ]);
  near(series(data, "X1::demand_heat").slice(-4), [
    -24.2218227,
    -28.808718783,
    -24.762042041,
    -23.65393942,
  ]);
  near(series(data, "X1::chp", "cost_export").slice(0, 6), [
    -0.030204,
    -0.02608,
    -0.02422,
    -0.020788,
    -0.020432,
    -0.018288,
  ]);
});

Deno.test("applyTimeConfig() with masks alone changes nothing, as in Calliope", () => {
  const input = config({ masks: [{ function: "extreme", options: { tech: "pv" } }] });
  assert.equal(result(applyTimeConfig(urban, input)).data, urban);
});

Deno.test("applyTimeConfig() takes the union of the masks", () => {
  const { data } = result(applyTimeConfig(
    quarterHours,
    config({
      masks: [
        { function: "extreme", options: { tech: "test_demand_elec", how: "max" } },
        { function: "extreme", options: { tech: "test_demand_elec", how: "min", length: "6H" } },
      ],
      function: "resample",
      function_options: { resolution: "1D" },
    }),
  ));
  // Normalised (absolute) demand is smallest 00:00-06:00 and 18:00-24:00 of 1 January and 3
  // January (-5 each quarter hour): the first of these ties is picked; 2 January is kept whole;
  // the rest of each day is one step. 1 January's rest is labelled by its first timestep, 06:00,
  // not by its bin's left edge, 00:00, which a kept timestep holds.
  assert.deepEqual(data.timestamps.map(stamp), [
    ...stamps("2005-01-01 00:00", "2005-01-01 06:00", 15),
    "2005-01-01 06:00:00",
    ...stamps("2005-01-02 00:00", "2005-01-03 00:00", 15),
    "2005-01-03 00:00:00",
  ]);
  assert.deepEqual(data.resolution.slice(23, 26), [0.25, 18, 0.25]);
  assert.equal(data.resolution.at(-1), 24);
  assert.equal(data.resolution.reduce((a, b) => a + b), 72);
});

Deno.test("applyTimeConfig() drop with masks keeps only what they picked, weighted up", () => {
  const { data } = result(applyTimeConfig(
    quarterHours,
    config({
      masks: [{ function: "extreme", options: { tech: "test_demand_elec" } }],
      function: "drop",
    }),
  ));
  assert.deepEqual(data.timestamps.map(stamp), stamps("2005-01-02 00:00", "2005-01-03 00:00", 15));
  assert.deepEqual(new Set(data.weights), new Set([3]));
});

Deno.test("applyTimeConfig() drop with timesteps (Calliope's funcs.drop)", () => {
  const { data } = result(applyTimeConfig(
    quarterHours,
    config({ function: "drop", function_options: { timesteps: ["2005-01-01 00:00"] } }),
  ));
  assert.equal(data.timestamps.length, 287);
});

Deno.test("applyTimeConfig() names its problems under parameters.time", async (t) => {
  await t.step("every mask's problems, before any function", () => {
    const outcome = applyTimeConfig(
      urban,
      config({
        masks: [
          { function: "extreme", options: { tech: "pv" } },
          { function: "extreme", options: { tech: "boiler" } },
          { function: "extreme_diff", options: { tech0: "pv", tech1: "pv", n: 40 } },
        ],
        function: "resample",
        function_options: { resolution: "fortnightly" },
      }),
    );
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.problems.map((p) => p.path), [
      "parameters.time.masks[1].options.tech",
      "parameters.time.masks[2].options.n",
    ]);
  });
  await t.step("a resolution pandas could not read", () => {
    const outcome = applyTimeConfig(
      urban,
      config({ function: "resample", function_options: { resolution: "fortnightly" } }),
    );
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.problems.map((p) => p.path), [
      "parameters.time.function_options.resolution",
    ]);
  });
  await t.step("drop with masks and timesteps, or with neither", () => {
    const both = applyTimeConfig(
      urban,
      config({
        masks: [{ function: "extreme", options: { tech: "pv" } }],
        function: "drop",
        function_options: { timesteps: ["2005-01-01 00:00"] },
      }),
    );
    assert.ok(!both.ok);
    assert.deepEqual(both.problems.map((p) => p.path), [
      "parameters.time.function_options.timesteps",
    ]);
    const neither = applyTimeConfig(urban, config({ function: "drop" }));
    assert.ok(!neither.ok);
    assert.match(neither.problems[0]!.message, /drop needs the timesteps/);
  });
  await t.step("drop when the masks picked nothing", () => {
    const outcome = applyTimeConfig(
      urban,
      config({
        masks: [{ function: "zero", options: { tech: "demand_heat" } }],
        function: "drop",
      }),
    );
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.problems.map((p) => p.path), ["parameters.time.masks"]);
  });
});

Deno.test("applyTimeConfig() clusters the days the masks did not pick, the masked kept whole", () => {
  const { data, clusters } = result(applyTimeConfig(
    quarterHours,
    config({
      masks: [{ function: "extreme", options: { tech: "test_demand_elec" } }],
      function: "apply_clustering",
      function_options: { clustering_func: "kmeans", how: "mean", k: 1 },
    }),
  ));
  // 1 and 3 January are one cluster of two days; 2 January, masked, stays at 15 min, weight 1.
  assert.equal(data.timestamps.length, 192);
  const masked = data.timestamps.flatMap((t, i) => stamp(t).startsWith("2005-01-02") ? [i] : []);
  assert.deepEqual(
    masked.map((i) => stamp(data.timestamps[i]!)),
    stamps("2005-01-02 00:00", "2005-01-03 00:00", 15),
  );
  assert.ok(masked.every((i) => data.weights[i] === 1 && data.resolution[i] === 0.25));
  assert.ok(masked.every((i) => clusters!.timestepCluster[i] === -1));
  assert.equal(data.weights.reduce((a, b) => a + b), 288);
});

Deno.test("applyTimeConfig() hands file= clustering its context and the unmasked days", () => {
  const days = Array.from({ length: 31 }, (_, k) => Date.UTC(2005, 0, 1 + k));
  const asked: (string | undefined)[] = [];
  const { data, clusters } = result(applyTimeConfig(
    national,
    config({
      masks: [{ function: "extreme", options: { tech: "csp", n: 2 } }],
      function: "apply_clustering",
      function_options: { clustering_func: "file=clusters.csv:a", how: "mean" },
    }),
    {
      clusterSeries: (file, column) => {
        asked.push(file, column);
        return { timestamps: days, values: days.map((_, k) => k % 3) };
      },
    },
  ));
  assert.deepEqual(asked, ["clusters.csv", "a"]);
  // csp's two largest days (normalised) are 18 and 24 January: kept, weight 1, no cluster.
  const masked = data.timestamps.flatMap((t, i) =>
    clusters!.timestepCluster[i] === -1 ? [stamp(t)] : []
  );
  assert.deepEqual(masked, [
    ...stamps("2005-01-18 00:00", "2005-01-19 00:00", 60),
    ...stamps("2005-01-24 00:00", "2005-01-25 00:00", 60),
  ]);
  assert.equal(data.weights.reduce((a, b) => a + b), 744);
  const missing = applyTimeConfig(
    national,
    config({
      function: "apply_clustering",
      function_options: { clustering_func: "file=clusters.csv:a", how: "mean" },
    }),
  );
  assert.ok(!missing.ok);
  assert.deepEqual(missing.problems.map((p) => p.path), [
    "parameters.time.function_options.clustering_func",
  ]);
});
