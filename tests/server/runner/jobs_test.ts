import assert from "node:assert/strict";
import { isFinal, type RunEvent } from "../../../lib/runner/run_events.ts";
import { type Job, JobRegistry, type JobRegistryOptions } from "../../../server/runner/jobs.ts";
import { bodyBytes, createTestRunner, type TestRunBody, type TestRunner } from "./_runner.ts";

function registry(options: Partial<JobRegistryOptions> = {}) {
  const runner = (options.runner as TestRunner | undefined) ?? createTestRunner();
  const jobs = new JobRegistry({
    runner,
    workers: 1,
    ttlMs: 3_600_000,
    statsMs: 60_000,
    ...options,
  });
  const submit = (body: TestRunBody): Job => {
    const outcome = jobs.submit(bodyBytes(body));
    if (!outcome.ok) throw new Error(outcome.reason);
    return outcome.job;
  };
  return { jobs, runner, submit };
}

/** The job's final event, once it has one. */
function finalEvent(job: Job): Promise<RunEvent> {
  return new Promise((resolve) => {
    job.events.subscribe((e) => {
      if (isFinal(e)) resolve(e);
    });
  });
}

Deno.test("JobRegistry runs a job: pending, running, completed, result stored before done", async () => {
  const { jobs, submit } = registry();
  try {
    const job = submit({ steps: 3 });
    assert.equal(job.status, "running", "a free worker takes the job at once");
    assert.ok(job.startedAt !== null);
    const seen: string[] = [];
    job.events.subscribe((e) => {
      if (e.type === "done") {
        assert.equal(job.status, "completed");
        assert.ok(job.result !== undefined, "the result is stored before done");
      }
      seen.push(e.type);
    });
    const done = await finalEvent(job);
    assert.equal(done.type, "done");
    if (done.type !== "done") return;
    assert.equal(done.termination, "optimal");
    assert.equal(done.success, true);
    assert.equal(typeof done.objective, "number");
    assert.equal(done.result["dispatch"], undefined, "the summary has no time series");
    assert.deepEqual(done.result["capacities"], { "x::pv": 1 });
    assert.deepEqual(seen, [
      "progress",
      "log",
      "progress",
      "log",
      "progress",
      "log",
      "progress",
      "log",
      "progress",
      "done",
    ]);
    assert.equal(job.termination, "optimal");
    assert.ok(job.finishedAt !== null);
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry queues beyond its workers, FIFO; ten jobs at once all complete", async () => {
  const { jobs, submit } = registry({ workers: 1 });
  try {
    const list = Array.from({ length: 10 }, (_, i) => submit({ steps: 2, step_ms: i % 3 }));
    assert.deepEqual(list.map((j) => j.status), ["running", ...new Array(9).fill("pending")]);
    assert.deepEqual(jobs.counts(), { running: 1, queued: 9 });
    const second = list[1]!;
    assert.match(
      (second.events.events[0] as { line: string }).line,
      /queued: waiting for a free worker \(0 job\(s\) ahead\)/,
    );
    const finals = await Promise.all(list.map(finalEvent));
    assert.deepEqual(finals.map((e) => e.type), new Array(10).fill("done"));
    // FIFO: each started no earlier than the one before finished.
    for (let i = 1; i < list.length; i++) {
      assert.ok(list[i]!.startedAt!.getTime() >= list[i - 1]!.finishedAt!.getTime());
    }
    assert.deepEqual(jobs.counts(), { running: 0, queued: 0 });
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry with three workers runs three at once", async () => {
  const { jobs, submit } = registry({ workers: 3 });
  try {
    const list = Array.from({ length: 5 }, () => submit({ steps: 2, step_ms: 5 }));
    assert.deepEqual(jobs.counts(), { running: 3, queued: 2 });
    await Promise.all(list.map(finalEvent));
    assert.ok(list.every((j) => j.status === "completed"));
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry refuses a job beyond maxQueued", async () => {
  const { jobs } = registry({ workers: 1, maxQueued: 1 });
  try {
    const body = () => bodyBytes({ steps: 1, step_ms: 50 });
    assert.equal(jobs.submit(body()).ok, true);
    assert.equal(jobs.refusal(), undefined);
    assert.equal(jobs.submit(body()).ok, true);
    assert.equal(jobs.refusal(), "queue_full");
    assert.deepEqual(jobs.submit(body()), { ok: false, reason: "queue_full" });
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry.cancel(): pending at once, running through its signal", async () => {
  const { jobs, runner, submit } = registry();
  try {
    const running = submit({ steps: 1000, step_ms: 10 });
    const pending = submit({ steps: 1 });
    const pendingEnd = finalEvent(pending);
    assert.equal(jobs.cancel(pending.id).outcome, "cancelled");
    assert.deepEqual(await pendingEnd, { type: "error", error: "cancelled" });
    assert.equal(pending.status, "cancelled");
    assert.equal(pending.startedAt, null);

    const runningEnd = finalEvent(running);
    const t0 = performance.now();
    assert.equal(jobs.cancel(running.id).outcome, "cancelled");
    assert.deepEqual(await runningEnd, { type: "error", error: "cancelled" });
    assert.equal(running.status, "cancelled");
    assert.ok(performance.now() - t0 < 1000);
    assert.equal(jobs.cancel(running.id).outcome, "finished");
    assert.equal(jobs.cancel("nope").outcome, "unknown");
    await jobs.close();
    assert.equal(runner.counts.aborted, 1, "the run saw its signal");
    assert.equal(running.termination, "interrupted");
    assert.equal(running.result, undefined, "an interrupted run's answer is not kept");
    assert.equal(runner.counts.started, 1, "the cancelled pending job never ran");
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry: a failing run is failed with its message; infeasible is completed", async () => {
  const { jobs, submit } = registry({ workers: 2 });
  const error = console.error;
  console.error = () => {};
  try {
    const failing = submit({ steps: 2, fail: "the solver crashed" });
    const infeasible = submit({ steps: 2, infeasible: true });
    assert.deepEqual(await finalEvent(failing), { type: "error", error: "the solver crashed" });
    assert.equal(failing.status, "failed");
    assert.equal(failing.error, "the solver crashed");
    const done = await finalEvent(infeasible);
    assert.equal(done.type, "done");
    assert.equal(infeasible.status, "completed");
    assert.equal(infeasible.result?.success, false);
    assert.equal(infeasible.termination, "infeasible");
  } finally {
    console.error = error;
    await jobs.close();
  }
});

Deno.test("JobRegistry forgets finished jobs after their time to live, not before", async () => {
  let now = new Date("2025-01-01T00:00:00Z");
  const { jobs, submit } = registry({ ttlMs: 60_000, clock: () => now, workers: 2 });
  try {
    const finished = submit({ steps: 1 });
    const slow = submit({ steps: 1000, step_ms: 10 });
    await finalEvent(finished);
    now = new Date(now.getTime() + 59_999);
    assert.ok(jobs.get(finished.id));
    now = new Date(now.getTime() + 1);
    assert.equal(jobs.get(finished.id), undefined);
    assert.ok(jobs.get(slow.id), "a running job is never pruned");
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry sends stats while a job runs", async () => {
  const { jobs, submit } = registry({ statsMs: 20 });
  try {
    const job = submit({ steps: 10, step_ms: 15 });
    await finalEvent(job);
    const stats = job.events.events.filter((e) => e.type === "stats");
    assert.ok(stats.length >= 2, `${stats.length} stats events`);
    const first = stats[0]!;
    assert.equal(first.type, "stats");
    if (first.type === "stats") {
      assert.match(first.elapsed, /^\d+s$/);
      assert.equal(typeof first.proc_ram_mb, "number");
    }
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry.close() cancels everything and refuses new jobs", async () => {
  const { jobs, submit } = registry();
  const a = submit({ steps: 1000, step_ms: 10 });
  const b = submit({ steps: 1 });
  await jobs.close();
  assert.equal(a.status, "cancelled");
  assert.equal(b.status, "cancelled");
  assert.deepEqual(jobs.submit(bodyBytes({ steps: 1 })), { ok: false, reason: "closed" });
});

Deno.test("JobRegistry refuses a body beyond maxQueuedBytes of waiting bodies (new in issue 18)", async () => {
  const { jobs } = registry({ workers: 1, maxQueuedBytes: 100 });
  try {
    const running = jobs.submit(bodyBytes({ steps: 1000, step_ms: 10 }));
    assert.ok(running.ok);
    // The running job's body is no longer counted: it went to its run.
    const waiting = jobs.submit(bodyBytes({ steps: 1, fail: "x".repeat(40) }));
    assert.ok(waiting.ok);
    assert.equal(jobs.refusal(60), "queue_bytes_full");
    const big = () => bodyBytes({ steps: 1, fail: "y".repeat(40) });
    assert.deepEqual(jobs.submit(big()), { ok: false, reason: "queue_bytes_full" });
    assert.ok(jobs.submit(bodyBytes({ steps: 1 })).ok, "a smaller body still fits");
    // A cancelled waiting job frees its bytes.
    jobs.cancel(waiting.job.id);
    assert.ok(jobs.submit(big()).ok);
  } finally {
    await jobs.close();
  }
});

Deno.test("JobRegistry: an invalid model ends the job failed with its problems (issue 18: no longer a 400)", async () => {
  const { jobs, submit } = registry();
  try {
    const job = jobs.submit(bodyBytes({ steps: 0, stepms: 1 }));
    assert.ok(job.ok);
    const end = await finalEvent(job.job);
    assert.deepEqual(end, {
      type: "error",
      error: "Invalid model: stepms: unknown key; steps: must be an integer from 1 to 1000",
      problems: [
        { path: "stepms", message: "unknown key" },
        { path: "steps", message: "must be an integer from 1 to 1000" },
      ],
    });
    assert.equal(job.job.status, "failed");
    assert.deepEqual(job.job.problems, [
      { path: "stepms", message: "unknown key" },
      { path: "steps", message: "must be an integer from 1 to 1000" },
    ]);
    // The next job runs as usual.
    assert.equal((await finalEvent(submit({ steps: 1 }))).type, "done");
  } finally {
    await jobs.close();
  }
});
