import assert from "node:assert/strict";
import {
  MAX_DESCRIPTION_LENGTH,
  parseProfileFile,
  profileSlug,
  uploadedProfile,
  uploadResolution,
} from "../../../lib/catalogue/opentech/profile_upload.ts";
import { timeseriesSubmissionSchema } from "../../../lib/catalogue/submissions/timeseries_submission.ts";
import { profileMetadataSchema } from "../../../lib/profiles/profile_schema.ts";
import { deSolarHours, hourOf2016, SOLAR_FIELDS, uploadCsv } from "./_fixtures.ts";

const suffix = () => "3f2a9c1e";

/** The problems of an upload that must be refused. */
function refused(
  fields: Record<string, string>,
  file: { name: string; text: string },
): string[] {
  const result = uploadedProfile(fields, file, suffix);
  assert.equal(result.ok, false, "refused");
  return result.ok ? [] : result.problems;
}

/** A CSV of hourly rows from 2016-01-01 00:00, one per value. */
function hourly(values: readonly number[]): { name: string; text: string } {
  return { name: "profile.csv", text: uploadCsv(values) };
}

Deno.test("uploadedProfile() turns the frontend's upload of DE solar PV into a submission", async () => {
  const values = await deSolarHours();
  const result = uploadedProfile(SOLAR_FIELDS, hourly(values), suffix);
  assert.ok(result.ok, result.ok ? "" : result.problems.join("\n"));
  assert.deepEqual(result.body, {
    profile_id: "de_solar_pv_capacity_factor_2016_3f2a9c1e",
    name: "DE Solar PV Capacity Factor 2016",
    type: "capacity_factor",
    resolution: "1h", // "hourly"
    location: "DE", // sent as "de"
    carrier: "solar",
    year: 2016,
    source: "Dispa-SET EU28 input data (ENTSO-E, JRC)",
    unit: "p.u.",
    values,
  });
  assert.equal(result.start, "2016-01-01T00:00:00Z");
  assert.equal(result.description, "First two days of January 2016, hourly, UTC.");
  assert.equal(timeseriesSubmissionSchema.safeParse(result.body).success, true);
  assert.equal(parseProfileFile("p.csv", uploadCsv(values)).ok, true, "re-exported parser");
});

Deno.test("uploadedProfile() leaves optional fields out rather than inventing them", async () => {
  const { unit: _unit, year: _year, description: _description, ...required } = SOLAR_FIELDS;
  const values = await deSolarHours(24);
  for (const extra of [{}, { unit: " ", year: "", description: "" }, { year: "0" }]) {
    const result = uploadedProfile(
      { ...required, ...extra, colour: "red" },
      hourly(values),
      suffix,
    );
    assert.ok(result.ok, result.ok ? "" : result.problems.join("\n"));
    assert.equal("unit" in result.body, false, "no unit made up (the original assumed p.u.)");
    assert.equal("year" in result.body, false, "an empty year or the original's 0 is none");
    assert.equal("colour" in result.body, false, "other fields ignored");
    assert.equal(result.description, null);
  }
});

Deno.test("uploadResolution() maps the frontend's names and keeps our step lengths", async (t) => {
  const cases: [string, string | undefined][] = [
    ["hourly", "1h"],
    ["Hourly ", "1h"],
    ["daily", "24h"],
    ["15min", "15min"],
    ["30min", "30min"],
    ["1h", "1h"],
    ["3h", "3h"],
    ["weekly", undefined],
    ["1H", "1h"],
    ["0h", undefined],
    ["", undefined],
  ];
  for (const [sent, stored] of cases) {
    await t.step(JSON.stringify(sent), () => assert.equal(uploadResolution(sent), stored));
  }
});

Deno.test("uploadedProfile() checks the step against 15-minute and daily resolutions", () => {
  const quarterHours = ["timestamp,value", "2019-06-01 00:00,10", "2019-06-01 00:15,12"]
    .concat(["2019-06-01 00:30,11", "2019-06-01 00:45,13"]).join("\n");
  const load = { ...SOLAR_FIELDS, type: "load", unit: "MW", resolution: "15min" };
  const quarter = uploadedProfile(load, { name: "q.csv", text: quarterHours }, suffix);
  assert.ok(quarter.ok);
  assert.equal(quarter.body.resolution, "15min");
  assert.equal(quarter.start, "2019-06-01T00:00:00Z");

  assert.deepEqual(
    refused({ ...load, resolution: "hourly" }, { name: "q.csv", text: quarterHours }),
    [
      "row 3: 2019-06-01T00:15:00Z is 15min after the previous row's 2019-06-01T00:00:00Z, but " +
      "the resolution is 1h: every step needs a row",
    ],
  );

  const days = JSON.stringify({ "2019-06-01": 410.5, "2019-06-02": 398, "2019-06-03": 402.25 });
  const daily = uploadedProfile(
    { ...load, resolution: "daily", unit: "MWh" },
    { name: "d.json", text: days },
    suffix,
  );
  assert.ok(daily.ok);
  assert.equal(daily.body.resolution, "24h");
  assert.deepEqual(daily.body.values, [410.5, 398, 402.25]);
});

