/**
 * Calliope 0.6.10's TestMasks (`calliope/test/test_core_time.py`) ported with its numbers, on
 * the same data: the national- and urban-scale examples cut to January 2005, and the test
 * model's 15-minute series.
 */
import assert from "node:assert/strict";
import { extreme, extremeDiff, type MaskOutcome, zero } from "../../../lib/model/time/masks.ts";
import { DAY_MS } from "../../../lib/model/time/time_data.ts";
import { exampleTimeData, stamp, stamps, testModelTimeData } from "./_time_fixtures.ts";

const national = await exampleTimeData("national");
const urban = await exampleTimeData("urban");

function picked(data: { timestamps: readonly number[] }, outcome: MaskOutcome): string[] {
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return outcome.indices.map((i) => stamp(data.timestamps[i]!));
}

function problems(outcome: MaskOutcome): { path: string; message: string }[] {
  assert.ok(!outcome.ok, "expected problems");
  return [...outcome.problems];
}

Deno.test("zero() picks csp's dark hours (test_zero)", () => {
  const mask = picked(national, zero(national, { tech: "csp", var: "resource" }));
  // Calliope's list: 00:00-06:00 and 16:00-23:00 of 1-5 January, the first 75 picked.
  const expected = [1, 2, 3, 4, 5].flatMap((d) =>
    [0, 1, 2, 3, 4, 5, 6, 16, 17, 18, 19, 20, 21, 22, 23].map((h) =>
      `2005-01-0${d} ${String(h).padStart(2, "0")}:00:00`
    )
  );
  assert.deepEqual(mask.slice(0, 75), expected);
});

Deno.test("extreme() picks csp's largest two days with 2H padding (test_extreme)", () => {
  const mask = picked(
    national,
    extreme(national, {
      tech: "csp",
      var: "resource",
      how: "max",
      length: "2D",
      n: 1,
      padding: "2H",
    }),
  );
  assert.deepEqual(mask, stamps("2005-01-18 22:00", "2005-01-21 02:00", 60));
  assert.equal(mask.length, 52);
});

Deno.test("extremeDiff() normalised, heat minus electricity, two smallest days (test_extreme_diff_and_normalize)", () => {
  const mask = picked(
    urban,
    extremeDiff(urban, {
      tech0: "demand_heat",
      tech1: "demand_electricity",
      var: "resource",
      how: "min",
      length: "1D",
      n: 2,
      normalize: true,
    }),
  );
  assert.deepEqual(mask, [
    ...stamps("2005-01-13 00:00", "2005-01-14 00:00", 60),
    ...stamps("2005-01-19 00:00", "2005-01-20 00:00", 60),
  ]);
});

Deno.test("extreme() with calendar_week padding picks days 18 to 24 (test_extreme_week_1d)", () => {
  const outcome = extreme(national, {
    tech: "csp",
    var: "resource",
    how: "max",
    length: "1D",
    n: 1,
    padding: "calendar_week",
  });
  assert.ok(outcome.ok);
  const dayOfYear = (i: number) => (national.timestamps[i]! - Date.UTC(2005, 0, 1)) / DAY_MS + 1;
  assert.deepEqual([...new Set(outcome.indices.map((i) => Math.floor(dayOfYear(i))))], [
    18,
    19,
    20,
    21,
    22,
    23,
    24,
  ]);
  assert.equal(outcome.indices.length, 7 * 24);
});

Deno.test("extreme() refuses calendar_week padding with 2D periods (test_extreme_week_2d)", () => {
  const found = problems(
    extreme(national, { tech: "csp", length: "2D", n: 1, padding: "calendar_week" }),
  );
  assert.deepEqual(found.map((p) => p.path), ["parameters.time.masks[0].options.padding"]);
  assert.match(found[0]!.message, /calendar_week padding needs n: 1 and length: 1D/);
});

Deno.test("extreme() on 15-minute data picks 2 January (test_15min_masking_1D)", async () => {
  const data = await testModelTimeData("demand_elec_15mins.csv");
  const mask = picked(
    data,
    extreme(data, { tech: "test_demand_elec", var: "resource", how: "max", length: "1D" }),
  );
  assert.deepEqual(mask, stamps("2005-01-02 00:00", "2005-01-03 00:00", 15));
  assert.equal(mask.length, 96);
});

Deno.test("extreme() on 15-minute-to-2-hour data picks 2 January (test_15min_to_2h_masking_1D)", async () => {
  const data = await testModelTimeData("demand_elec_15T_to_2h.csv");
  const mask = picked(
    data,
    extreme(data, { tech: "test_demand_elec", var: "resource", how: "max", length: "1D" }),
  );
  // Calliope's list: the 21 timesteps of 2 January, at 15 min to 2 h.
  assert.deepEqual(
    mask,
    [
      "00:00",
      "00:15",
      "00:30",
      "00:45",
      "01:00",
      "01:30",
      "02:00",
      "02:30",
      "03:00",
      "04:00",
      "05:00",
      "06:00",
      "08:00",
      "10:00",
      "12:00",
      "14:00",
      "16:00",
      "17:00",
      "18:00",
      "20:00",
      "22:00",
    ].map((t) => `2005-01-02 ${t}:00`),
  );
});

