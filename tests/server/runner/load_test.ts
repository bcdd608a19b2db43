/**
 * The runner service under the loads of issue 18, with the real HiGHS runner through a real
 * socket. Before the fix, `POST /run` parsed and validated the model on the service's thread and
 * the LP was built there too: a model of a few hundred thousand variables held every request of
 * the process for seconds, a DELETE could only land after the build, and a 60 MB body froze the
 * loop while it was parsed and validated. Bounds are coarse (shared CI machines): they tell a
 * loop that stays free from one that is held for seconds, not a benchmark
 * (benchmarks/health_during_load.ts measures).
 */
import assert from "node:assert/strict";
import { createHighsModelRunner } from "../../../lib/runner/highs_model_runner.ts";
import type { ModelRunner, RunHooks } from "../../../lib/runner/model_runner.ts";
import { invalidModelBody, nationalScaleCopies } from "../../runner/_national_copies.ts";
import { dataOf, FrameReader, serveRunner } from "./_app.ts";
import { longestStall } from "../../_event_loop.ts";

/** The real runner; every log line any run writes is kept, after a cancel too. */
async function watchedRunner() {
  const real = await createHighsModelRunner();
  const lines: string[] = [];
  const settled: number[] = [];
  const runner: ModelRunner = {
    solverName: real.solverName,
    prepare: (body) => real.prepare(body),
    run: (model, hooks) => real.run(model, hooks),
    runBody(body, hooks) {
      const watched: RunHooks = {
        ...hooks,
        log(line) {
          lines.push(line);
          hooks.log(line);
        },
      };
      return real.runBody(body, watched).finally(() => settled.push(performance.now()));
    },
  };
  return { runner, lines, settled };
}

async function submit(base: string, body: BodyInit): Promise<string> {
  const res = await fetch(`${base}/run`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  const text = await res.text();
  assert.equal(res.status, 202, text);
  return JSON.parse(text).job_id;
}

/** Resolves once `lines` has a line starting with `prefix` (polled). */
async function waitForLine(lines: string[], prefix: string, timeoutMs = 60_000) {
  const until = performance.now() + timeoutMs;
  while (!lines.some((l) => l.startsWith(prefix))) {
    if (performance.now() > until) throw new Error(`no "${prefix}" line: ${lines.join("\n")}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Times GET /health every 20 ms until `stop()` is true; the latencies, ms. */
async function sampleHealth(base: string, stop: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!stop()) {
    const started = performance.now();
    const res = await fetch(`${base}/health`);
    await res.body?.cancel();
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  return latencies;
}

// About 400,000 variables from an 88 KB body: seconds of build on any machine.
const BIG = JSON.stringify(await nationalScaleCopies({ groups: 12, days: 31 }));

Deno.test("runner service: /health answers within 1 s while a big LP is read and built (issue 18)", async () => {
  const { runner, lines } = await watchedRunner();
  const s = serveRunner(runner);
  try {
    let posted = false;
    const post = submit(s.base, BIG).finally(() => posted = true);
    const built = () => lines.some((l) => l.startsWith("[runner] built the LP"));
    const latencies = await sampleHealth(s.base, () => posted && built());
    const id = await post;
    assert.ok(latencies.length >= 5, `${latencies.length} samples`);
    const worst = Math.max(...latencies);
    assert.ok(worst < 1000, `the worst /health took ${worst.toFixed(0)} ms during the build`);
    const del = await fetch(`${s.base}/run/${id}`, { method: "DELETE" });
    assert.equal(del.status, 200);
    await del.body?.cancel();
  } finally {
    await s.dispose();
  }
});

Deno.test("runner service: DELETE during the LP build stops the run within 1 s (issue 18)", async () => {
  const { runner, lines, settled } = await watchedRunner();
  const s = serveRunner(runner);
  try {
    const id = await submit(s.base, BIG);
    const stream = await fetch(`${s.base}/run/${id}/stream`);
    // The Worker says it has read the model; the build starts right after.
    await waitForLine(lines, "[runner] read and checked the model");
    const cancelledAt = performance.now();
    const del = await fetch(`${s.base}/run/${id}`, { method: "DELETE" });
    assert.equal(del.status, 200);
    await del.body?.cancel();
    const events = dataOf(await new FrameReader(stream.body!).rest());
    assert.deepEqual(events.at(-1), { type: "error", error: "cancelled" });
    for (let i = 0; i < 40 && settled.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(settled.length, 1, "the run did not settle");
    const latency = settled[0]! - cancelledAt;
    assert.ok(latency < 1000, `the run stopped ${latency.toFixed(0)} ms after DELETE`);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(
      !lines.some((l) => l.startsWith("[runner] built the LP")),
      "the build ran to its end: the cancel did not stop it",
    );
    assert.equal((await (await fetch(`${s.base}/run/${id}`)).json()).status, "cancelled");
  } finally {
    await s.dispose();
  }
});

Deno.test("runner service: a 60 MB invalid model does not stall the event loop; its job fails with the problems (issue 18)", async () => {
  const { runner, lines } = await watchedRunner();
  const s = serveRunner(runner);
  try {
    const body = invalidModelBody(60 * 1024 * 1024);
    // Sent in 1 MiB pieces: a 60 MB Uint8Array given to fetch whole is copied on this thread
    // by the client, which would stall the loop of this test process, not the service.
    let sent = 0;
    const pieces = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= body.length) return controller.close();
        controller.enqueue(body.slice(sent, sent + 1024 * 1024));
        sent += 1024 * 1024;
      },
    });
    let id = "";
    // The longest pause of the loop while the body is sent and checked.
    const worstGap = await longestStall(async () => {
      id = await submit(s.base, pieces);
      // The Worker parses and validates it meanwhile: the loop stays free then too.
      await waitForLine(lines, "[runner]", 200).catch(() => {});
      await new Promise((r) => setTimeout(r, 500));
    });
    assert.ok(worstGap < 1000, `the event loop stalled ${worstGap.toFixed(0)} ms`);
    const stream = await fetch(`${s.base}/run/${id}/stream`);
    const events = dataOf(await new FrameReader(stream.body!).rest());
    const end = events.at(-1)!;
    assert.equal(end["type"], "error");
    assert.match(end["error"] as string, /^Invalid model: locations\[0\]\.technologis: /);
    assert.match(end["error"] as string, /and \d+ more problems$/);
    assert.equal((end["problems"] as unknown[]).length, 500);
  } finally {
    await s.dispose();
  }
});
