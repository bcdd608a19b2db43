import assert from "node:assert/strict";
import { JobRefusedError, JobStoppedError } from "../../lib/jobs/job_engine.ts";
import type { Job } from "../../lib/jobs/job.ts";
import { JobQueue, type JobQueueOptions } from "../../lib/jobs/job_queue.ts";
import type { JobState } from "../../lib/jobs/job_states.ts";
import type { JobMovePatch, JobStore } from "../../lib/jobs/job_store.ts";

type Ev = { type: "log"; line: string } | { type: "end"; state: JobState };

/** Work that waits for its gate (or its abort) and answers its input doubled. */
function gatedWork() {
  const gates = new Map<number, () => void>();
  const seen: AbortSignal[] = [];
  const work: JobQueueOptions<number, number, Ev>["work"] = (n, context) => {
    seen.push(context.signal);
    context.emit({ type: "log", line: `start ${n}` });
    return new Promise<number>((resolve, reject) => {
      gates.set(n, () => resolve(2 * n));
      context.signal.addEventListener("abort", () => reject(context.signal.reason), {
        once: true,
      });
    });
  };
  return { work, open: (n: number) => gates.get(n)?.(), seen };
}

function queue(options: Partial<JobQueueOptions<number, number, Ev>> = {}) {
  const gated = gatedWork();
  const q = new JobQueue<number, number, Ev>({
    work: gated.work,
    events: { isFinal: (e) => e.type === "end" },
    maxRunning: 1,
    finalEvent: (job) => ({ type: "end", state: job.state }),
    ...options,
  });
  return { q, ...gated };
}

const states = (jobs: Job<number, number, Ev>[]) => jobs.map((j) => j.state);

Deno.test("JobQueue: FIFO behind maxRunning, result kept before the final event", async () => {
  const { q, open } = queue();
  const a = q.submit(1);
  const b = q.submit(2);
  assert.deepEqual(states([a, b]), ["running", "queued"], "a free slot takes a job at once");
  assert.deepEqual(q.counts(), { queued: 1, running: 1 });
  let resultAtEnd: number | undefined;
  a.events.subscribe((e) => {
    if (e.type === "end") resultAtEnd = a.result;
  });
  open(1);
  await a.settled;
  assert.equal(resultAtEnd, 2);
  assert.deepEqual(states([a, b]), ["succeeded", "running"]);
  assert.deepEqual(a.events.events, [{ type: "log", line: "start 1" }, {
    type: "end",
    state: "succeeded",
  }]);
  open(2);
  await q.idle();
  assert.equal(b.result, 4);
});

Deno.test("JobQueue: refusals by count, by weight and once closed", async () => {
  const { q } = queue({ maxQueued: 1, maxQueuedWeight: 10, weigh: (n) => n });
  q.submit(100); // runs: its weight is not counted as waiting
  q.submit(6);
  assert.equal(q.refusal(1), "full");
  assert.throws(() => q.submit(1), (e) => e instanceof JobRefusedError && e.reason === "full");
  const { q: light } = queue({ maxQueuedWeight: 10, weigh: (n) => n });
  light.submit(1);
  light.submit(6);
  assert.equal(light.refusal(5), "weight");
  assert.equal(light.refusal(4), undefined);
  await Promise.all([q.close(), light.close()]);
  assert.throws(() => q.submit(1), (e) => e instanceof JobRefusedError && e.reason === "closed");
});

Deno.test("JobQueue: cancel reaches the work's signal; a queued job never runs", async () => {
  const { q, seen } = queue();
  const a = q.submit(1);
  const b = q.submit(2);
  const cancelled = q.cancel(b.id);
  assert.equal(cancelled.outcome, "cancelled");
  assert.equal(b.state, "cancelled");
  await b.settled;
  const outcome = q.cancel(a.id, "stop it");
  assert.equal(outcome.outcome, "cancelled");
  assert.equal(seen.length, 1, "only the running job reached its work");
  assert.equal(seen[0]!.aborted, true);
  assert.equal(a.error, "stop it");
  assert.deepEqual(a.events.events.at(-1), { type: "end", state: "cancelled" });
  assert.equal(q.cancel(a.id).outcome, "finished");
  assert.equal(q.cancel("nope").outcome, "unknown");
  await q.idle();
  assert.deepEqual(q.counts(), { queued: 0, running: 0 });
});

Deno.test("JobQueue: a throwing work fails its job with the message and the thrown value", async () => {
  const boom = new Error("boom");
  const q = new JobQueue<number, number, Ev>({
    work: () => Promise.reject(boom),
    events: { isFinal: (e) => e.type === "end" },
    maxRunning: 2,
  });
  const job = q.submit(1);
  await job.settled;
  assert.deepEqual([job.state, job.error, job.failure], ["failed", "boom", boom]);
});

