import assert from "node:assert/strict";
import { abortableDelay } from "../../lib/concurrency/abortable_delay.ts";

Deno.test("abortableDelay() waits its time, ends early on abort, and at once when aborted", async () => {
  let started = performance.now();
  await abortableDelay(30, new AbortController().signal);
  assert.ok(performance.now() - started >= 25);
  const controller = new AbortController();
  started = performance.now();
  setTimeout(() => controller.abort(), 10);
  await abortableDelay(10_000, controller.signal);
  assert.ok(performance.now() - started < 1000);
  started = performance.now();
  await abortableDelay(10_000, controller.signal);
  assert.ok(performance.now() - started < 100);
});
