import assert from "node:assert/strict";
import {
  profileStatistics,
  profileStatisticsSchema,
} from "../../../lib/catalogue/opentech/profile_statistics.ts";
import { quantile, standardDeviation } from "../../../lib/profiles/statistics.ts";
import { catalogueProfile, deSolarHours } from "./_fixtures.ts";

/** Equal to 12 significant digits. */
function close(actual: number, expected: number, what: string): void {
  assert.ok(
    Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual}, expected ${expected}`,
  );
}

Deno.test("quantile() interpolates linearly between order statistics (numpy's default)", () => {
  // numpy.percentile([1, 2, 3, 4], [0, 10, 50, 90, 100]) = [1, 1.3, 2.5, 3.7, 4]
  const cases: [number, number][] = [[0, 1], [0.1, 1.3], [0.5, 2.5], [0.9, 3.7], [1, 4]];
  for (const [q, expected] of cases) close(quantile([4, 2, 1, 3], q), expected, `q ${q}`);
  assert.equal(quantile([7], 0.9), 7);
  assert.equal(quantile([1, 2, 3, 4], 0.1, true), quantile([4, 3, 2, 1], 0.1));
  assert.throws(() => quantile([], 0.5), RangeError);
  assert.throws(() => quantile([1], 1.5), RangeError);
  assert.throws(() => quantile([1], NaN), RangeError);
});

Deno.test("standardDeviation() is the population one (numpy's std, ddof 0)", () => {
  close(standardDeviation([1, 2, 3, 4]), Math.sqrt(1.25), "std");
  assert.equal(standardDeviation([5]), 0);
  assert.throws(() => standardDeviation([]), RangeError);
});

Deno.test("profileStatistics() of 48 hours of DE solar PV 2016 matches numpy", async () => {
  const values = await deSolarHours();
  const times = values.map((_, k) => Date.UTC(2016, 0, 1, k));
  const stats = profileStatistics(values, times);
  // numpy 1.x: min, max, mean, std, percentile(10), percentile(90) of the same 48 values.
  assert.equal(stats.v_min, 0);
  assert.equal(stats.v_max, 0.113);
  close(stats.v_mean, 0.0204375, "mean");
  close(stats.v_std, 0.03695543839657884, "std");
  assert.equal(stats.v_p10, 0);
  close(stats.v_p90, 0.09020000000000002, "p90");
  assert.equal(stats.first_ts, "2016-01-01T00:00:00Z");
  assert.equal(stats.last_ts, "2016-01-02T23:00:00Z");
  assert.deepEqual(profileStatisticsSchema.parse(stats), stats);
});

Deno.test("profileStatistics() of GB prices 2016 (4441 hours, spikes kept) matches numpy", async () => {
  const { values } = await catalogueProfile("GB_price_2016");
  const stats = profileStatistics(values);
  assert.equal(stats.v_min, 8.31);
  assert.equal(stats.v_max, 1174.22);
  close(stats.v_mean, 53.36614050889439, "mean");
  close(stats.v_std, 48.8472557516959, "std");
  close(stats.v_p10, 32.9, "p10");
  close(stats.v_p90, 69.77, "p90");
  assert.equal(stats.first_ts, null, "no times given");
  assert.equal(stats.last_ts, null);
});

Deno.test("profileStatistics() refuses no values and leaves its input unsorted", () => {
  assert.throws(() => profileStatistics([]), RangeError);
  const values = [0.3, 0.1, 0.2];
  profileStatistics(values);
  assert.deepEqual(values, [0.3, 0.1, 0.2]);
});
