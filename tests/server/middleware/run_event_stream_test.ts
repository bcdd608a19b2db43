import assert from "node:assert/strict";
import { JobEventLog } from "../../../lib/runner/run_events.ts";
import { runEventStream, SHUTDOWN_MESSAGE } from "../../../server/middleware/run_event_stream.ts";
import { dataOf, FrameReader, testApp } from "../runner/_app.ts";
import { runRequest } from "../runner/_runner.ts";

Deno.test("the stream is framed as the frontend parses it, byte for byte", async () => {
  const built = testApp();
  try {
    const { job_id } = await (await built.app.request("/run", runRequest({ steps: 2 }))).json();
    const res = await built.app.request(`/run/${job_id}/stream`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), "no-cache");
    assert.equal(res.headers.get("x-accel-buffering"), "no");
    const text = await res.text();
    assert.ok(text.startsWith(": connected\n\n"), "a comment first");
    assert.ok(text.endsWith("\n\n"));
    assert.doesNotMatch(text, /^(event|id|retry):/m, "no named events, ids or retry lines");
    const frames = text.slice(0, -2).split("\n\n");
    assert.equal(frames[0], ": connected");
    for (const frame of frames.slice(1)) {
      assert.match(frame, /^data: \{.*\}$/, "one data line of JSON per frame");
      assert.equal(typeof JSON.parse(frame.slice(6)).type, "string");
    }
    const events = frames.slice(1).map((f) => JSON.parse(f.slice(6)));
    assert.deepEqual(events.map((e) => e.type), [
      "progress",
      "log",
      "progress",
      "log",
      "progress",
      "log",
      "progress",
      "done",
    ]);
    assert.deepEqual(events[0], { type: "progress", phase: "build", pct: 0 });
    assert.deepEqual(events[1], { type: "log", line: "[runner] 2 steps" });
    const done = events.at(-1);
    assert.equal(done.termination, "optimal");
    assert.equal(done.success, true);
    assert.equal(typeof done.objective, "number");
    assert.equal(done.result.dispatch, undefined);
    assert.equal(done.result.timestamps, undefined);
    assert.equal(done.result.carrier_prod, undefined);
    assert.deepEqual(done.result.capacities, { "x::pv": 1 });
  } finally {
    await built.dispose();
  }
});

Deno.test("a late client gets the full history; two clients each get every event", async () => {
  const built = testApp();
  try {
    const { job_id } = await (await built.app.request(
      "/run",
      runRequest({ steps: 6, step_ms: 15 }),
    )).json();
    const first = new FrameReader((await built.app.request(`/run/${job_id}/stream`)).body!);
    await first.nextData();
    await first.nextData();
    await first.nextData(); // seen some events live
    const second = new FrameReader((await built.app.request(`/run/${job_id}/stream`)).body!);
    const [a, b] = await Promise.all([first.rest(), second.rest()]);
    const late = dataOf(b);
    assert.equal(late.length, 3 + dataOf(a).length, "the late client got what it missed");
    assert.deepEqual(late.slice(3), dataOf(a));
    const after = dataOf(
      await new FrameReader((await built.app.request(`/run/${job_id}/stream`)).body!).rest(),
    );
    assert.deepEqual(after, late, "a client after the end gets the same events, then the end");
    assert.equal(after.at(-1)!["type"], "done");
  } finally {
    await built.dispose();
  }
});

Deno.test("a keepalive comment follows a quiet interval", async () => {
  const built = testApp({ keepaliveMs: 20 });
  try {
    const { job_id } = await (await built.app.request(
      "/run",
      runRequest({ steps: 3, step_ms: 70 }),
    )).json();
    const frames = await new FrameReader((await built.app.request(`/run/${job_id}/stream`)).body!)
      .rest();
    const comments = frames.flatMap((f) => ("comment" in f ? [f.comment] : []));
    assert.equal(comments[0], "connected");
    assert.ok(comments.slice(1).length >= 2, `${comments.length} comments`);
    assert.ok(comments.slice(1).every((c) => c === "keepalive"));
  } finally {
    await built.dispose();
  }
});

Deno.test("stats events arrive while the job runs", async () => {
  const built = testApp({ statsMs: 20 });
  try {
    const { job_id } = await (await built.app.request(
      "/run",
      runRequest({ steps: 5, step_ms: 20 }),
    )).json();
    const events = dataOf(
      await new FrameReader((await built.app.request(`/run/${job_id}/stream`)).body!).rest(),
    );
    const stats = events.filter((e) => e["type"] === "stats");
    assert.ok(stats.length >= 2);
    assert.deepEqual(Object.keys(stats[0]!).sort(), [
      "cpu_pct",
      "elapsed",
      "proc_ram_mb",
      "sys_ram_pct",
      "sys_ram_total_gb",
      "sys_ram_used_gb",
      "type",
    ]);
    assert.equal(typeof stats[0]!["elapsed"], "string");
  } finally {
    await built.dispose();
  }
});

Deno.test("a stop of the service ends open streams with an error event", async () => {
  const stop = new AbortController();
  const built = testApp({}, { shutdown: stop.signal });
  try {
    const { job_id } = await (await built.app.request(
      "/run",
      runRequest({ steps: 1000, step_ms: 10 }),
    )).json();
    const reader = new FrameReader((await built.app.request(`/run/${job_id}/stream`)).body!);
    await reader.nextData();
    stop.abort();
    const events = dataOf(await reader.rest());
    assert.deepEqual(events.at(-1), { type: "error", error: SHUTDOWN_MESSAGE });
    const late = await built.app.request(`/run/${job_id}/stream`);
    assert.deepEqual(
      await late.text(),
      `: connected\n\ndata: ${JSON.stringify({ type: "error", error: SHUTDOWN_MESSAGE })}\n\n`,
    );
  } finally {
    await built.dispose();
  }
});

Deno.test("a client that goes away stops listening", async () => {
  const events = new JobEventLog();
  const res = runEventStream(events, { shutdown: new AbortController().signal, keepaliveMs: 10 });
  const reader = new FrameReader(res.body!);
  assert.deepEqual(await reader.next(), { comment: "connected" });
  assert.equal(events.listenerCount, 1);
  await reader.cancel();
  assert.equal(events.listenerCount, 0);
  events.append({ type: "log", line: "nobody hears this" });
  await new Promise((r) => setTimeout(r, 30)); // no keepalive timer left running
});
