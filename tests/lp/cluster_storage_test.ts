/**
 * Storage of clustered days (lib/lp/cluster_storage.ts) on Calliope's national-scale example,
 * three days, with nothing else linking one day to the next: csp's storage loss 0 and ccgt's
 * ramping 1. With one cluster per day, storage between clusters must give the hourly optimum
 * exactly (issue 22's proof); storage only within each day can only cost more.
 */
import assert from "node:assert/strict";
import type { ResolvedModel } from "../../lib/model/preprocess/resolved_model.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import { dayBounds } from "../../lib/lp/cluster_storage.ts";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { nationalThreeDays, oneClusterPerDay as perDay } from "./_one_cluster_per_day.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";

const runner = await createHighsModelRunner({ solveIn: "process" });
const hourly = await nationalThreeDays();
const oneClusterPerDay = (inter: boolean) => perDay(hourly, inter);

async function objective(model: ResolvedModel): Promise<number> {
  const r = await runner.run(model, {
    log: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  });
  assert.equal(r.termination, "optimal");
  return r.objective!;
}

Deno.test("dayBounds(): each day's first timestep and its last", () => {
  const b = dayBounds([
    "2005-01-01T00:00:00",
    "2005-01-01T12:00:00",
    "2005-01-05T00:00:00",
    "2005-01-05T06:00:00",
    "2005-01-05T12:00:00",
  ]);
  assert.deepEqual(b.first, [true, false, true, false, false]);
  assert.deepEqual(b.lastOfDay, [1, -1, 4, -1, -1]);
});

Deno.test("storage between clusters, one cluster per day, equals the hourly optimum (1e-6)", async () => {
  const plain = await objective(hourly);
  const clustered = await objective(oneClusterPerDay(true));
  assert.ok(Math.abs(clustered - plain) <= 1e-6 * plain, `${clustered} vs ${plain}`);
});

Deno.test("storage cyclic within each day costs more than across the days", async () => {
  const plain = await objective(hourly);
  const withinDays = await objective(oneClusterPerDay(false));
  // Here it does: the hourly optimum carries csp's heat and the battery across days (152,746 against
  // 156,762 when each day must end as it began).
  assert.ok(withinDays > plain * 1.01, `${withinDays} vs ${plain}`);
});

Deno.test("the rows storage between clusters adds, and the free level within a day", () => {
  const { lp } = buildLp(oneClusterPerDay(true));
  const names = new Set(lp.rowNames);
  for (const day of ["2005-01-01", "2005-01-02", "2005-01-03"]) {
    assert.ok(names.has(`balance_storage_inter_cluster[region2::battery,${day}]`));
    assert.ok(names.has(`storage_inter_max[region1-1::csp,${day}]`));
  }
  assert.ok(!nameArray(lp.rowNames).some((n) => n.startsWith("storage_max[")));
  const j = nameArray(lp.colNames).indexOf("storage[region2::battery,2005-01-02T00:00:00]");
  assert.equal(lp.colLower[j], -Infinity);
});
