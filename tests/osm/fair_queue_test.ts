import assert from "node:assert/strict";
import { FairQueue, QueueBusyError } from "../../lib/osm/fair_queue.ts";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("FairQueue runs one task at a time, clients in turn, starts intervalMs apart", async () => {
  const queue = new FairQueue({ intervalMs: 30, maxWaitMs: 5000 });
  const started: [string, number][] = [];
  const t0 = performance.now();
  const task = (name: string) => async () => {
    started.push([name, performance.now() - t0]);
    await tick(5);
    return name;
  };
  const results = await Promise.all([
    queue.run("a", task("a1")),
    queue.run("a", task("a2")),
    queue.run("a", task("a3")),
    queue.run("b", task("b1")),
    queue.run("c", task("c1")),
    queue.run("b", task("b2")),
  ]);
  assert.deepEqual(results, ["a1", "a2", "a3", "b1", "c1", "b2"]);
  // a1 started alone; then the others in turn, a client served last going after the others.
  assert.deepEqual(started.map(([n]) => n), ["a1", "b1", "c1", "a2", "b2", "a3"]);
  const gaps = started.slice(1).map(([, at], i) => at - started[i]![1]);
  assert.ok(gaps.every((g) => g >= 29), gaps.join(", "));
  assert.equal(queue.waiting, 0);
});

Deno.test("FairQueue refuses at once past the wait bound, with the time to retry", async () => {
  const queue = new FairQueue({ intervalMs: 100, maxWaitMs: 250 });
  const run = () => queue.run("a", () => tick(1));
  const admitted = [run(), run(), run()]; // starts at 0, 100 and 200 ms
  assert.equal(queue.estimateWaitMs("a"), 300);
  assert.equal(queue.estimateWaitMs("b"), 200); // one turn ahead of a's second and third
  const refused = await run().then(() => undefined, (e) => e);
  assert.ok(refused instanceof QueueBusyError);
  assert.equal(refused.retryAfterMs, 100);
  await Promise.all(admitted);
});

Deno.test("FairQueue drops a task still waiting after maxWaitMs; a failing task fails alone", async () => {
  const queue = new FairQueue({ intervalMs: 0, maxWaitMs: 100 });
  const slow = queue.run("a", () => tick(300).then(() => "slow"));
  const waiting = queue.run("b", () => Promise.resolve("never"));
  const thrown = queue.run("c", () => {
    throw new Error("sync");
  });
  await assert.rejects(waiting, QueueBusyError);
  await assert.rejects(thrown, QueueBusyError);
  assert.equal(await slow, "slow");
  await assert.rejects(queue.run("c", () => Promise.reject(new Error("async"))), /async/);
  await assert.rejects(
    queue.run("c", () => {
      throw new Error("sync");
    }),
    /sync/,
  );
  assert.equal(await queue.run("d", () => Promise.resolve(1)), 1);
});
