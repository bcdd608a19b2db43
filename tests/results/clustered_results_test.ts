/**
 * The result of a clustered run (lib/results/clustered_results.ts, full_timeline.ts,
 * result_tables.ts): the optimised timesteps with weights and clusters, the day-to-cluster map,
 * the level carried between days, and the original timeline rebuilt for the frontend's views and
 * the `reconstructed_*` tables. On the national example with one cluster per day the rebuilt
 * timeline is the original one, so the rebuilt storage level must follow the storage balance
 * through every hour, across the days too.
 */
import assert from "node:assert/strict";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import { resultTables } from "../../lib/results/result_tables.ts";
import { RECONSTRUCTED_NOTE } from "../../lib/results/clustered_results.ts";
import { nationalThreeDays, oneClusterPerDay } from "../lp/_one_cluster_per_day.ts";

const runner = await createHighsModelRunner({ solveIn: "process" });
// On the built-in HiGHS (the example names cbc, whose solution file has 8 significant digits:
// too few for the 1e-6 balance checked below).
const base = await nationalThreeDays();
const model = oneClusterPerDay({ ...base, solver: { ...base.solver, name: "highs" } }, true);
const result = await runner.run(model, {
  log: () => {},
  progress: () => {},
  signal: new AbortController().signal,
});

Deno.test("a clustered result: timesteps, weights, clusters and the day map", () => {
  assert.equal(result.termination, "optimal");
  assert.deepEqual(result["timesteps"], model.timestamps);
  assert.deepEqual(result["timestep_weights"], model.weights);
  assert.deepEqual(result["timestep_cluster"], model.clusters!.timestepCluster);
  assert.deepEqual(result["datesteps"], ["2005-01-01", "2005-01-02", "2005-01-03"]);
  assert.deepEqual(result["datestep_cluster"], [0, 1, 2]);
  const carried = result["storage_inter_cluster"] as Record<string, number[]>;
  assert.deepEqual(Object.keys(carried).sort(), [
    "region1-1::csp",
    "region1-2::csp",
    "region1-3::csp",
    "region2::battery",
  ]);
  assert.ok(Object.values(carried).flat().every((v) => v >= 0));
});

Deno.test("the rebuilt timeline: the frontend's timestamps and views, the absolute storage level", () => {
  const timestamps = result.timestamps as unknown as string[];
  assert.equal(timestamps.length, 72);
  assert.equal(timestamps[25], "2005-01-02T01:00:00");
  assert.equal((result["demand_timeseries"] as number[]).length, 72);
  const rebuilt = result["reconstructed"] as {
    note: string;
    storage: Record<string, number[]>;
    carrier_prod: Record<string, number[]>;
    carrier_con: Record<string, number[]>;
  };
  assert.equal(rebuilt.note, RECONSTRUCTED_NOTE);
  // The battery (energy_eff 0.95, no loss): level_h − level_{h−1} = −prod/0.95 − con·0.95.
  const level = rebuilt.storage["region2::battery"]!;
  const prod = rebuilt.carrier_prod["region2::battery::power"]!;
  const con = rebuilt.carrier_con["region2::battery::power"]!;
  const cap = (result["storage_cap"] as Record<string, number>)["region2::battery"]!;
  for (let h = 1; h < 72; h++) {
    const expected = level[h - 1]! - prod[h]! / 0.95 - con[h]! * 0.95;
    assert.ok(Math.abs(level[h]! - expected) <= 1e-6 * Math.max(1, cap), `hour ${h}`);
    assert.ok(level[h]! >= -1e-6 && level[h]! <= cap + 1e-6, `hour ${h}: ${level[h]}`);
  }
  assert.ok(Math.max(...level) > 0, "the battery is used");
});

Deno.test("model-run's tables: columnar on the timesteps, reconstructed_*, carried level by day", () => {
  const { tables, summary } = resultTables(result);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const carried = byName.get("storage_inter_cluster")!;
  assert.deepEqual(carried.rows.slice(0, 3).map((r) => r[1]), [
    "2005-01-01",
    "2005-01-02",
    "2005-01-03",
  ]);
  const rebuilt = byName.get("reconstructed_carrier_prod")!;
  assert.equal(
    rebuilt.rows.filter((r) => r[0] === "region1::ccgt::power").length,
    72,
  );
  assert.ok(byName.has("reconstructed_storage"));
  assert.deepEqual(summary["reconstructed"], { note: RECONSTRUCTED_NOTE });
});
