/**
 * applyClustering() on Calliope's test model (tests/fixtures/calliope_test_model): the 15-minute
 * and mixed-resolution clustering cases and the predefined (`file=`) clusters of Calliope
 * 0.6.10's `test_core_time.py`.
 */
import assert from "node:assert/strict";
import {
  applyClustering,
  type ClusteringOptions,
} from "../../../lib/model/time/apply_clustering.ts";
import { clusterSeriesFrom } from "../../../lib/model/time/cluster_series.ts";
import { dateLabel } from "../../../lib/model/time/clustering_days.ts";
import type { TimeData, TimeResult } from "../../../lib/model/time/time_data.ts";
import { testModelTable, testModelTimeData } from "./_clustering_data.ts";

const tables = [await testModelTable("clusters.csv"), await testModelTable("cluster_days.csv")];
const context = { seed: 23, clusterSeries: clusterSeriesFrom(tables) };

function cluster(data: TimeData, options: ClusteringOptions): TimeResult {
  const outcome = applyClustering(data, options, context);
  if (!outcome.ok) assert.fail(JSON.stringify(outcome.problems));
  return outcome.result;
}

/** The cluster ids of a result (Calliope's `clusters.to_pandas().unique()`). */
function clusterIds(result: TimeResult): number[] {
  return [...new Set(result.clusters!.timestepCluster)].sort((a, b) => a - b);
}

function days(result: TimeResult): string[] {
  return [...new Set(result.data.timestamps.map(dateLabel))];
}

// The data is identical for 2005-01-01 and 2005-01-03, and differs on 2005-01-02.
const cases = [
  {
    name: "test_15min_clustering",
    file: "demand_elec_15mins.csv",
    resolution: Array.from({ length: 96 }, () => 0.25),
  },
  {
    name: "test_15min_to_2h_clustering",
    file: "demand_elec_15T_to_2h.csv",
    // deno-fmt-ignore
    resolution: [0.25, 0.25, 0.25, 0.25, 0.5, 0.5, 0.5, 0.5, 1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2],
  },
];
for (const { name, file, resolution } of cases) {
  Deno.test(`applyClustering() clusters days of uneven timesteps (${name})`, async () => {
    const data = await testModelTimeData("simple_supply,one_day", {
      "techs.test_demand_elec.constraints.resource": `file=${file}`,
      "model.subset_time": null,
    });
    for (const func of ["kmeans", "hierarchical"]) {
      const result = cluster(data, { clustering_func: func, how: "mean", k: 2 });
      assert.deepEqual(clusterIds(result), [0, 1]);
      const labels = days(result);
      assert.ok(labels.includes("2005-01-02"));
      assert.ok(labels.includes("2005-01-01") || labels.includes("2005-01-03"));
      assert.deepEqual(result.data.resolution, [...resolution, ...resolution]);
      // Days 1 and 3 are one cluster of two days, day 2 one of its own.
      assert.deepEqual(result.clusters!.datestepCluster, [0, 1, 0]);
      const day2 = result.data.timestamps.findIndex((t) => dateLabel(t) === "2005-01-02");
      assert.equal(result.data.weights[day2], 1);
      assert.equal(result.data.weights[day2 === 0 ? resolution.length : 0], 2);
    }
  });
}

Deno.test("applyClustering() refuses days of different timesteps", async () => {
  // 15-minute data cut at noon of the last day: that day has fewer timesteps.
  const data = await testModelTimeData("simple_supply,one_day", {
    "techs.test_demand_elec.constraints.resource": "file=demand_elec_15mins.csv",
    "model.subset_time": ["2005-01-01", "2005-01-03 11:45"],
  });
  const outcome = applyClustering(data, { clustering_func: "kmeans", how: "mean", k: 2 });
  assert.ok(!outcome.ok);
  assert.equal(outcome.problems[0]!.path, "parameters.time.function");
  assert.match(outcome.problems[0]!.message, /timestep resolution must be uniform.*2005-01-03/);
});

