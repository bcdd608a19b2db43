import assert from "node:assert/strict";
import { zeroOrderHold } from "../../lib/simulation/zero_order_hold.ts";

Deno.test("zeroOrderHold(): latest point at or before each grid time, unsorted input", () => {
  // Points at 150 s and 0 s (unsorted), two at 300 s (the later one wins), grid of 100 s.
  const times = [150, 0, 300, 300];
  const values = [2, 1, 3, 4];
  assert.deepEqual([...zeroOrderHold(times, values, 5, 100)], [1, 1, 2, 4, 4]);
  // Before the first point its value holds.
  assert.deepEqual([...zeroOrderHold([50], [7], 2, 100)], [7, 7]);
  // An empty profile: the fallback, 0 unless given.
  assert.deepEqual([...zeroOrderHold([], [], 3, 60)], [0, 0, 0]);
  assert.deepEqual([...zeroOrderHold([], [], 2, 60, 1000)], [1000, 1000]);
});

Deno.test("zeroOrderHold(): sorted input (the client's) takes the no-sort path, same answers", () => {
  // Equal times in order: the later point wins, as in the sorted-by-index case above.
  assert.deepEqual([...zeroOrderHold([0, 150, 300, 300], [1, 2, 3, 4], 5, 100)], [1, 1, 2, 4, 4]);
  assert.deepEqual([...zeroOrderHold([50, 60], [7, 8], 2, 100)], [7, 8]);
  const times = Array.from({ length: 525_601 }, (_, i) => i * 60);
  const t0 = performance.now();
  const out = zeroOrderHold(times, times.map((t) => t / 60), 525_600, 60);
  assert.equal(out[525_599], 525_599);
  assert.ok(performance.now() - t0 < 1000);
});
