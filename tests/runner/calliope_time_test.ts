/**
 * Calliope 0.6's time functions through the importer and the runner (issue 22): the example
 * scenarios `time_clustering` (national, k-means k=10 closest over 2005, storage between
 * clusters) and `time_masking` (urban, two extreme days kept, the rest 6-hourly), and the exact
 * case: with nothing linking one day to the next, `file=` clustering with `how: mean` (unscaled)
 * gives the objective of the hourly model run over data in which every day is its cluster's
 * mean day.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import type { ModelConfig } from "../../lib/model/model_config.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;
const URBAN = new URL("../../data/models/calliope_urban_scale", import.meta.url).pathname;
const runner = await createHighsModelRunner();

Deno.test("national time_clustering: ten representative days of 2005, storage between them", async () => {
  const config = await importCalliopeModel(NATIONAL, { scenario: "time_clustering" });
  assert.equal(config.parameters.random_seed, 23);
  const prepared = runner.prepare(config);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const model = prepared.model;
  assert.equal(model.timestamps.length, 10 * 24);
  assert.equal(model.clusters!.datesteps.length, 365);
  assert.equal(model.storageInterCluster, true);
  // Each representative hour stands for as many days as its cluster holds: 365 in all.
  assert.equal(model.weights.reduce((a, b) => a + b, 0), 365 * 24);
  const result = await solveOptimal(runner, config);
  assert.equal((result.timestamps as unknown as string[]).length, 8760);
  assert.equal((result["timesteps"] as string[]).length, 240);
  assert.ok(result.objective! > 0);
});

Deno.test("urban time_masking: the two extreme days hourly, the rest of January 6-hourly", async () => {
  const config = await importCalliopeModel(URBAN, { scenario: "time_masking" });
  const prepared = runner.prepare(config);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const { resolution, timestamps } = prepared.model;
  assert.equal(resolution.filter((h) => h === 1).length, 48);
  assert.equal(resolution.filter((h) => h === 6).length, (31 - 2) * 4);
  assert.equal(resolution.reduce((a, b) => a + b, 0), 31 * 24);
  assert.equal(timestamps.length, 48 + 29 * 4);
  await solveOptimal(runner, config);
});

/** The national example, six days, with nothing linking one day to the next. */
async function unlinkedDays(): Promise<ModelConfig> {
  return await importCalliopeModel(NATIONAL, {
    overrides: {
      "model.subset_time": ["2005-01-01", "2005-01-06"],
      "techs.battery.exists": false,
      "techs.csp.exists": false,
      "techs.ccgt.constraints.energy_ramping": 1,
    },
  });
}

Deno.test("file= clustering, how: mean, equals the hourly model on each cluster's mean day (1e-6)", async () => {
  const base = await unlinkedDays();
  const dayCluster = [0, 1, 0, 2, 1, 0]; // the cluster of each of the six days
  const hours = base.timeSeries[0]!.timestamps.length;
  const clusterOf = (row: number) => dayCluster[Math.floor(row / 24)]!;
  // Modelled days start at the series' first row here (the series begin on 2005-01-01).
  const firstRow = base.timeSeries[0]!.timestamps.findIndex((t) => t.startsWith("2005-01-01"));
  assert.equal(firstRow, 0);

  const clustered = structuredClone(base);
  clustered.timeSeries.push({
    id: "days",
    timestamps: base.timeSeries[0]!.timestamps,
    columns: { cluster: Array.from({ length: hours }, (_, r) => r < 6 * 24 ? clusterOf(r) : 0) },
  });
  clustered.parameters.time = {
    function: "apply_clustering",
    function_options: {
      clustering_func: "file=days.csv:cluster",
      how: "mean",
      scale_clusters: null,
    },
  };

  // The same six days, every day's series replaced by the mean day of its cluster.
  const averaged = structuredClone(base);
  for (const series of averaged.timeSeries) {
    for (const [name, values] of Object.entries(series.columns)) {
      const mean = (cluster: number, hour: number) => {
        const days = dayCluster.flatMap((c, d) => c === cluster ? [values[d * 24 + hour]!] : []);
        return days.reduce((a, b) => a + b, 0) / days.length;
      };
      series.columns[name] = values.map((v, r) => r < 6 * 24 ? mean(clusterOf(r), r % 24) : v);
    }
  }
  const prepared = runner.prepare(clustered);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  assert.equal(prepared.model.timestamps.length, 3 * 24, "three representative days");
  assert.deepEqual(prepared.model.clusters!.datestepCluster, dayCluster);
  const a = (await solveOptimal(runner, clustered)).objective!;
  const b = (await solveOptimal(runner, averaged)).objective!;
  assert.ok(Math.abs(a - b) <= 1e-6 * Math.abs(b), `${a} vs ${b}`);
});

Deno.test("a masked day beside clustered ones: its own cluster, storage carried through it", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    scenario: "time_clustering",
    overrides: {
      "model.subset_time": "2005-01",
      "model.time.function_options.k": 3,
      "model.time.masks": [{ function: "extreme", options: { tech: "csp", how: "min", n: 1 } }],
    },
  });
  const prepared = runner.prepare(config);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const { clusters, timestamps, weights } = prepared.model;
  assert.equal(timestamps.length, 4 * 24, "three representative days and the kept one");
  assert.equal(clusters!.timestepCluster.filter((c) => c === -1).length, 24);
  assert.equal(new Set(clusters!.datestepCluster).size, 4);
  assert.equal(weights.reduce((a, b) => a + b, 0), 31 * 24);
  const result = await solveOptimal(runner, config);
  assert.equal((result.timestamps as unknown as string[]).length, 31 * 24);
  const carried = result["storage_inter_cluster"] as Record<string, number[]>;
  assert.equal(carried["region2::battery"]!.length, 31);
});

Deno.test("file= clustering with every day its own cluster and storage between them equals hourly", async () => {
  // Storage is in (battery, csp), but nothing else links the days: csp's loss 0, ramping 1.
  const hourly = await importCalliopeModel(NATIONAL, {
    overrides: {
      "model.subset_time": ["2005-01-01", "2005-01-04"],
      "techs.csp.constraints.storage_loss": 0,
      "techs.ccgt.constraints.energy_ramping": 1,
    },
  });
  const clustered = structuredClone(hourly);
  const stamps = hourly.timeSeries[0]!.timestamps;
  clustered.timeSeries.push({
    id: "days",
    timestamps: stamps,
    columns: { day: stamps.map((t) => Number(t.slice(8, 10)) - 1) },
  });
  clustered.parameters.time = {
    function: "apply_clustering",
    function_options: { clustering_func: "file=days.csv:day", how: "mean", scale_clusters: null },
  };
  const a = (await solveOptimal(runner, clustered)).objective!;
  const b = (await solveOptimal(runner, hourly)).objective!;
  assert.ok(Math.abs(a - b) <= 1e-6 * Math.abs(b), `${a} vs ${b}`);
});
