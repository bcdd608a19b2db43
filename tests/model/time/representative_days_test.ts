import assert from "node:assert/strict";
import { applyClustering } from "../../../lib/model/time/apply_clustering.ts";
import { clusterSeriesFrom } from "../../../lib/model/time/cluster_series.ts";
import { formatMs, timestampMs } from "../../../lib/model/preprocess/time_window.ts";
import { representativeDays } from "../../../lib/model/time/representative_days.ts";
import { DAY_MS, HOUR_MS, type TimeData } from "../../../lib/model/time/time_data.ts";

// Four days of two 12-hour steps; one series whose days are 0, 1, 1.1 and 5.
const start = timestampMs("2005-01-01T00:00:00");
const timestamps = [0, 1, 2, 3].flatMap((d) =>
  [0, 12].map((h) => start + d * DAY_MS + h * HOUR_MS)
);
const data: TimeData = {
  timestamps,
  resolution: timestamps.map(() => 12),
  weights: timestamps.map(() => 1),
  variables: [{ variable: "resource", locTech: "a::demand", values: [0, 0, 1, 1, 1.1, 1.1, 5, 5] }],
};
const days = {
  dates: [0, 1, 2, 3].map((d) => start + d * DAY_MS),
  steps: [[0, 1], [2, 3], [4, 5], [6, 7]],
  offsets: [0, 12 * HOUR_MS],
  resolution: [12, 12],
};

Deno.test("representativeDays() mean: the members' mean, dated by the middle member", () => {
  const reps = representativeDays(data.variables, days, [0, 1, 1, 1], "mean");
  assert.deepEqual(reps.days.map((d) => d.size), [1, 3]);
  assert.deepEqual(reps.days.map((d) => formatMs(d.date)), [
    "2005-01-01T00:00:00",
    "2005-01-03T00:00:00", // members 01-02, 01-03, 01-04: index int(3 / 2) = 1
  ]);
  assert.ok(Math.abs(reps.days[1]!.values[0]![0]! - 7.1 / 3) < 1e-12);
});

Deno.test("representativeDays() closest merges clusters that share a closest day", () => {
  // Cluster 1 (days 2 and 4, mean 3) is closest to day 3 (1.1), which is cluster 2's own day.
  const reps = representativeDays(data.variables, days, [0, 1, 2, 1], "closest");
  assert.deepEqual(reps.labels, [0, 1, 1, 1]);
  assert.deepEqual(reps.warnings, [
    "Creating 1 fewer clusters as some clusters share the same closest day",
  ]);
  assert.deepEqual(reps.days.map((d) => [formatMs(d.date), d.size, d.values[0]]), [
    ["2005-01-01T00:00:00", 1, [0, 0]],
    ["2005-01-03T00:00:00", 3, [1.1, 1.1]],
  ]);
});

Deno.test("applyClustering() closest: merged clusters keep the weights of all their days", () => {
  const table = {
    id: "c",
    timestamps: days.dates.map(formatMs),
    columns: { k: [0, 1, 2, 1] },
  };
  const outcome = applyClustering(
    data,
    { clustering_func: "file=c.csv", how: "closest", scale_clusters: null },
    { clusterSeries: clusterSeriesFrom([table]) },
  );
  assert.ok(outcome.ok);
  const { data: out, clusters, warnings } = outcome.result;
  assert.equal(warnings.length, 1);
  assert.deepEqual(out.timestamps.map(formatMs), [
    "2005-01-01T00:00:00",
    "2005-01-01T12:00:00",
    "2005-01-03T00:00:00",
    "2005-01-03T12:00:00",
  ]);
  assert.deepEqual(out.weights, [1, 1, 3, 3]);
  assert.deepEqual(out.resolution, [12, 12, 12, 12]);
  assert.deepEqual(clusters, {
    timestepCluster: [0, 0, 1, 1],
    datesteps: days.dates,
    datestepCluster: [0, 1, 1, 1],
  });
});
