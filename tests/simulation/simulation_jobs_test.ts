import assert from "node:assert/strict";
import { QueueFullError, SimulationJobs } from "../../lib/simulation/simulation_jobs.ts";
import type { SimulationFrame } from "../../lib/simulation/simulation_frames.ts";
import { runToEnd } from "../../lib/simulation/simulation_model.ts";
import { tankModel, tankPayloadSchema } from "./_tank_model.ts";

const payload = (over: Record<string, unknown> = {}) =>
  tankPayloadSchema.parse({ simulation: { t_end_s: 3600, dt_s: 1 }, ...over });

Deno.test("the tank model fills towards Torricelli's steady level and balances mass", () => {
  const result = runToEnd(tankModel, { simulation: { t_end_s: 20_000, dt_s: 10 } });
  const kpi = result["kpi"] as Record<string, number>;
  assert.ok(Math.abs(kpi["stored_change_kg"]! - (kpi["inflow_kg"]! - kpi["outflow_kg"]!)) < 1e-6);
  const levels = result["tank_level_m"] as number[];
  assert.ok(Math.abs(levels.at(-1)! - kpi["steady_level_m"]!) / kpi["steady_level_m"]! < 0.01);
});

Deno.test("SimulationJobs runs a job to done with ordered frames, then the result", async () => {
  const jobs = new SimulationJobs({ model: tankModel });
  const view = jobs.submit(payload());
  assert.equal(view.status, "queued");
  const frames: SimulationFrame[] = [];
  const texts: string[] = [];
  jobs.subscribe(view.job_id, (frame, text) => {
    frames.push(frame);
    texts.push(text);
  });
  await jobs.settled(view.job_id);
  const done = jobs.get(view.job_id)!;
  assert.equal(done.status, "done");
  assert.equal(done.progress_pct, 100);
  assert.equal(done.error, null);
  assert.ok(done.result);
  const last = frames.at(-1)!;
  assert.equal(last.type, "result");
  const progress = frames.filter((f) => f.type === "progress");
  assert.ok(progress.length >= 1 && progress.length <= 101);
  const steps = progress.map((f) => f.step);
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b));
  assert.equal(progress.at(-1)!.progress_pct, 100);
  assert.equal(progress.at(-1)!.step, 3600);
  assert.ok("tank_level_m" in progress.at(-1)!);
  assert.deepEqual(JSON.parse(texts[0]!), frames[0]);
});

Deno.test("SimulationJobs frames come about every 1 % of the steps and at most 20 a second", async () => {
  const jobs = new SimulationJobs({ model: tankModel, minFrameIntervalMs: 0 });
  const view = jobs.submit(payload({ simulation: { t_end_s: 10_000, dt_s: 1 } }));
  const steps: number[] = [];
  jobs.subscribe(view.job_id, (f) => f.type === "progress" && steps.push(f.step));
  await jobs.settled(view.job_id);
  assert.equal(steps.length, 100);
  assert.equal(steps[0], 100);

  const limited = new SimulationJobs({ model: tankModel });
  const slow = limited.submit(payload({ simulation: { t_end_s: 2000, dt_s: 1 }, substeps: 3000 }));
  const at: number[] = [];
  limited.subscribe(slow.job_id, (f) => f.type === "progress" && at.push(performance.now()));
  await limited.settled(slow.job_id);
  const gaps = at.slice(1, -1).map((t, i) => t - at[i]!);
  assert.ok(gaps.every((g) => g >= 49), `gaps ${gaps.map((g) => g.toFixed(1))}`);
});

Deno.test("SimulationJobs gives a late subscriber the latest frame and the result", async () => {
  const jobs = new SimulationJobs({ model: tankModel });
  const view = jobs.submit(payload());
  await jobs.settled(view.job_id);
  const frames: SimulationFrame[] = [];
  jobs.subscribe(view.job_id, (f) => frames.push(f));
  assert.deepEqual(frames.map((f) => f.type), ["progress", "result"]);
  assert.equal(jobs.subscribe("nope", () => {}), undefined);
});

Deno.test("SimulationJobs cancels a running job within 100 ms", async () => {
  const jobs = new SimulationJobs({ model: tankModel });
  const view = jobs.submit(payload({ simulation: { t_end_s: 1e6, dt_s: 1 }, substeps: 2000 }));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(jobs.get(view.job_id)!.status, "running");
  const frames: SimulationFrame[] = [];
  jobs.subscribe(view.job_id, (f) => frames.push(f));
  const t0 = performance.now();
  assert.equal(jobs.cancel(view.job_id)!.status, "cancelled");
  await jobs.settled(view.job_id);
  assert.ok(performance.now() - t0 < 100, `stopped after ${performance.now() - t0} ms`);
  assert.deepEqual(frames.at(-1), { type: "error", error: "Job cancelled", status: "cancelled" });
  assert.equal(jobs.get(view.job_id)!.status, "cancelled");
  assert.equal(jobs.active, 0);
});

Deno.test("SimulationJobs queues beyond maxRunning and starts them in order", async () => {
  const jobs = new SimulationJobs({ model: tankModel, maxRunning: 2 });
  const slow = { simulation: { t_end_s: 2e5, dt_s: 1 }, substeps: 200 };
  const ids = [0, 1, 2, 3].map(() => jobs.submit(payload(slow)).job_id);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(ids.map((id) => jobs.get(id)!.status), [
    "running",
    "running",
    "queued",
    "queued",
  ]);
  assert.equal(jobs.active, 4);
  jobs.cancel(ids[0]!);
  jobs.cancel(ids[3]!);
  await jobs.settled(ids[0]!);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(ids.map((id) => jobs.get(id)!.status), [
    "cancelled",
    "running",
    "running",
    "cancelled",
  ]);
  await jobs.close();
  assert.equal(jobs.active, 0);
  assert.throws(() => jobs.submit(payload()), /stopping/);
});

