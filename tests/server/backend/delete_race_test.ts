/**
 * Issue 18, consistency: a model deleted while its runs start. Before the fix, 56 of 60 jobs
 * outlived their deleted model (submissions that had read the model before the delete recorded
 * their job after it) and wrote run history for it. Now a delete and a run submission of the same
 * model are serialised: once DELETE has answered, no job of the model is left in the store or in
 * `/api/jobs/{id}`, the runner was told to cancel every job it had accepted, and no run record is
 * written for the model afterwards, even when the runner's queue has drained.
 *
 * Against the real runner (one worker) behind a proxy that records what the runner accepted and
 * which cancels reached it. A long job of another model holds the worker, so every raced job
 * waits in the runner's queue and none can finish before the delete.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { call, frontendModel, serveBackend, serveRunner } from "./_backend.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

/** The national-scale model over three months: it holds the runner's worker for seconds. */
function quarterModel(): Promise<unknown> {
  return importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": ["2005-01-01", "2005-03-31"] },
  });
}

/** A proxy in front of the runner that records accepted job ids and the cancels received. */
function recordingProxy(target: string) {
  const accepted = new Set<string>();
  const cancelled = new Set<string>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const cancel = req.method === "DELETE" ? /^\/run\/([^/]+)$/.exec(url.pathname) : null;
    if (cancel) cancelled.add(decodeURIComponent(cancel[1]!));
    const res = await fetch(`${target}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      ...(req.body ? { body: await req.arrayBuffer() } : {}),
    });
    if (req.method === "POST" && url.pathname === "/run" && res.ok) {
      const text = await res.text();
      accepted.add(JSON.parse(text).job_id);
      return new Response(text, { status: res.status, headers: res.headers });
    }
    return res;
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    accepted,
    cancelled,
    dispose: () => server.shutdown(),
  };
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000) {
  const end = performance.now() + ms;
  while (!await ok()) {
    if (performance.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("backend: DELETE of a model racing 60 run submissions leaves no job, no runner job, no record (issue 18)", async () => {
  const runner = await serveRunner(1);
  const proxy = recordingProxy(runner.url);
  const b = await serveBackend(proxy.url);
  try {
    const other = (await call(b.base, "POST", "/api/models", await quarterModel())).body.id;
    const blocker = (await call(b.base, "POST", `/api/models/${other}/run`)).body.id;
    await until(
      "the blocking job to run",
      async () => (await call(b.base, "GET", `/api/jobs/${blocker}`)).body.status === "running",
    );
    const blockerRunnerIds = new Set(proxy.accepted);

    const id = (await call(b.base, "POST", "/api/models", frontendModel())).body.id;
    const body = { parameters: { subset_time: ["2005-01-01", "2005-01-01"] } };
    const run = () => call(b.base, "POST", `/api/models/${id}/run`, body);
    const runs = Array.from({ length: 30 }, run);
    // The delete goes out once the runner has accepted a few jobs, with 30 more runs beside it.
    await until(
      "the runner to accept jobs",
      () => proxy.accepted.size >= blockerRunnerIds.size + 3,
    );
    const deleting = call(b.base, "DELETE", `/api/models/${id}`);
    runs.push(...Array.from({ length: 30 }, run));
    const deleted = await deleting;
    assert.deepEqual([deleted.status, deleted.body], [200, { deleted: id }]);

    // At the moment DELETE has answered:
    const acceptedAtDelete = [...proxy.accepted].filter((j) => !blockerRunnerIds.has(j));
    const notCancelled = acceptedAtDelete.filter((j) => !proxy.cancelled.has(j));
    assert.deepEqual(notCancelled, [], "every job the runner accepted was cancelled there");
    const left = await b.store.all<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM jobs WHERE model_id = $1",
      [id],
    );
    assert.equal(left[0]!.n, 0, "no job of the model in the store");

    const answers = await Promise.all(runs);
    for (const answer of answers) {
      assert.ok([202, 404].includes(answer.status), JSON.stringify(answer.body));
    }
    const jobIds = answers.filter((a) => a.status === 202).map((a) => a.body.id as string);
    assert.ok(jobIds.length >= 3, "some runs were accepted before the delete");
    for (const job of jobIds) {
      for (const tail of ["", "/logs", "/results", "/stream"]) {
        assert.equal((await call(b.base, "GET", `/api/jobs/${job}${tail}`)).status, 404, job);
      }
    }
    assert.equal((await call(b.base, "GET", `/api/models/${id}/jobs`)).status, 404);
    // No submission reached the runner after the delete answered.
    const acceptedLater = [...proxy.accepted].filter((j) => !blockerRunnerIds.has(j));
    assert.equal(acceptedLater.length, acceptedAtDelete.length, "nothing accepted afterwards");

    // Let the runner drain: the blocker goes, and anything left of the raced jobs would run now.
    assert.equal((await call(b.base, "DELETE", `/api/jobs/${blocker}`)).status, 200);
    await until("the runner to be idle", () => {
      const counts = runner.built.jobs.counts();
      return counts.running + counts.queued === 0;
    });
    await new Promise((r) => setTimeout(r, 500));
    for (const table of ["jobs", "job_logs", "job_results", "completed_runs"]) {
      const column = table === "jobs" || table === "completed_runs" ? "id" : "job_id";
      const marks = jobIds.map((_, i) => `$${i + 1}`).join(", ");
      const rows = await b.store.all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM ${table} WHERE ${column} IN (${marks})`,
        jobIds,
      );
      assert.equal(rows[0]!.n, 0, `${table} holds nothing of the deleted model's jobs`);
    }
    const history = (await call(b.base, "GET", "/api/completed-runs")).body;
    assert.deepEqual(
      history.filter((r: { model_id: string | null }) => r.model_id === id),
      [],
      "no run record of the deleted model",
    );
    assert.equal(
      [...proxy.accepted].filter((j) => !blockerRunnerIds.has(j)).length,
      acceptedAtDelete.length,
    );
  } finally {
    await b.dispose();
    await proxy.dispose();
    await runner.dispose();
  }
});