Deno.test("JobQueue: finished jobs go after their time to live or beyond the count kept", async () => {
  let now = 0;
  const forgotten: string[] = [];
  const { q, open } = queue({
    maxRunning: 4,
    ttlMs: 1000,
    maxFinished: 2,
    now: () => now,
    onForgotten: (job) => forgotten.push(job.id),
  });
  const jobs = [1, 2, 3].map((n) => q.submit(n));
  for (const n of [1, 2, 3]) open(n);
  await q.idle();
  assert.equal(q.prune(), 1, "three finished, two kept");
  assert.deepEqual(forgotten, [jobs[0]!.id]);
  now = 1000;
  assert.equal(q.get(jobs[1]!.id), undefined, "expired");
  assert.equal(q.size, 0);
});

Deno.test("JobQueue: close cancels, fails, aborts or lets finish as told", async () => {
  const cancel = queue({ maxRunning: 1 });
  const [c1, c2] = [cancel.q.submit(1), cancel.q.submit(2)];
  await cancel.q.close();
  assert.deepEqual(states([c1, c2]), ["cancelled", "cancelled"]);

  const fail = queue({ maxRunning: 1 });
  const [f1, f2] = [fail.q.submit(1), fail.q.submit(2)];
  await fail.q.close({ queued: "fail", running: "fail", error: "stopped" });
  assert.deepEqual(states([f1, f2]), ["failed", "failed"]);
  assert.ok(f1.failure instanceof JobStoppedError);
  assert.equal(f2.error, "stopped");

  const finish = queue({ maxRunning: 1 });
  const running = finish.q.submit(1);
  const closing = finish.q.close({ running: "finish" });
  finish.open(1);
  await closing;
  assert.equal(running.state, "succeeded", "the running job was allowed to finish");

  const grace = queue({ maxRunning: 1 });
  const slow = grace.q.submit(1);
  await grace.q.close({ running: "finish", graceMs: 10 });
  assert.equal(slow.state, "failed", "aborted after the grace period");
});

Deno.test("JobQueue: an async store records the job before it starts and each move before it shows", async () => {
  const writes: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const store: JobStore<number, number, Ev> = {
    insert: async (job) => {
      await held;
      writes.push(`insert ${job.state}`);
    },
    move: async (job, to, patch: JobMovePatch<number>) => {
      await Promise.resolve();
      writes.push(`${job.state}>${to}${patch.result !== undefined ? ` ${patch.result}` : ""}`);
    },
    recover: (rule) => {
      writes.push(`recover ${rule.state} ${rule.error}`);
      return Promise.resolve(3);
    },
  };
  const { q, open } = queue({ store, restartRule: { state: "failed", error: "restart" } });
  assert.equal(await q.recover(), 3);
  const job = q.submit(5);
  assert.equal(job.state, "queued", "not started before it is recorded");
  release();
  await q.recorded(job.id);
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(job.state, "running");
  open(5);
  await job.settled;
  assert.deepEqual(writes, [
    "recover failed restart",
    "insert queued",
    "queued>running",
    "running>succeeded 10",
  ]);
});

Deno.test("JobQueue: startOnLaterTurn lets the submitter subscribe first; dropResult frees a result", async () => {
  const q = new JobQueue<number, number, Ev>({
    work: (n, context) => {
      context.emit({ type: "log", line: "first" });
      return Promise.resolve(n);
    },
    events: { isFinal: (e) => e.type === "end" },
    maxRunning: 1,
    startOnLaterTurn: true,
    finalEvent: (job) => ({ type: "end", state: job.state }),
  });
  const job = q.submit(7);
  assert.equal(job.state, "queued");
  const got: Ev[] = [];
  job.events.subscribe((e) => got.push(e));
  await job.settled;
  assert.deepEqual(got, [{ type: "log", line: "first" }, { type: "end", state: "succeeded" }]);
  q.dropResult(job.id);
  assert.equal(job.result, undefined);
  assert.deepEqual(job.events.events, [{ type: "end", state: "succeeded" }]);
});

Deno.test("JobQueue: with ttlMs 0 a finished job and its result are let go at once", async () => {
  const { q, open } = queue({ ttlMs: 0 });
  const job = q.submit(3);
  open(3);
  await job.settled;
  assert.equal(job.result, 6, "the holder of the job still reads it");
  assert.equal(q.get(job.id), undefined);
  assert.equal(q.size, 0);
});
