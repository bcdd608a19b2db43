/**
 * Issue 23's SPORES mode end to end: Calliope's national-scale `spores` scenario over three days
 * (Calliope's own test window), saved in the backend and run by the real runner service over
 * sockets (a stream line per spore, progress per spore, every spore in the result and the run
 * history), and through `model-run`, whose `spores_*` tables hold every spore.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { main as modelRun } from "../../../pipelines/model_run.ts";
import { dataOf, FrameReader } from "../runner/_app.ts";
import { call, runSavedModel, serveBackend, serveRunner } from "./_backend.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

const spores = () =>
  importCalliopeModel(NATIONAL, {
    scenario: "spores",
    overrides: { "model.subset_time": ["2005-01-01", "2005-01-03"] },
  });

Deno.test("backend and runner service: four spores, streamed and kept", async () => {
  const runner = await serveRunner();
  const b = await serveBackend(runner.url);
  try {
    const { jobId, result } = await runSavedModel(b.base, await spores());
    const events = dataOf(
      await new FrameReader((await fetch(`${b.base}/api/jobs/${jobId}/stream`)).body!).rest(),
    );
    const lines = events.filter((e) => e["type"] === "log").map((e) =>
      String(e["message"] ?? e["line"] ?? JSON.stringify(e))
    );
    for (const k of [0, 1, 2, 3]) {
      assert.ok(lines.some((l) => l.includes(`spore ${k} of 3`)), `spore ${k} in the stream`);
    }
    const entries = result.spores as { spore: number; costs_by_class: Record<string, number> }[];
    assert.deepEqual(entries.map((e) => e.spore), [0, 1, 2, 3]);
    const limit = entries[0]!.costs_by_class["monetary"]! * 1.1;
    for (const e of entries.slice(1)) assert.ok(e.costs_by_class["monetary"]! <= limit * 1.0001);
    const record = await call(b.base, "GET", `/api/completed-runs/${jobId}`);
    assert.equal(record.body.result.spores.length, 4);
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});

Deno.test("model-run: every spore's tables with a spore column", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "spores.json");
    await Deno.writeTextFile(file, JSON.stringify(await spores()));
    assert.equal(await modelRun([file, "--out", join(dir, "out"), "--format", "csv"]), 0);
    const caps = await Deno.readTextFile(join(dir, "out", "spores_energy_cap.csv"));
    assert.match(caps.split("\n")[0]!, /^spore,key,value$/);
    const sporesSeen = new Set(
      caps.split("\n").slice(1).filter(Boolean).map((l) => Number(l.split(",")[0])),
    );
    assert.deepEqual([...sporesSeen].sort(), [0, 1, 2, 3]);
    const summary = JSON.parse(await Deno.readTextFile(join(dir, "out", "summary.json")));
    assert.equal(summary.spores.length, 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