const fourDays = await testModelTimeData("simple_supply", {
  "model.subset_time": ["2005-01-01", "2005-01-04"],
});

Deno.test("applyClustering() takes predefined clusters from a file (test_predefined_clusters)", () => {
  const hourly = cluster(fourDays, { clustering_func: "file=clusters.csv:0", how: "mean" });
  assert.deepEqual(clusterIds(hourly), [0, 1, 2]);
  assert.deepEqual(hourly.clusters!.datestepCluster, [0, 1, 2, 1]);

  const daily = cluster(fourDays, { clustering_func: "file=cluster_days.csv:1", how: "mean" });
  assert.deepEqual(clusterIds(daily), [0, 1, 2]);
  // The modeller's ids are kept: 2005-01-01 is cluster 2.
  assert.deepEqual(daily.clusters!.datestepCluster, [2, 1, 0, 1]);
  // Cluster 1 (2005-01-02 and -04) is labelled by its middle member, 2005-01-04, weight 2.
  assert.deepEqual(days(daily), ["2005-01-01", "2005-01-03", "2005-01-04"]);
  assert.deepEqual(daily.data.weights, [
    ...Array(24).fill(1),
    ...Array(24).fill(1),
    ...Array(24).fill(2),
  ]);

  // Every day of the test model is alike, so all three clusters share one closest day.
  const closest = cluster(fourDays, { clustering_func: "file=cluster_days.csv:1", how: "closest" });
  assert.ok(closest.warnings.some((w) => w.includes("Creating 2 fewer clusters")));
  assert.deepEqual(clusterIds(closest), [0]);
  assert.deepEqual(closest.clusters!.datestepCluster, [0, 0, 0, 0]);
  assert.deepEqual(closest.data.weights, Array(24).fill(4));
});

Deno.test("applyClustering() with file= and how: mean gives the clusters' exact mean days", () => {
  const result = cluster(fourDays, {
    clustering_func: "file=cluster_days.csv:1",
    how: "mean",
    scale_clusters: null,
  });
  fourDays.variables.forEach((v, n) => {
    const out = result.data.variables[n]!.values;
    for (let h = 0; h < 24; h++) {
      assert.equal(out[h], v.values[h]); // cluster 2: 2005-01-01
      assert.equal(out[24 + h], v.values[48 + h]); // cluster 0: 2005-01-03
      assert.equal(out[48 + h], (v.values[24 + h]! + v.values[72 + h]!) / 2); // cluster 1
    }
  });
});

Deno.test("applyClustering() refuses bad predefined clusters (test_predefined_clusters_fail)", async (t) => {
  const cases: [string, TimeData, string, RegExp][] = [
    [
      "no column given",
      fourDays,
      "file=clusters.csv",
      /No time clustering column given, but multiple columns found in clusters\.csv/,
    ],
    [
      "unknown column",
      fourDays,
      "file=clusters.csv:1",
      /time clustering column 1 not found in clusters\.csv/,
    ],
    [
      "two clusters on a day",
      fourDays,
      "file=clusters.csv:b",
      /More than one cluster value assigned to a day in `clusters\.csv:b`.*2005-01-02: 0, 1/,
    ],
    ["unknown file", fourDays, "file=nothing.csv:0", /no time series nothing\.csv/],
    [
      "days without a cluster",
      await testModelTimeData("simple_supply", {
        "model.subset_time": ["2005-01-01", "2005-01-06"],
      }),
      "file=cluster_days.csv:1",
      /Missing cluster days in `cluster_days\.csv:1`: no cluster for 2005-01-05/,
    ],
  ];
  for (const [name, data, func, message] of cases) {
    await t.step(name, () => {
      const outcome = applyClustering(data, { clustering_func: func, how: "mean" }, context);
      assert.ok(!outcome.ok);
      assert.equal(outcome.problems[0]!.path, "parameters.time.function_options.clustering_func");
      assert.match(outcome.problems[0]!.message, message);
    });
  }
});
