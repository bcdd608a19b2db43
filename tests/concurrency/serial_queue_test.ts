import assert from "node:assert/strict";
import { serialQueue } from "../../lib/concurrency/serial_queue.ts";

Deno.test("serialQueue() runs tasks one at a time, in order, past failures", async () => {
  const serial = serialQueue();
  const log: string[] = [];
  const task = (name: string, fail = false) =>
    serial(async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, 1));
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    });
  const results = await Promise.allSettled([task("a"), task("b", true), task("c")]);
  assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected", "fulfilled"]);
  assert.deepEqual(log, ["start a", "end a", "start b", "end b", "start c", "end c"]);
});

Deno.test("serialQueue() runs tasks one at a time, starts spaced by the interval", async () => {
  const queue = serialQueue(40);
  const starts: number[] = [];
  let active = 0;
  let most = 0;
  const task = async () => {
    starts.push(Date.now());
    most = Math.max(most, ++active);
    await new Promise((resolve) => setTimeout(resolve, 5));
    active--;
  };
  const failing = () => Promise.reject(new Error("HTTP 500"));
  await Promise.allSettled([queue(task), queue(failing), queue(task)]);
  assert.equal(most, 1);
  assert.equal(starts.length, 2);
  // The failed task in between also took its slot: two intervals separate the two starts.
  assert.ok((starts[1] ?? 0) - (starts[0] ?? 0) >= 78, `${starts[1]! - starts[0]!} ms`);
});
