import assert from "node:assert/strict";
import { WorkSlices, yieldToEventLoop } from "../../lib/concurrency/yield_to_event_loop.ts";

Deno.test("yieldToEventLoop() lets a due timer run", async () => {
  let fired = false;
  setTimeout(() => fired = true, 0);
  await new Promise((resolve) => setTimeout(resolve, 1));
  fired = false;
  setTimeout(() => fired = true, 0);
  await yieldToEventLoop();
  assert.equal(fired, true);
});

Deno.test("WorkSlices.yieldIfDue() yields only once its slice has run sliceMs", async () => {
  let fired = false;
  setTimeout(() => fired = true, 0);
  await new WorkSlices(60_000).yieldIfDue();
  assert.equal(fired, false, "a fresh long slice does not yield");
  await new WorkSlices(0).yieldIfDue();
  assert.equal(fired, true, "a slice of 0 ms is always due");
});
