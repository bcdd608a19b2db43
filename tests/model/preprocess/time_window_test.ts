import assert from "node:assert/strict";
import {
  formatMs,
  normalizeTimestamp,
  partialPeriod,
  resampleBins,
  resampleValues,
  stepResolutions,
  subsetIndices,
  timestampMs,
} from "../../../lib/model/preprocess/time_window.ts";

const H = 3_600_000;
const t0 = Date.UTC(2005, 0, 1);
const hours = (n: number, start = t0) => Array.from({ length: n }, (_, i) => start + i * H);

Deno.test("normalizeTimestamp() accepts a space or T, with or without seconds", () => {
  assert.equal(normalizeTimestamp("2005-01-01 00:00:00"), "2005-01-01T00:00:00");
  assert.equal(normalizeTimestamp("2005-01-01T13:00"), "2005-01-01T13:00:00");
  assert.equal(normalizeTimestamp("2005-01-01 13:00"), "2005-01-01T13:00:00");
  assert.equal(normalizeTimestamp("2005-01-01"), "2005-01-01T00:00:00");
  assert.equal(normalizeTimestamp("2005-02-30 00:00"), undefined);
  assert.equal(normalizeTimestamp("01/01/2005"), undefined);
  assert.equal(formatMs(timestampMs("2005-03-04T05:06:07")), "2005-03-04T05:06:07");
});

Deno.test("partialPeriod() spans the period a partial date names", () => {
  assert.deepEqual(partialPeriod("2005-01-01"), { start: t0, end: t0 + 24 * H });
  assert.deepEqual(partialPeriod("2005-01"), { start: t0, end: Date.UTC(2005, 1, 1) });
  assert.deepEqual(partialPeriod("2005"), { start: t0, end: Date.UTC(2006, 0, 1) });
  assert.deepEqual(partialPeriod("2005-12"), {
    start: Date.UTC(2005, 11, 1),
    end: Date.UTC(2006, 0, 1),
  });
  assert.deepEqual(partialPeriod("2005-01-01 05"), { start: t0 + 5 * H, end: t0 + 6 * H });
  assert.equal(partialPeriod("2005-13"), undefined);
  assert.equal(partialPeriod("soon"), undefined);
});

Deno.test("subsetIndices() follows pandas partial-string slicing", async (t) => {
  const times = hours(24 * 40); // 2005-01-01 .. 2005-02-09
  await t.step("one day is its 24 hours", () => {
    const r = subsetIndices(times, "2005-01-02");
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.indices, Array.from({ length: 24 }, (_, i) => 24 + i));
  });
  await t.step("a month is all of it", () => {
    const r = subsetIndices(times, "2005-01");
    assert.ok(r.ok && r.indices.length === 31 * 24);
  });
  await t.step("a pair includes both ends' whole days", () => {
    const r = subsetIndices(times, ["2005-01-01", "2005-01-05"]);
    assert.ok(r.ok);
    if (r.ok) {
      assert.equal(r.indices.length, 120);
      assert.equal(r.indices.at(-1), 119);
    }
  });
  await t.step("a pair with times", () => {
    const r = subsetIndices(times, ["2005-01-01 06:00", "2005-01-01 08:00"]);
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.indices, [6, 7, 8]);
  });
  await t.step("an empty window is an error", () => {
    const r = subsetIndices(times, "2006-01-01");
    assert.ok(!r.ok);
    if (!r.ok) assert.match(r.message, /selects no timestep/);
  });
  await t.step("a pair outside the data is an error, as in Calliope", () => {
    const r = subsetIndices(times, ["2004-12-31", "2005-01-02"]);
    assert.ok(!r.ok);
    if (!r.ok) assert.match(r.message, /outside the time series range \[2005-01-01, 2005-02-09\]/);
  });
  await t.step("nonsense is an error", () => {
    assert.ok(!subsetIndices(times, "yesterday").ok);
  });
});

Deno.test("stepResolutions() copies the penultimate step to the last", () => {
  assert.deepEqual(stepResolutions([0, H, 3 * H, 6 * H]), [1, 2, 3, 3]);
  assert.deepEqual(stepResolutions([0]), [1]);
});

Deno.test("resampleBins() bins from midnight and drops empty bins", () => {
  const times = hours(10, t0 + 2 * H); // 02:00 .. 11:00
  const bins = resampleBins(times, times.map(() => 1), 6);
  assert.deepEqual(bins.labels, [t0, t0 + 6 * H]);
  assert.deepEqual(bins.members, [[0, 1, 2, 3], [4, 5, 6, 7, 8, 9]]);
  assert.deepEqual(bins.resolution, [4, 6]);
  const gap = [t0, t0 + H, t0 + 13 * H];
  const gapBins = resampleBins(gap, [1, 12, 12], 6);
  assert.deepEqual(gapBins.labels, [t0, t0 + 12 * H]);
  assert.deepEqual(gapBins.resolution, [13, 12]);
});

Deno.test("resampleValues() sums or averages each bin", () => {
  const times = hours(12);
  const bins = resampleBins(times, times.map(() => 1), 6);
  const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  assert.deepEqual(resampleValues(v, bins, "sum"), [21, 57]);
  assert.deepEqual(resampleValues(v, bins, "mean"), [3.5, 9.5]);
});
