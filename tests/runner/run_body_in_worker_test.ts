/**
 * A job's whole run in its own Worker (issue 18: parse, validate, build and solve off the
 * service's thread): the same result as the in-process steps, an invalid or unparsable model as
 * problems, a fault as a rejection, and an abort during the build that ends the run at once.
 */
import assert from "node:assert/strict";
import { decodeResult } from "../../lib/runner/encode_result.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunHooks, RunProgress } from "../../lib/runner/model_runner.ts";
import { runBodyInWorker } from "../../lib/runner/run_body_in_worker.ts";
import { nationalScaleCopies } from "./_national_copies.ts";

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function recorder(signal = new AbortController().signal) {
  const lines: string[] = [];
  const progress: RunProgress[] = [];
  const hooks: RunHooks = {
    log: (line) => lines.push(line),
    progress: (p) => progress.push(p),
    signal,
  };
  return { lines, progress, hooks };
}

Deno.test("runBodyInWorker() gives the in-process result of the same body, with the log and progress", async () => {
  const config = await nationalScaleCopies({ groups: 2, days: 1 });
  const inWorker = recorder();
  const run = await runBodyInWorker(encode(config), inWorker.hooks);
  assert.ok(run.ok);
  const result = decodeResult(run.result);
  assert.equal(run.result.termination, "optimal");
  assert.equal(result.termination, "optimal");
  assert.equal(run.result.objective, result.objective);
  assert.equal(run.result.summary["dispatch"], undefined, "the summary has no time series");
  assert.ok(Array.isArray(result["timestamps"]), "the full result has them");

  const runner = await createHighsModelRunner({ solveIn: "process" });
  const here = recorder();
  const local = await runner.runBody(encode(config), here.hooks);
  assert.ok(local.ok);
  assert.ok(
    Math.abs(result.objective! - local.result.objective!) <=
      1e-6 * Math.abs(local.result.objective!),
    `${result.objective} against ${local.result.objective}`,
  );
  assert.ok(inWorker.lines.some((l) => /^\[runner\] read and checked the model in \d+ ms/.test(l)));
  assert.ok(inWorker.lines.some((l) => l.startsWith("[runner] built the LP")));
  assert.ok(inWorker.lines.some((l) => /^Model status\s+: Optimal$/.test(l)), "HiGHS's own log");
  assert.deepEqual(inWorker.progress.map((p) => `${p.phase} ${p.pct}`), [
    "build 0",
    "build 100",
    "solve 0",
    "solve 100",
  ]);
});

Deno.test("runBodyInWorker() answers an invalid or unparsable model with its problems", async (t) => {
  await t.step("an invalid model: every problem by JSON path", async () => {
    const config = await nationalScaleCopies({ groups: 1, days: 1 });
    (config["locations"] as Record<string, unknown>[])[0]!["tech"] = [];
    (config["locations"] as Record<string, unknown>[])[1]!["lat"] = 100;
    const run = await runBodyInWorker(encode(config), recorder().hooks);
    assert.ok(!run.ok);
    assert.equal(run.total, 2, JSON.stringify(run.problems));
    assert.deepEqual(run.problems.map((p) => p.path), ["locations[0].tech", "locations[1].lat"]);
  });
  await t.step("bytes that are not JSON", async () => {
    const run = await runBodyInWorker(new TextEncoder().encode('{"a": '), recorder().hooks);
    assert.ok(!run.ok);
    assert.equal(run.total, 1);
    assert.equal(run.problems[0]!.path, "");
    assert.match(run.problems[0]!.message, /^Malformed JSON: /);
  });
  await t.step("a body that is a view into a larger buffer is read as the view", async () => {
    const bytes = new TextEncoder().encode('xx{"name": 3}yy');
    const run = await runBodyInWorker(bytes.subarray(2, 13), recorder().hooks);
    assert.ok(!run.ok);
    assert.ok(run.problems.some((p) => p.path === "name"), JSON.stringify(run.problems));
  });
});

Deno.test("runBodyInWorker() stops during the LP build within 1 s of the abort (issue 18)", async () => {
  // About 400,000 variables: the build takes seconds, so the abort lands inside it.
  const body = encode(await nationalScaleCopies({ groups: 12, days: 31 }));
  const controller = new AbortController();
  const { lines, hooks } = recorder(controller.signal);
  let abortedAt = 0;
  const watched: RunHooks = {
    ...hooks,
    log(line) {
      hooks.log(line);
      if (line.startsWith("[runner] read and checked the model")) {
        abortedAt = performance.now();
        controller.abort();
      }
    },
  };
  const run = await runBodyInWorker(body, watched);
  const latency = performance.now() - abortedAt;
  assert.ok(abortedAt > 0, "the model was never read");
  assert.ok(run.ok);
  assert.equal(run.result.termination, "interrupted");
  assert.ok(latency < 1000, `settled ${latency.toFixed(0)} ms after the abort`);
  // The Worker is gone: no line of the build it was in comes later.
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(!lines.some((l) => l.startsWith("[runner] built the LP")), lines.join("\n"));
});

Deno.test("runBodyInWorker() with an aborted signal starts nothing", async () => {
  const controller = new AbortController();
  controller.abort();
  const { lines, hooks } = recorder(controller.signal);
  const run = await runBodyInWorker(encode({ name: "x" }), hooks);
  assert.ok(run.ok);
  assert.equal(run.result.termination, "interrupted");
  assert.deepEqual(lines, []);
});