// Beyond Calliope's tests: expected values from Calliope 0.6.10's _extreme/_get_minmax_timestamps
// copied into a script and run with pandas 3 (/work/venv22) on the same TimeData, dumped to
// JSON. One deliberate difference: Calliope slices [start, end] and drops the last timestep,
// which loses the last timestep of a period ending with the data or with its groupby group
// (its results below have 47 and 68 timesteps); we keep the period's half-open [start, end).

Deno.test("extreme() at one location, not normalised, smallest two days", () => {
  const mask = picked(
    national,
    extreme(national, { tech: "csp", locs: ["region1-1"], normalize: false, how: "min", n: 2 }),
  );
  assert.deepEqual(mask, [
    ...stamps("2005-01-12 00:00", "2005-01-13 00:00", 60),
    ...stamps("2005-01-31 00:00", "2005-02-01 00:00", 60), // Calliope: without 23:00
  ]);
});

Deno.test("extreme() with groupby_length W: the largest 12 hours of each Monday-Sunday week", () => {
  const mask = picked(
    national,
    extreme(national, { tech: "demand_power", length: "12H", groupby_length: "W" }),
  );
  assert.deepEqual(
    mask,
    ["02", "09", "11", "23", "26", "31"].flatMap((d) =>
      stamps(`2005-01-${d} 12:00`, `2005-01-${d} 23:00`, 60).concat(`2005-01-${d} 23:00:00`)
    ),
  );
});

Deno.test("extreme() padding is cut at the start of the data", () => {
  const mask = picked(urban, extreme(urban, { tech: "pv", how: "min", padding: "6H" }));
  assert.deepEqual(mask, stamps("2005-01-01 00:00", "2005-01-02 06:00", 60));
});

Deno.test("extreme() on a cost series, largest three 6-hour periods", () => {
  const mask = picked(
    urban,
    extreme(urban, {
      tech: "chp",
      var: "cost_export",
      costs: "monetary",
      length: "6H",
      n: 3,
      normalize: false,
    }),
  );
  assert.deepEqual(mask, [
    ...stamps("2005-01-02 00:00", "2005-01-02 06:00", 60),
    ...stamps("2005-01-11 00:00", "2005-01-11 06:00", 60),
    ...stamps("2005-01-12 00:00", "2005-01-12 06:00", 60),
  ]);
});

Deno.test("extremeDiff() with how max on 15-minute data picks the day of largest difference", async () => {
  const data = await testModelTimeData("demand_elec_15mins.csv");
  // Both locations' demand is the same tech: the difference is zero, ties go to the first day.
  const mask = picked(
    data,
    extremeDiff(data, { tech0: "test_demand_elec", tech1: "test_demand_elec" }),
  );
  assert.deepEqual(mask, stamps("2005-01-01 00:00", "2005-01-02 00:00", 15));
});

Deno.test("the masks name what the data does not have", async (t) => {
  const at = "parameters.time.masks[2].options";
  await t.step("an unknown variable", () => {
    const found = problems(zero(national, { tech: "csp", var: "resourse" }, at));
    assert.deepEqual(found.map((p) => p.path), [`${at}.var`]);
    assert.match(found[0]!.message, /no time series of "resourse".*resource/);
  });
  await t.step("a tech without that series", () => {
    const found = problems(extreme(national, { tech: "ccgt" }, at));
    assert.deepEqual(found.map((p) => p.path), [`${at}.tech`]);
    assert.match(
      found[0]!.message,
      /tech "ccgt" has no time series of "resource" \(techs that have one: csp, demand_power\)/,
    );
  });
  await t.step("both techs of extreme_diff", () => {
    const found = problems(extremeDiff(national, { tech0: "x", tech1: "y" }, at));
    assert.deepEqual(found.map((p) => p.path), [`${at}.tech0`, `${at}.tech1`]);
  });
  await t.step("a location without the tech", () => {
    const found = problems(extreme(national, { tech: "csp", locs: ["region2"] }, at));
    assert.deepEqual(found.map((p) => p.path), [`${at}.locs`]);
    assert.match(found[0]!.message, /at region2 \(it has at: region1-1, region1-2, region1-3\)/);
  });
  await t.step("cost classes of a variable that has none", () => {
    const found = problems(extreme(national, { tech: "csp", costs: "monetary" }, at));
    assert.deepEqual(found.map((p) => p.path), [`${at}.costs`]);
  });
  await t.step("n larger than the periods", () => {
    const found = problems(extreme(national, { tech: "csp", length: "2D", n: 17 }, at));
    assert.deepEqual(found.map((p) => p.path), [`${at}.n`]);
    assert.match(found[0]!.message, /n is 17, but the data has only 16 period\(s\) of length 2D/);
  });
  await t.step("lengths and paddings pandas could not read", () => {
    const found = problems(
      extreme(
        national,
        { tech: "csp", length: "1 fortnight", padding: "1M", groupby_length: "x" },
        at,
      ),
    );
    assert.deepEqual(found.map((p) => p.path), [
      `${at}.length`,
      `${at}.padding`,
      `${at}.groupby_length`,
    ]);
    assert.match(found[0]!.message, /cannot read length "1 fortnight"/);
  });
});
