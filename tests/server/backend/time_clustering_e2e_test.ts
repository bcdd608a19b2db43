/**
 * Issue 22 end to end: Calliope's national-scale `time_clustering` scenario, cut to January and
 * four clusters, saved in the backend, run by the real runner service over sockets, and read
 * back (the optimised representative days, the day map, the rebuilt month for the frontend's
 * views); and the same model through `model-run`, whose tables carry the rebuilt month.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { main as modelRun } from "../../../pipelines/model_run.ts";
import { runSavedModel, serveBackend, serveRunner } from "./_backend.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

const january = () =>
  importCalliopeModel(NATIONAL, {
    scenario: "time_clustering",
    overrides: { "model.subset_time": "2005-01", "model.time.function_options.k": 4 },
  });

Deno.test("backend and runner service: a clustered January", async () => {
  const runner = await serveRunner();
  const b = await serveBackend(runner.url);
  try {
    const { result } = await runSavedModel(b.base, await january());
    assert.equal(result.termination_condition, "optimal");
    assert.equal(result.timesteps.length, 4 * 24);
    assert.equal(result.datestep_cluster.length, 31);
    assert.equal(result.timestamps.length, 31 * 24);
    assert.equal(result.demand_timeseries.length, 31 * 24);
    assert.match(result.reconstructed.note, /Rebuilt from the representative days/);
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});

Deno.test("model-run: a clustered January's tables, the rebuilt month among them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "january.json");
    await Deno.writeTextFile(file, JSON.stringify(await january()));
    assert.equal(await modelRun([file, "--out", join(dir, "out"), "--format", "csv"]), 0);
    const rebuilt = await Deno.readTextFile(join(dir, "out", "reconstructed_carrier_prod.csv"));
    const ccgt = rebuilt.split("\n").filter((l) => l.startsWith("region1::ccgt::power,"));
    assert.equal(ccgt.length, 31 * 24);
    const optimised = await Deno.readTextFile(join(dir, "out", "carrier_prod.csv"));
    assert.equal(
      optimised.split("\n").filter((l) => l.startsWith("region1::ccgt::power,")).length,
      96,
    );
    const carried = await Deno.readTextFile(join(dir, "out", "storage_inter_cluster.csv"));
    assert.match(carried, /^region2::battery,2005-01-31( 00:00:00)?,/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