/**
 * A stand-in runner whose job `r1` reports `done` at once and whose result download waits
 * until `release()`: it holds the backend inside a job's completion.
 */
function slowResultRunner() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const seen = { resultAsked: false, resultAborted: false, cancels: 0 };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/run") {
      await req.body?.cancel();
      return Response.json({ job_id: "r1" }, { status: 202 });
    }
    if (path === "/run/r1/stream") {
      const frames = ['{"type":"progress","phase":"solve","pct":50}', '{"type":"done"}'];
      return new Response(frames.map((f) => `data: ${f}\n\n`).join(""), {
        headers: { "Content-Type": "text/event-stream" },
      });
    }
    if (path === "/run/r1/result") {
      seen.resultAsked = true;
      req.signal.addEventListener("abort", () => seen.resultAborted = true);
      await released;
      return Response.json({ objective: 1, termination_condition: "optimal" });
    }
    if (req.method === "DELETE") seen.cancels++;
    return Response.json({ id: "r1", status: "completed", error: null });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    release,
    dispose: () => server.shutdown(),
  };
}

Deno.test("backend: DELETE of a model while its job's result downloads stops it; nothing is written after (issue 18)", async () => {
  const runner = slowResultRunner();
  const b = await serveBackend(runner.url);
  try {
    const id = (await call(b.base, "POST", "/api/models", frontendModel())).body.id;
    const job = (await call(b.base, "POST", `/api/models/${id}/run`)).body.id;
    await until("the result download", () => runner.seen.resultAsked);
    const started = performance.now();
    const deleted = await call(b.base, "DELETE", `/api/models/${id}`);
    assert.equal(deleted.status, 200);
    // Not after the result's 120 s timeout: the delete cut the download.
    assert.ok(performance.now() - started < 5000);
    assert.equal((await call(b.base, "GET", `/api/jobs/${job}`)).status, 404);
    runner.release();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await call(b.base, "GET", `/api/jobs/${job}`)).status, 404);
    assert.equal((await call(b.base, "GET", `/api/completed-runs/${job}`)).status, 404);
    for (const table of ["jobs", "job_results", "completed_runs"]) {
      const column = table === "job_results" ? "job_id" : "id";
      const rows = await b.store.all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM ${table} WHERE ${column} = $1`,
        [job],
      );
      assert.equal(rows[0]!.n, 0, table);
    }
  } finally {
    runner.release();
    await b.dispose();
    await runner.dispose();
  }
});
