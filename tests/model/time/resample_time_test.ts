/**
 * Calliope 0.6.10's TestResampling (`calliope/test/test_core_time.py`) ported: the test model's
 * 15-minute series resampled, alone and around a mask. Calliope's tests check the timesteps;
 * the resolutions and the resampled `resource` were computed offline with pandas 3
 * (/work/venv22): the CSV resampled with `.resample(freq).sum(min_count=1)`, empty bins
 * dropped, masked rows concatenated back and sorted, as Calliope's `resample` and
 * `_combine_datasets` do.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { resolveModel } from "../../../lib/model/preprocess/resolve_model.ts";
import { extreme } from "../../../lib/model/time/masks.ts";
import { timeDataOf } from "../../../lib/model/time/model_time_data.ts";
import { resample, resampleBy } from "../../../lib/model/time/resample_time.ts";
import type { TimeData, TimeOutcome } from "../../../lib/model/time/time_data.ts";
import { HOUR_MS } from "../../../lib/model/time/time_data.ts";
import { ms, stamp, stamps, testModelTimeData } from "./_time_fixtures.ts";

const quarterHours = await testModelTimeData("demand_elec_15mins.csv");
const mixed = await testModelTimeData("demand_elec_15T_to_2h.csv");

function resampled(outcome: TimeOutcome): TimeData {
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return outcome.result.data;
}

function resource(data: TimeData, loc: string): readonly number[] {
  return data.variables.find((v) =>
    v.variable === "resource" && v.locTech === `${loc}::test_demand_elec`
  )!
    .values;
}

Deno.test("resample() of the unmasked days to 2H keeps 2 January at 15 min (test_15min_masking_1D_resampling_to_2h)", () => {
  const mask = extreme(quarterHours, { tech: "test_demand_elec", how: "max" });
  assert.ok(mask.ok);
  const rest = quarterHours.timestamps.map((_, i) => i).filter((i) => !mask.indices.includes(i));
  const data = resampled(resample(quarterHours, "2H", rest));
  assert.deepEqual(data.timestamps.map(stamp), [
    ...stamps("2005-01-01 00:00", "2005-01-02 00:00", 120),
    ...stamps("2005-01-02 00:00", "2005-01-03 00:00", 15),
    ...stamps("2005-01-03 00:00", "2005-01-04 00:00", 120),
  ]);
  assert.equal(data.timestamps.length, 120);
  const twoHourly = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
  assert.deepEqual(data.resolution, [...twoHourly, ...Array(96).fill(0.25), ...twoHourly]);
  assert.deepEqual(data.weights, Array(120).fill(1));
  const day = [-40, -40, -40, -80, -80, -80, -80, -80, -80, -40, -40, -40];
  const jan2 = (
    peak: number,
  ) => [...Array(24).fill(-5), ...Array(48).fill(peak), ...Array(24).fill(-5)];
  assert.deepEqual(resource(data, "0"), [...day, ...jan2(-15), ...day]);
  assert.deepEqual(resource(data, "1"), [...day, ...jan2(-10), ...day]);
});

Deno.test("resample() of 15-minute data to 6H (test_15min_resampling_to_6h)", () => {
  const data = resampled(resample(quarterHours, "6H"));
  assert.deepEqual(data.timestamps.map(stamp), stamps("2005-01-01 00:00", "2005-01-04 00:00", 360));
  assert.deepEqual(data.resolution, Array(12).fill(6));
  assert.deepEqual(data.weights, Array(12).fill(1));
  assert.deepEqual(resource(data, "0"), [
    -120,
    -240,
    -240,
    -120,
    -120,
    -360,
    -360,
    -120,
    -120,
    -240,
    -240,
    -120,
  ]);
});

Deno.test("resample() of 15-minute-to-2-hour data to 2H (test_15min_to_2h_resampling_to_2h)", () => {
  const data = resampled(resample(mixed, "2H"));
  assert.deepEqual(data.timestamps.map(stamp), stamps("2005-01-01 00:00", "2005-01-04 00:00", 120));
  assert.deepEqual(data.resolution, Array(36).fill(2));
  // pandas: each location's resource summed per 2-hour bin.
  const day = [-30, -15, -10, -10, -10, -10, -10, -10, -20, -5, -5, -5];
  const jan2 = [-30, -15, -10, -15, -15, -15, -15, -15, -30, -5, -5, -5];
  assert.deepEqual(resource(data, "0"), [...day, ...jan2, ...day]);
  assert.deepEqual(resource(data, "1"), [...day, ...day, ...day]);
});

Deno.test("resample() averages every series but resource, and the weights", () => {
  const data: TimeData = {
    timestamps: [0, 1, 2, 3].map((h) => ms("2005-01-01 00:00") + h * HOUR_MS),
    resolution: [1, 1, 1, 1],
    weights: [1, 3, 2, 2],
    variables: [
      { variable: "resource", locTech: "a::pv", values: [1, 2, 3, 4] },
      { variable: "cost_om_prod", locTech: "a::pv", costClass: "monetary", values: [1, 2, 3, 4] },
    ],
  };
  const out = resampled(resample(data, "2h"));
  assert.deepEqual(out.resolution, [2, 2]);
  assert.deepEqual(out.weights, [2, 2]);
  assert.deepEqual(out.variables.map((v) => v.values), [[3, 7], [1.5, 3.5]]);
  assert.equal(out.variables[1]!.costClass, "monetary");
});

Deno.test("resampleBy() labels a bin by its first member when a kept timestep sits before it", () => {
  // Kept 00:00 and 00:30, resampled 01:00-01:30 in the 00:00-02:00 bin: pandas would label it
  // 00:00, the kept timestep's time; it is labelled 01:00 instead.
  const data: TimeData = {
    timestamps: [0, 1, 2, 3].map((k) => ms("2005-01-01 00:00") + k * 30 * 60_000),
    resolution: [0.5, 0.5, 0.5, 0.5],
    weights: [1, 1, 1, 1],
    variables: [{ variable: "resource", locTech: "a::pv", values: [1, 2, 3, 4] }],
  };
  const out = resampleBy(data, 2 * HOUR_MS, [2, 3]);
  assert.deepEqual(out.timestamps.map(stamp), [
    "2005-01-01 00:00:00",
    "2005-01-01 00:30:00",
    "2005-01-01 01:00:00",
  ]);
  assert.deepEqual(out.resolution, [0.5, 0.5, 1]);
  assert.deepEqual(out.variables[0]!.values, [1, 2, 7]);
});

Deno.test("resample() refuses a resolution pandas could not read or that has no fixed length", async (t) => {
  for (const text of ["two hours", "1M", "W", "0H", "-2H"]) {
    await t.step(text, () => {
      const outcome = resample(quarterHours, text);
      assert.ok(!outcome.ok);
      assert.deepEqual(outcome.problems.map((p) => p.path), [
        "parameters.time.function_options.resolution",
      ]);
      assert.match(outcome.problems[0]!.message, new RegExp(`cannot read resolution "${text}"`));
    });
  }
  for (const text of ["2H", "2h", "120min", "120T", "0.5D", "D"]) {
    await t.step(text, () => assert.ok(resample(quarterHours, text).ok));
  }
});

Deno.test("resample() agrees with the import's resampling of the national time_resampling scenario", async () => {
  // The scenario (subset_time 2005-01, resample 6H) goes through the importer's own resampler
  // (lib/model/preprocess/timeline.ts); the hourly January resampled here must match it.
  const dir = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;
  const imported = timeDataOf(
    resolveModel(await importCalliopeModel(dir, { scenario: "time_resampling" })),
  );
  const hourly = timeDataOf(
    resolveModel(await importCalliopeModel(dir, { overrides: { "model.subset_time": "2005-01" } })),
  );
  const data = resampled(resample(hourly, "6H"));
  assert.equal(data.timestamps.length, 124);
  assert.deepEqual(data.timestamps, imported.timestamps);
  assert.deepEqual(data.resolution, imported.resolution);
  assert.deepEqual(data.variables, imported.variables);
});