Deno.test("uploadedProfile() names the first row that breaks the step", async (t) => {
  const values = await deSolarHours(6);
  const rows = values.map((v, k) => `${hourOf2016(k)},${v}`);
  const csv = (lines: string[]) => ({
    name: "p.csv",
    text: ["timestamp,value", ...lines].join("\n"),
  });
  await t.step("a missing hour", () => {
    assert.deepEqual(refused(SOLAR_FIELDS, csv([...rows.slice(0, 3), ...rows.slice(4)])), [
      "row 5: 2016-01-01T04:00:00Z is 2h after the previous row's 2016-01-01T02:00:00Z, but the " +
      "resolution is 1h: every step needs a row",
    ]);
  });
  await t.step("rows out of order", () => {
    const swapped = [rows[0]!, rows[2]!, rows[1]!, ...rows.slice(3)];
    assert.deepEqual(refused(SOLAR_FIELDS, csv(swapped)), [
      "row 3: 2016-01-01T02:00:00Z is 2h after the previous row's 2016-01-01T00:00:00Z, but the " +
      "resolution is 1h: every step needs a row",
    ]);
  });
  await t.step("a repeated hour (a clock change in local time)", () => {
    assert.deepEqual(refused(SOLAR_FIELDS, csv([rows[0]!, rows[1]!, rows[1]!])), [
      "row 4: 2016-01-01T01:00:00Z is not after the previous row's 2016-01-01T01:00:00Z: rows " +
      "must be in time order",
    ]);
  });
  await t.step("29 February dropped, as in the catalogue's own files", () => {
    const leap = ["2016-02-28 22:00,0", "2016-02-28 23:00,0", "2016-03-01 00:00,0"];
    assert.deepEqual(refused(SOLAR_FIELDS, csv(leap)), [
      "row 4: 2016-03-01T00:00:00Z is 25h after the previous row's 2016-02-28T23:00:00Z, but " +
      "the resolution is 1h: every step needs a row (29 February is missing)",
    ]);
  });
});

Deno.test("uploadedProfile() reports capacity factors outside [0, 1] by row", async () => {
  const values = await deSolarHours(12);
  values[9] = 1.2; // row 11: the header is row 1
  values[10] = -0.1;
  assert.deepEqual(refused(SOLAR_FIELDS, hourly(values)), [
    "row 11: 1.2 is outside [0, 1] for a capacity factor",
    "row 12: -0.1 is outside [0, 1] for a capacity factor",
  ]);
  const load = uploadedProfile({ ...SOLAR_FIELDS, type: "load" }, hourly(values), suffix);
  assert.equal(load.ok, true, "other types may have any value");
});

Deno.test("uploadedProfile() reports the fields and the file together", () => {
  const fields = {
    name: "  ",
    type: "Capacity Factor",
    resolution: "weekly",
    location: "de",
    year: "20016",
    description: "x".repeat(MAX_DESCRIPTION_LENGTH + 1),
  };
  const file = { name: "p.csv", text: "timestamp,value\n2016-01-01 00:00,x\n2016-01-01 01:00,1\n" };
  assert.deepEqual(refused(fields, file), [
    "name: is required",
    "source: is required",
    "carrier: is required",
    'resolution: "weekly" is not a resolution: use 15min, 30min, hourly, daily or a step ' +
    "length such as 1h",
    'year: "20016" is not a year from 1900 to 2100',
    `description: has ${MAX_DESCRIPTION_LENGTH + 1} characters, at most ` +
    `${MAX_DESCRIPTION_LENGTH} are allowed`,
    'row 2: value "x" is not a number',
    "type: must be lower-case snake_case",
  ]);
  const nothing = refused({}, { name: "p.json", text: "" });
  assert.deepEqual(nothing.slice(0, -1), [
    "name: is required",
    "type: is required",
    "resolution: is required",
    "location: is required",
    "source: is required",
    "carrier: is required",
  ]);
  assert.match(nothing.at(-1)!, /^file: is not valid JSON: /);
});

Deno.test("profileSlug() and the generated profile id fit our profile_id rule", async (t) => {
  const cases: [string, string, string][] = [
    ["words", "DE Offshore Wind Capacity Factor 2023", "de_offshore_wind_capacity_factor_2023"],
    ["accents", "Zürich – Wärmelast (Fernwärme) 2019", "zurich_warmelast_fernwarme_2019"],
    ["edges", "  --Load--  ", "load"],
    ["no latin letters", "東京", "profile"],
    ["a long name", "a".repeat(200), "a".repeat(64)],
    ["cut at a word break", `${"b".repeat(63)} tail`, "b".repeat(63)],
  ];
  for (const [label, name, slug] of cases) {
    await t.step(label, () => assert.equal(profileSlug(name), slug));
  }
  await t.step("a long suffix still gives at most 128 characters", async () => {
    const values = await deSolarHours(2);
    const result = uploadedProfile(
      { ...SOLAR_FIELDS, name: "x".repeat(300) },
      hourly(values),
      () => "f".repeat(100),
    );
    assert.ok(result.ok);
    assert.equal(result.body.profile_id.length, 128);
    assert.equal(
      profileMetadataSchema.shape.profile_id.safeParse(result.body.profile_id).success,
      true,
    );
  });
});
