/**
 * The runner service through a real socket: Deno.serve on a free port, fetch as the client, the
 * event stream read incrementally as EventSource would.
 */
import assert from "node:assert/strict";
import { FrameReader, testApp } from "./_app.ts";
import { runRequest } from "./_runner.ts";
import type { RunnerSettings } from "../../../server/runner/config.ts";

/** Serves a test app on a free port; dispose() stops the server and closes the app. */
function serve(config: Partial<RunnerSettings> = {}) {
  const stop = new AbortController();
  const built = testApp(config, { shutdown: stop.signal });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, built.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    ...built,
    base,
    stop,
    async dispose() {
      stop.abort();
      await built.close();
      await server.shutdown();
    },
  };
}

async function submit(base: string, body: unknown): Promise<string> {
  const res = await fetch(`${base}/run`, runRequest(body));
  assert.equal(res.status, 202);
  return (await res.json()).job_id;
}

async function statusOf(base: string, id: string): Promise<string> {
  const res = await fetch(`${base}/run/${id}`);
  return (await res.json()).status;
}

Deno.test("socket: stream frames arrive one by one; the result is readable when done is seen", async () => {
  const s = serve({ keepaliveMs: 1000 });
  try {
    const id = await submit(s.base, { steps: 5, step_ms: 20 });
    const res = await fetch(`${s.base}/run/${id}/stream`, {
      headers: { Accept: "text/event-stream", Origin: "http://localhost:5173" },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const reader = new FrameReader(res.body!);
    assert.deepEqual(await reader.next(), { comment: "connected" });
    const types: string[] = [];
    for (;;) {
      const event = await reader.nextData();
      assert.ok(event, "the stream ended before done");
      types.push(event["type"] as string);
      if (event["type"] !== "done") continue;
      // As the frontend does: on done, fetch the full result at once.
      const result = await fetch(`${s.base}/run/${id}/result`);
      assert.equal(result.status, 200);
      const body = await result.json();
      assert.equal(body.success, true);
      assert.equal(body.timestamps.length, 5);
      assert.equal(body.objective, event["objective"]);
      break;
    }
    assert.equal(await reader.next(), undefined, "the stream closes after done");
    assert.equal(types.filter((t) => t === "log").length, 6);
    assert.ok(reader.raw.every((f) => f === ": connected" || f.startsWith("data: {")));
  } finally {
    await s.dispose();
  }
});

Deno.test("socket: DELETE during a run ends the stream with cancelled within 1 s", async () => {
  const s = serve();
  try {
    const id = await submit(s.base, { steps: 1000, step_ms: 20 });
    const reader = new FrameReader((await fetch(`${s.base}/run/${id}/stream`)).body!);
    for (let i = 0; i < 4; i++) await reader.nextData(); // it is solving
    assert.equal(await statusOf(s.base, id), "running");
    const t0 = performance.now();
    const cancel = await fetch(`${s.base}/run/${id}`, { method: "DELETE" });
    assert.equal(cancel.status, 200);
    assert.deepEqual(await cancel.json(), { cancelled: id, status: "cancelled" });
    let last: Record<string, unknown> | undefined;
    for (let e = await reader.nextData(); e !== undefined; e = await reader.nextData()) last = e;
    const ms = performance.now() - t0;
    assert.deepEqual(last, { type: "error", error: "cancelled" });
    assert.ok(ms < 1000, `the stream ended ${ms.toFixed(0)} ms after DELETE`);
    assert.equal(await statusOf(s.base, id), "cancelled");
    const again = await fetch(`${s.base}/run/${id}`, { method: "DELETE" });
    assert.equal(again.status, 409);
    await again.body?.cancel();
    // The solve itself stopped: the double saw its signal.
    await s.close();
    assert.equal(s.runner.counts.aborted, 1);
  } finally {
    await s.dispose();
  }
});

Deno.test("socket: with one worker the second job waits until the first is done", async () => {
  const s = serve({ workers: 1 });
  try {
    // Two seconds: long enough that the checks below see it running on a loaded CI machine.
    const first = await submit(s.base, { steps: 20, step_ms: 100 });
    const second = await submit(s.base, { steps: 1 });
    assert.equal(await statusOf(s.base, first), "running");
    assert.equal(await statusOf(s.base, second), "pending");
    const health = await (await fetch(`${s.base}/health`)).json();
    assert.deepEqual(health.jobs, { running: 1, queued: 1 });
    const early = await fetch(`${s.base}/run/${second}/result`);
    assert.equal(early.status, 409);
    assert.deepEqual((await early.json()).details, { status: "pending" });
    const stream = new FrameReader((await fetch(`${s.base}/run/${second}/stream`)).body!);
    const firstEvent = await stream.nextData();
    assert.match(String(firstEvent!["line"]), /^\[runner\] queued/);
    await stream.rest();
    const a = await (await fetch(`${s.base}/run/${first}`)).json();
    const b = await (await fetch(`${s.base}/run/${second}`)).json();
    assert.equal(a.status, "completed");
    assert.equal(b.status, "completed");
    assert.ok(Date.parse(b.started_at) >= Date.parse(a.finished_at));
  } finally {
    await s.dispose();
  }
});

Deno.test("socket: ten jobs submitted at once all complete, none lost", async () => {
  const s = serve({ workers: 2 });
  try {
    const ids = await Promise.all(
      Array.from({ length: 10 }, (_, i) => submit(s.base, { steps: 3, step_ms: i % 4 })),
    );
    assert.equal(new Set(ids).size, 10);
    const ends = await Promise.all(ids.map(async (id) => {
      const frames = new FrameReader((await fetch(`${s.base}/run/${id}/stream`)).body!);
      let last: Record<string, unknown> | undefined;
      for (let e = await frames.nextData(); e !== undefined; e = await frames.nextData()) last = e;
      return last?.["type"];
    }));
    assert.deepEqual(ends, new Array(10).fill("done"));
    for (const id of ids) {
      const result = await fetch(`${s.base}/run/${id}/result`);
      assert.equal(result.status, 200);
      await result.body?.cancel();
    }
  } finally {
    await s.dispose();
  }
});

Deno.test("socket: CORS preflights of POST and DELETE, as a browser sends them", async () => {
  const s = serve();
  try {
    for (const [method, path] of [["POST", "/run"], ["DELETE", "/run/x"]] as const) {
      const res = await fetch(`${s.base}${path}`, {
        method: "OPTIONS",
        headers: {
          Origin: "http://127.0.0.1:5173",
          "Access-Control-Request-Method": method,
          "Access-Control-Request-Headers": "content-type",
        },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.match(res.headers.get("access-control-allow-methods")!, new RegExp(method));
      assert.equal(res.headers.get("access-control-allow-headers"), "content-type");
      await res.body?.cancel();
    }
  } finally {
    await s.dispose();
  }
});

Deno.test("socket: a stop ends open streams, so the server's shutdown completes", async () => {
  const s = serve();
  const id = await submit(s.base, { steps: 1000, step_ms: 20 });
  const reader = new FrameReader((await fetch(`${s.base}/run/${id}/stream`)).body!);
  await reader.nextData();
  const rest = reader.rest();
  await s.dispose();
  const frames = await rest;
  const last = frames.at(-1);
  assert.ok(last && "data" in last);
  assert.equal(last.data["type"], "error");
});
