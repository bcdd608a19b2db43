import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_EXTRACTION_OPTIONS } from "../../../lib/extraction/building_record.ts";
import { INTERRUPTED_BY_RESTART, RunStore } from "../../../lib/extraction/run_store.ts";
import { openStore } from "../../../lib/store/store.ts";
import { startServices } from "../../../server/main.ts";
import { dataStorePath } from "./_fixture.ts";

/** Only the extraction service, every file in `dir`; the data store copied there (no rebuild). */
async function env(dir: string): Promise<Record<string, string>> {
  const storePath = join(dir, "store.duckdb");
  await Deno.copyFile(await dataStorePath(), storePath);
  return {
    SERVICES: "extraction",
    EXTRACTION_PORT: "0",
    EXTRACTION_STATE_PATH: join(dir, "extraction.duckdb"),
    OSM_STORE_PATH: join(dir, "osm.duckdb"),
    OSM_SEED: "",
    STORE_PATH: storePath,
    SHUTDOWN_GRACE_SECONDS: "5",
  };
}

Deno.test("extractionModule starts on port 0, binds 127.0.0.1 by default, and fails runs left running", async () => {
  const dir = await Deno.makeTempDir({ prefix: "extraction_module_" });
  try {
    const settings = await env(dir);
    // A run a stopped process left running.
    const before = new RunStore(await openStore(settings["EXTRACTION_STATE_PATH"]!));
    await before.init();
    await before.insertRun({
      run_id: "left",
      country: "LI",
      heat_country: "AT",
      bbox: [9.5, 47.08, 9.56, 47.13],
      options: DEFAULT_EXTRACTION_OPTIONS,
      created_at: new Date().toISOString(),
    });
    await before.markRunning("left", new Date().toISOString());
    await before.store.close();

    const started = await startServices({ ...settings, HOST: "0.0.0.0" });
    let stopped = false;
    try {
      assert.deepEqual(started.listeners.map((l) => l.name), ["extraction"]);
      const listener = started.listeners[0]!;
      assert.equal(listener.hostname, "127.0.0.1", "EXTRACTION_HOST, not the shared HOST");
      assert.ok(listener.port > 0);
      const base = `http://127.0.0.1:${listener.port}/api/v1`;
      const health = await fetch(`${base}/health`);
      assert.equal((await health.json()).status, "ok");
      const left = await (await fetch(`${base}/runs/left`)).json();
      assert.equal(left.status, "failed");
      assert.equal(left.error, INTERRUPTED_BY_RESTART);
      // An empty OSM store: no region covers the box.
      const res = await fetch(`${base}/runs`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          country: "LI",
          heat_country: "AT",
          xmin: 9.5,
          ymin: 47.08,
          xmax: 9.56,
          ymax: 47.13,
        }),
      });
      assert.equal(res.status, 202);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      const { run_id } = await res.json();
      let view;
      for (let i = 0; i < 200; i++) {
        view = await (await fetch(`${base}/runs/${run_id}`)).json();
        if (view.status !== "queued" && view.status !== "running") break;
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.equal(view.status, "no_data");
      await started.stop();
      stopped = true;
      await assert.rejects(
        Deno.stat(`${settings["EXTRACTION_STATE_PATH"]}.wal`),
        Deno.errors.NotFound,
      );
    } finally {
      if (!stopped) await started.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("extractionModule binds EXTRACTION_HOST when set", async () => {
  const dir = await Deno.makeTempDir({ prefix: "extraction_module_" });
  try {
    const started = await startServices({ ...(await env(dir)), EXTRACTION_HOST: "0.0.0.0" });
    try {
      assert.equal(started.listeners[0]?.hostname, "0.0.0.0");
    } finally {
      await started.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("extractionModule applies EXTRACTION_RUNS_KEPT at start: the oldest finished runs are deleted (issue 18)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "extraction_module_" });
  try {
    const settings = await env(dir);
    const before = new RunStore(await openStore(settings["EXTRACTION_STATE_PATH"]!));
    await before.init();
    for (const id of ["old", "middle", "new"]) {
      await before.insertRun({
        run_id: id,
        country: "LI",
        heat_country: null,
        bbox: [9.5, 47.08, 9.56, 47.13],
        options: DEFAULT_EXTRACTION_OPTIONS,
        created_at: new Date().toISOString(),
      });
      await before.finish(id, { status: "no_data", reason: "none" }, new Date().toISOString());
    }
    await before.store.close();
    const started = await startServices({ ...settings, EXTRACTION_RUNS_KEPT: "2" });
    try {
      const base = `http://127.0.0.1:${started.listeners[0]!.port}/api/v1`;
      const old = await fetch(`${base}/runs/old`);
      assert.equal(old.status, 404);
      assert.match((await old.json()).error, /keeps the newest 2 finished runs/);
      assert.equal((await (await fetch(`${base}/runs/middle`)).json()).status, "no_data");
      assert.equal((await (await fetch(`${base}/runs/new`)).json()).status, "no_data");
    } finally {
      await started.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
