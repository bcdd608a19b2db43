import assert from "node:assert/strict";
import { operateWindows } from "../../../lib/model/operate/operate_windows.ts";

const hourly = (n: number) => Array.from({ length: n }, () => 1);

Deno.test("72 hourly steps, window 12, horizon 24: six windows, the last solved alone", () => {
  const w = operateWindows(hourly(72), 12, 24);
  assert.equal(w.length, 6);
  assert.deepEqual(w[0], { start: 0, keepEnd: 12, solveEnd: 24 });
  assert.deepEqual(w[4], { start: 48, keepEnd: 60, solveEnd: 72 });
  assert.deepEqual(w[5], { start: 60, keepEnd: 72, solveEnd: 72 });
});

Deno.test("a window over the whole period is one solve; a ragged end is a short window", () => {
  assert.deepEqual(operateWindows(hourly(72), 72, 72), [{ start: 0, keepEnd: 72, solveEnd: 72 }]);
  const w = operateWindows(hourly(30), 12, 12);
  assert.deepEqual(w.map((x) => [x.start, x.keepEnd, x.solveEnd]), [
    [0, 12, 12],
    [12, 24, 24],
    [24, 30, 30],
  ]);
  // window < steps < horizon: Calliope's fallback solves the first window to the last step.
  assert.deepEqual(operateWindows(hourly(20), 12, 48)[0], { start: 0, keepEnd: 12, solveEnd: 20 });
});

Deno.test("window and horizon count hours of resolution, as Calliope's cumulative sum", () => {
  const w = operateWindows([2, 2, 2, 2, 2, 2], 4, 8);
  assert.deepEqual(w.map((x) => [x.start, x.keepEnd, x.solveEnd]), [[0, 2, 4], [2, 4, 6], [
    4,
    6,
    6,
  ]]);
});
