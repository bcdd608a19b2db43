/**
 * The backend end to end through real sockets against the real runner (HiGHS): save the
 * frontend's national-scale model, run it, stream its log, read its results, find it in the
 * run history, restart the backend on the same state file and find everything again, delete
 * the model and see its jobs gone.
 */
import assert from "node:assert/strict";
import { dataOf, FrameReader } from "../runner/_app.ts";
import { call, frontendModel, serveBackend, serveRunner } from "./_backend.ts";

Deno.test("backend: save, run, stream, results, history, restart, delete", async () => {
  const runner = await serveRunner();
  const dir = await Deno.makeTempDir();
  const storePath = `${dir}/backend.duckdb`;
  let b = await serveBackend(runner.url, { storePath });
  try {
    const health = await call(b.base, "GET", "/api/health");
    assert.equal(health.status, 200);
    assert.equal(health.body.runner.reachable, true);
    assert.equal(health.body.catalogue.reachable, false);

    const model = frontendModel();
    const saved = await call(b.base, "POST", "/api/models", model);
    assert.equal(saved.status, 201);
    assert.equal(typeof saved.body.id, "string");
    assert.equal(saved.body.name, "National-scale example model");
    const modelId = saved.body.id;

    const run = await call(b.base, "POST", `/api/models/${modelId}/run`);
    assert.equal(run.status, 202, JSON.stringify(run.body));
    assert.equal(run.body.model_id, modelId);
    assert.ok(["pending", "running"].includes(run.body.status));
    const jobId = run.body.id;

    const res = await fetch(`${b.base}/api/jobs/${jobId}/stream`, {
      headers: { Origin: "http://localhost:5173" },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:5173");
    const reader = new FrameReader(res.body!);
    const frames = await reader.rest();
    const events = dataOf(frames);
    const last = events.at(-1)!;
    assert.equal(last["type"], "done", JSON.stringify(last));
    assert.ok(events.some((e) => e["type"] === "log"));
    const pcts = events.filter((e) => e["type"] === "progress").map((e) => e["pct"] as number);
    assert.ok(pcts.length > 0);
    assert.deepEqual([...pcts].sort((a, b) => a - b), pcts, "progress never goes down");
    assert.equal(pcts.at(-1), 100);

    const job = await call(b.base, "GET", `/api/jobs/${jobId}`);
    assert.equal(job.body.status, "completed");
    assert.equal(job.body.progress, 100);
    assert.ok(job.body.started_at && job.body.finished_at);
    const results = await call(b.base, "GET", `/api/jobs/${jobId}/results`);
    assert.equal(results.status, 200);
    assert.equal(results.body.termination_condition, "optimal");
    assert.equal(typeof results.body.objective, "number");
    const logs = await call(b.base, "GET", `/api/jobs/${jobId}/logs`);
    assert.ok(Array.isArray(logs.body) && logs.body.length > 3);

    // A late client gets the whole history again.
    const late = dataOf(
      await new FrameReader((await fetch(`${b.base}/api/jobs/${jobId}/stream`)).body!).rest(),
    );
    assert.equal(late.at(-1)!["type"], "done");
    assert.equal(late.filter((e) => e["type"] === "log").length, logs.body.length);

    const history = await call(b.base, "GET", "/api/completed-runs");
    assert.equal(history.body.length, 1);
    assert.equal(history.body[0].id, jobId);
    assert.equal(history.body[0].model_id, modelId);
    assert.equal(history.body[0].status, "completed");
    const record = await call(b.base, "GET", `/api/completed-runs/${jobId}`);
    assert.equal(record.body.modelName, "National-scale example model");
    assert.equal(record.body.result.objective, results.body.objective);

    const jobs = await call(b.base, "GET", `/api/models/${modelId}/jobs`);
    assert.equal(jobs.body.length, 1);

    // Restart on the same state file: everything is there.
    await b.dispose();
    b = await serveBackend(runner.url, { storePath });
    assert.equal((await call(b.base, "GET", "/api/models")).body[0].id, modelId);
    assert.equal((await call(b.base, "GET", `/api/jobs/${jobId}`)).body.status, "completed");
    assert.equal((await call(b.base, "GET", `/api/jobs/${jobId}/results`)).status, 200);
    assert.equal((await call(b.base, "GET", "/api/completed-runs")).body[0].id, jobId);
    const got = await call(b.base, "GET", `/api/models/${modelId}`);
    assert.equal(got.body.id, modelId);
    assert.deepEqual(got.body.locations, model["locations"]);

    // Delete: the model and its jobs go; the history stays.
    const deleted = await call(b.base, "DELETE", `/api/models/${modelId}`);
    assert.deepEqual(deleted.body, { deleted: modelId });
    assert.equal((await call(b.base, "GET", `/api/jobs/${jobId}`)).status, 404);
    assert.equal((await call(b.base, "GET", `/api/models/${modelId}/jobs`)).status, 404);
    assert.equal((await call(b.base, "GET", `/api/completed-runs/${jobId}`)).status, 200);
  } finally {
    await b.dispose();
    await runner.dispose();
    await Deno.remove(dir, { recursive: true });
  }
});
