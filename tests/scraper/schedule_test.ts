import assert from "node:assert/strict";
import { startSchedule } from "../../lib/scraper/schedule.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, failing after `ms`. */
async function until(condition: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await wait(5);
  }
}

Deno.test("startSchedule() runs every interval until stopped", async () => {
  let runs = 0;
  const before = Date.now();
  const schedule = startSchedule({ intervalMs: 20, run: () => Promise.resolve(runs++) });
  const first = schedule.nextRun()?.getTime() ?? 0;
  assert.ok(first >= before + 20 && first <= Date.now() + 20);
  await until(() => runs >= 3);
  assert.ok((schedule.nextRun()?.getTime() ?? 0) > first);
  await schedule.stop();
  const counted = runs;
  assert.equal(schedule.nextRun(), undefined);
  await wait(60);
  assert.equal(runs, counted);
});

Deno.test("startSchedule() skips ticks while a run is going, stop() waits for it", async () => {
  let started = 0;
  let active = 0;
  const gate = Promise.withResolvers<void>();
  const schedule = startSchedule({
    intervalMs: 5,
    run: async () => {
      started++;
      active++;
      await gate.promise;
      active--;
    },
  });
  await until(() => started === 1);
  // Many ticks pass while the first run is held: none of them starts another run.
  await wait(60);
  assert.equal(started, 1);
  assert.equal(schedule.busy(), true);
  let stopped = false;
  const stopping = schedule.stop().then(() => stopped = true);
  await wait(20);
  assert.equal(stopped, false);
  gate.resolve();
  await stopping;
  assert.equal(active, 0);
  assert.equal(schedule.busy(), false);
  assert.equal(started, 1);
});

Deno.test("startSchedule() reports a failing run and keeps going", async () => {
  const errors: unknown[] = [];
  let runs = 0;
  const schedule = startSchedule({
    intervalMs: 10,
    run: () => {
      runs++;
      throw new Error("boom");
    },
    onError: (error) => errors.push(error),
  });
  await until(() => errors.length >= 2);
  await schedule.stop();
  assert.equal(errors.length, runs);
  assert.match(String(errors[0]), /boom/);
});

Deno.test("startSchedule() refuses a non-positive interval", () => {
  assert.throws(() => startSchedule({ intervalMs: 0, run: () => Promise.resolve() }), RangeError);
});