Deno.test("SimulationJobs reports a failing run as error", async () => {
  const jobs = new SimulationJobs({ model: tankModel });
  const view = jobs.submit(payload({ fail_at_step: 500 }));
  const frames: SimulationFrame[] = [];
  jobs.subscribe(view.job_id, (f) => frames.push(f));
  await jobs.settled(view.job_id);
  const failed = jobs.get(view.job_id)!;
  assert.equal(failed.status, "error");
  assert.match(failed.error!, /failure requested at step 500/);
  assert.equal(failed.result, undefined);
  assert.equal(frames.at(-1)!.type, "error");
});

Deno.test("SimulationJobs forgets a finished job after its time to live", async () => {
  let now = 0;
  const jobs = new SimulationJobs({ model: tankModel, ttlMs: 1000, now: () => now });
  const view = jobs.submit(payload());
  await jobs.settled(view.job_id);
  now = 999;
  assert.equal(jobs.get(view.job_id)!.status, "done");
  now = 1000;
  assert.equal(jobs.get(view.job_id), undefined);
  assert.equal(jobs.size, 0);
});

Deno.test("SimulationJobs measures telemetry cost under 10 % of run time", async () => {
  const jobs = new SimulationJobs({ model: tankModel, minFrameIntervalMs: 0 });
  const view = jobs.submit(payload({ simulation: { t_end_s: 86_400, dt_s: 1 } }));
  for (let i = 0; i < 4; i++) jobs.subscribe(view.job_id, () => {});
  await jobs.settled(view.job_id);
  const cost = jobs.telemetryCost();
  assert.equal(cost.frames, 101); // 100 progress frames (1 % each), then the result
  assert.ok(cost.share < 0.1, JSON.stringify(cost));
});

Deno.test("SimulationJobs refuses a job beyond maxQueued waiting ones (issue 18: the queue had no bound)", async () => {
  const jobs = new SimulationJobs({ model: tankModel, maxRunning: 1, maxQueued: 2 });
  const slow = payload({ simulation: { t_end_s: 2e5, dt_s: 1 }, substeps: 200 });
  const ids = [0, 1, 2].map(() => jobs.submit(slow).job_id);
  assert.equal(jobs.queued, 2);
  assert.throws(
    () => jobs.submit(slow),
    (e: unknown) => e instanceof QueueFullError && e.maxQueued === 2 && e.maxRunning === 1,
  );
  jobs.cancel(ids[2]!);
  const again = jobs.submit(slow);
  assert.equal(again.status, "queued");
  await jobs.close();
});

Deno.test("SimulationJobs drops the oldest finished results beyond maxHeldBytes (issue 18: 8 results held 2.3 GB for an hour)", async () => {
  const run = async (jobs: SimulationJobs<unknown>) => {
    const view = jobs.submit(payload());
    await jobs.settled(view.job_id);
    return view.job_id;
  };
  const probe = new SimulationJobs({ model: tankModel });
  await run(probe as SimulationJobs<unknown>);
  const one = probe.heldBytes; // one finished tank result: arrays, its frame text, the record
  assert.ok(one > 3600 * 3 * 8, `${one}`);

  const jobs = new SimulationJobs({
    model: tankModel,
    maxHeldBytes: Math.floor(2.5 * one),
    maxDroppedKept: 1,
  }) as SimulationJobs<unknown>;
  const [a, b, c] = [await run(jobs), await run(jobs), await run(jobs)];
  assert.ok(jobs.heldBytes <= 2.5 * one, `${jobs.heldBytes}`);
  const dropped = jobs.get(a!)!;
  assert.equal(dropped.status, "done");
  assert.equal(dropped.result_dropped, true);
  assert.equal(dropped.result, undefined);
  assert.ok(jobs.get(b!)!.result && jobs.get(c!)!.result);
  const frames: SimulationFrame[] = [];
  jobs.subscribe(a!, (f) => frames.push(f));
  assert.equal(frames.length, 1);
  assert.equal(frames[0]!.type, "error");
  assert.match((frames[0] as { error: string }).error, /dropped to bound the memory/);
  // The next result drops b; only one dropped job is remembered, so a is forgotten.
  await run(jobs);
  assert.equal(jobs.get(b!)!.result_dropped, true);
  assert.equal(jobs.get(a!), undefined);
  assert.equal(jobs.size, 3);
});

Deno.test("SimulationJobs announces a result over maxFrameBytes with result_ready instead of one huge frame (issue 18)", async () => {
  const jobs = new SimulationJobs({ model: tankModel, maxFrameBytes: 10_000 });
  const view = jobs.submit(payload());
  const frames: SimulationFrame[] = [];
  const texts: string[] = [];
  jobs.subscribe(view.job_id, (f, t) => {
    frames.push(f);
    texts.push(t);
  });
  await jobs.settled(view.job_id);
  const last = frames.at(-1)!;
  assert.equal(last.type, "result_ready");
  assert.equal((last as { result_values: number }).result_values, 4 * 3600);
  assert.ok(texts.every((t) => t.length < 10_000));
  assert.equal((jobs.get(view.job_id)!.result!["time_s"] as number[]).length, 3600);
});
