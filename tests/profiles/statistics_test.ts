import assert from "node:assert/strict";
import {
  durationCurve,
  fullLoadHours,
  max,
  mean,
  min,
  monthlyMeans,
  profileStatistics,
  resolutionMinutes,
  weekSlice,
} from "../../lib/profiles/statistics.ts";

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

Deno.test("mean(), min() and max() of a small series", () => {
  const values = [0.1447, 0.1401, 0.1521, 0.2588];
  assert.equal(min(values), 0.1401);
  assert.equal(max(values), 0.2588);
  assert.ok(Math.abs(mean(values) - 0.173925) < 1e-12);
  assert.throws(() => mean([]), RangeError);
});

Deno.test("fullLoadHours() sums per-unit values times the step length", () => {
  assert.equal(fullLoadHours(new Array(8760).fill(0.5)), 4380);
  assert.equal(fullLoadHours([1, 1, 1, 1], 15), 1);
});

Deno.test("durationCurve() sorts a copy from highest to lowest", () => {
  const values = [0.2, 0.9, 0, 0.5, 0.9];
  assert.deepEqual(durationCurve(values), [0.9, 0.9, 0.5, 0.2, 0]);
  assert.deepEqual(values, [0.2, 0.9, 0, 0.5, 0.9]);
});

Deno.test("monthlyMeans() puts the step after 28 February into March", () => {
  // 2016-02-28 22:00 and 23:00, then 2016-03-01 00:00 and 01:00: 29 February is dropped.
  const months = monthlyMeans([1, 2, 3, 4], "2016-02-28T22:00:00Z");
  assert.deepEqual(months[1], { month: 2, mean: 1.5, steps: 2 });
  assert.deepEqual(months[2], { month: 3, mean: 3.5, steps: 2 });
  assert.equal(months.length, 12);
  assert.deepEqual(months[0], { month: 1, mean: null, steps: 0 });
});

Deno.test("monthlyMeans() of 8760 hours follows the months of a 365-day year", () => {
  const values = DAYS_IN_MONTH.flatMap((days, m) => new Array(days * 24).fill(m + 1));
  assert.equal(values.length, 8760);
  const months = monthlyMeans(values, "2016-01-01T00:00:00Z");
  assert.deepEqual(
    months,
    DAYS_IN_MONTH.map((days, m) => ({ month: m + 1, mean: m + 1, steps: days * 24 })),
  );
});

Deno.test("monthlyMeans() starts mid-year and at other resolutions", () => {
  const months = monthlyMeans(new Array(8).fill(2), "2016-06-30T23:00:00Z", 15);
  assert.deepEqual(months[5], { month: 6, mean: 2, steps: 4 });
  assert.deepEqual(months[6], { month: 7, mean: 2, steps: 4 });
});

Deno.test("monthlyMeans() refuses a start on 29 February", () => {
  assert.throws(() => monthlyMeans([1], "2016-02-29T00:00:00Z"), RangeError);
});

Deno.test("weekSlice() returns one week of steps; the last week is shorter", () => {
  const values = Array.from({ length: 8760 }, (_, i) => i);
  assert.deepEqual(weekSlice(values, 0), values.slice(0, 168));
  assert.deepEqual(weekSlice(values, 1)[0], 168);
  assert.equal(weekSlice(values, 52).length, 24);
  assert.throws(() => weekSlice(values, 53), RangeError);
  assert.throws(() => weekSlice(values, -1), RangeError);
  assert.equal(weekSlice(values, 0, 15).length, 672);
});

Deno.test("resolutionMinutes() reads 1h and 15min", () => {
  assert.equal(resolutionMinutes("1h"), 60);
  assert.equal(resolutionMinutes("15min"), 15);
  assert.throws(() => resolutionMinutes("hourly"), SyntaxError);
});

Deno.test("profileStatistics() gives full-load hours only for capacity factors", () => {
  const values = [0.5, 1, 0];
  assert.deepEqual(profileStatistics({ type: "capacity_factor", resolution: "1h", values }), {
    mean: 0.5,
    min: 0,
    max: 1,
    full_load_hours: 1.5,
  });
  const load = profileStatistics({ type: "load", resolution: "1h", values: [6000, 7000] });
  assert.equal(load.full_load_hours, null);
  assert.equal(load.mean, 6500);
});
