/**
 * Issue 23's operate mode end to end: Calliope's national-scale `operate` scenario over three days
 * (72 steps, windows of 12 solved over 24), saved in the backend and run by the real runner
 * service over sockets (the job's Worker holds one HiGHS model, updated window by window; a stream
 * line per window; Calliope's warnings in the result and the run history), and through
 * `model-run`, whose tables cover the whole joined timeline.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { main as modelRun } from "../../../pipelines/model_run.ts";
import { dataOf, FrameReader } from "../runner/_app.ts";
import { call, runSavedModel, serveBackend, serveRunner } from "./_backend.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

const operate = () =>
  importCalliopeModel(NATIONAL, {
    scenario: "operate",
    overrides: { "model.subset_time": ["2005-01-01", "2005-01-03"] },
  });

Deno.test("backend and runner service: operate over three days, window by window", async () => {
  const runner = await serveRunner();
  const b = await serveBackend(runner.url);
  try {
    const { jobId, result } = await runSavedModel(b.base, await operate());
    const events = dataOf(
      await new FrameReader((await fetch(`${b.base}/api/jobs/${jobId}/stream`)).body!).rest(),
    );
    const text = JSON.stringify(events.filter((e) => e["type"] === "log"));
    for (let k = 1; k <= 6; k++) assert.ok(text.includes(`window ${k} of 6`), `window ${k}`);
    assert.equal(result.termination_condition, "optimal");
    assert.equal(result.timestamps.length, 72);
    assert.ok(
      result.warnings.some((w: string) => /Storage cannot be cyclic in operate run mode/.test(w)),
      JSON.stringify(result.warnings),
    );
    assert.equal(result.energy_cap["region1::ccgt"], 30000);
    const record = await call(b.base, "GET", `/api/completed-runs/${jobId}`);
    assert.equal(record.body.result.objective, result.objective);
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});

Deno.test("model-run: operate's joined timeline as tables", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "operate.json");
    await Deno.writeTextFile(file, JSON.stringify(await operate()));
    assert.equal(await modelRun([file, "--out", join(dir, "out"), "--format", "csv"]), 0);
    const prod = await Deno.readTextFile(join(dir, "out", "carrier_prod.csv"));
    assert.equal(prod.split("\n").filter((l) => l.startsWith("region1::ccgt::power,")).length, 72);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
