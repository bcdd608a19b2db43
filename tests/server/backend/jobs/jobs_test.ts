/**
 * Jobs that do not simply complete, against the real runner: a cancel (through the runner, 409
 * after), a runner that cannot be reached, a runner killed mid-run (both fail within 10 s
 * saying so), and jobs left running by a stopped backend (failed, "interrupted by restart").
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../../../lib/model/calliope/calliope_import.ts";
import { openStore } from "../../../../lib/store/store.ts";
import { BackendStore } from "../../../../lib/backend/backend_store.ts";
import {
  call,
  closedUrl,
  frontendModel,
  serveBackend,
  serveRunner,
  waitFinished,
} from "../_backend.ts";

const NATIONAL =
  new URL("../../../../data/models/calliope_national_scale", import.meta.url).pathname;

let bigModel: Promise<unknown> | undefined;
/** The national-scale model over three months: it solves for a while. */
function quarterModel(): Promise<unknown> {
  bigModel ??= importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": ["2005-01-01", "2005-03-31"] },
  });
  return bigModel;
}

/** Waits until the job runs on the runner (status running). */
async function waitRunning(base: string, jobId: string): Promise<void> {
  const end = performance.now() + 20_000;
  while ((await call(base, "GET", `/api/jobs/${jobId}`)).body.status !== "running") {
    if (performance.now() > end) throw new Error("never running");
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("backend jobs: cancel goes through the runner; finished jobs answer 409", async () => {
  const runner = await serveRunner(1);
  const b = await serveBackend(runner.url);
  try {
    const id = (await call(b.base, "POST", "/api/models", await quarterModel())).body.id;
    const job = (await call(b.base, "POST", `/api/models/${id}/run`)).body;
    await waitRunning(b.base, job.id);
    const health = (await call(b.base, "GET", "/api/health")).body;
    assert.deepEqual(health.jobs, { running: 1, queued: 0 });
    assert.equal((await call(b.base, "GET", `/api/jobs/${job.id}/results`)).status, 409);
    const cancelled = await call(b.base, "DELETE", `/api/jobs/${job.id}`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, "cancelled");
    // The runner stopped it too.
    assert.equal(runner.built.jobs.counts().running + runner.built.jobs.counts().queued, 0);
    const again = await call(b.base, "DELETE", `/api/jobs/${job.id}`);
    assert.equal(again.status, 409);
    assert.equal(again.body.details.status, "cancelled");
    const results = await call(b.base, "GET", `/api/jobs/${job.id}/results`);
    assert.deepEqual([results.status, results.body.status], [409, "cancelled"]);
    const stream = await (await fetch(`${b.base}/api/jobs/${job.id}/stream`)).text();
    assert.match(stream, /data: \{"type":"error","error":"cancelled"\}\n\n$/);

    // A completed job cannot be cancelled either.
    const small = (await call(b.base, "POST", "/api/models", frontendModel())).body.id;
    const done = (await call(b.base, "POST", `/api/models/${small}/run`, {
      parameters: { subset_time: ["2005-01-01", "2005-01-01"] },
    })).body;
    assert.equal((await waitFinished(b.base, done.id)).status, "completed");
    const late = await call(b.base, "DELETE", `/api/jobs/${done.id}`);
    assert.deepEqual([late.status, late.body.details.status], [409, "completed"]);

    // Deleting a model cancels its running job.
    const again2 = (await call(b.base, "POST", `/api/models/${id}/run`)).body;
    await waitRunning(b.base, again2.id);
    assert.equal((await call(b.base, "DELETE", `/api/models/${id}`)).status, 200);
    assert.equal((await call(b.base, "GET", `/api/jobs/${again2.id}`)).status, 404);
    assert.equal(runner.built.jobs.counts().running, 0);
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});

Deno.test("backend jobs: an unreachable runner fails the job within 10 s, saying so", async () => {
  const b = await serveBackend(closedUrl());
  try {
    const id = (await call(b.base, "POST", "/api/models", frontendModel())).body.id;
    const started = performance.now();
    const run = await call(b.base, "POST", `/api/models/${id}/run`);
    assert.equal(run.status, 202);
    const job = await waitFinished(b.base, run.body.id, 10_000);
    assert.ok(performance.now() - started < 10_000);
    assert.equal(job.status, "failed");
    assert.match(job.error, /runner at http:\/\/127\.0\.0\.1:\d+ is unreachable/);
    const record = (await call(b.base, "GET", `/api/completed-runs/${run.body.id}`)).body;
    assert.equal(record.status, "failed");
    assert.equal(record.result.error, job.error);
  } finally {
    await b.dispose();
  }
});

Deno.test("backend jobs: a runner killed mid-run fails the job within 10 s, saying so", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../_runner_process.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const port = Number((await lines.read()).value!.trim());
  const b = await serveBackend(`http://127.0.0.1:${port}`, { reconnectMs: 1000 });
  try {
    const id = (await call(b.base, "POST", "/api/models", await quarterModel())).body.id;
    const job = (await call(b.base, "POST", `/api/models/${id}/run`)).body;
    await waitRunning(b.base, job.id);
    const killed = performance.now();
    child.kill("SIGKILL");
    await child.status;
    const view = await waitFinished(b.base, job.id, 10_000);
    assert.ok(performance.now() - killed < 10_000);
    assert.equal(view.status, "failed");
    assert.match(view.error, /connection to the runner at .* was lost/);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await lines.cancel().catch(() => {});
    await b.dispose();
  }
});

Deno.test("backend jobs: jobs left running become failed 'interrupted by restart'", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/backend.duckdb`;
  try {
    const store = await openStore(path);
    const db = new BackendStore(store);
    await db.init();
    const model = await db.insertModel(
      { name: "m", description: "" },
      "{}",
      "2026-01-01T00:00:00.000Z",
    );
    for (const [id, status] of [["a", "running"], ["b", "pending"], ["c", "completed"]] as const) {
      await db.insertJob({
        id,
        model_id: model.id,
        status,
        progress: 5,
        created_at: "2026-01-01T00:00:00.000Z",
        started_at: null,
        finished_at: null,
        error: null,
        runner_job_id: null,
      });
    }
    await store.close();
    const b = await serveBackend(closedUrl(), { storePath: path });
    try {
      assert.equal(b.backend.interrupted, 2);
      for (const id of ["a", "b"]) {
        const view = (await call(b.base, "GET", `/api/jobs/${id}`)).body;
        assert.equal(view.status, "failed");
        assert.equal(view.error, "interrupted by restart");
        assert.ok(view.finished_at);
      }
      assert.equal((await call(b.base, "GET", "/api/jobs/c")).body.status, "completed");
    } finally {
      await b.dispose();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("backend jobs: a cancel right after the run request leaves nothing running on the runner", async () => {
  const runner = await serveRunner(1);
  const b = await serveBackend(runner.url);
  try {
    const id = (await call(b.base, "POST", "/api/models", await quarterModel())).body.id;
    const job = (await call(b.base, "POST", `/api/models/${id}/run`)).body;
    // While the backend is still uploading the model to the runner.
    const cancelled = await call(b.base, "DELETE", `/api/jobs/${job.id}`);
    assert.equal(cancelled.status, 200);
    const end = performance.now() + 15_000;
    for (;;) {
      const counts = runner.built.jobs.counts();
      // The runner got the job (the upload was not cut) and was told to cancel it.
      if (counts.running + counts.queued === 0) break;
      if (performance.now() > end) assert.fail(`still on the runner: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal((await call(b.base, "GET", `/api/jobs/${job.id}`)).body.status, "cancelled");
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});
