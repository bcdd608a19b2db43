import assert from "node:assert/strict";
import { isoUtc, parseUtcTimestamp } from "../../../lib/catalogue/opentech/utc_timestamp.ts";

Deno.test("parseUtcTimestamp() reads ISO 8601 dates and times, without a zone as UTC", async (t) => {
  const cases: [string, string][] = [
    ["2019-01-01 00:00:00", "2019-01-01T00:00:00.000Z"], // the frontend's template
    ["2019-01-01T00:00:00Z", "2019-01-01T00:00:00.000Z"],
    ["2019-01-01T00:00:00", "2019-01-01T00:00:00.000Z"], // no zone: UTC, not local time
    ["2019-01-01T01:00:00+01:00", "2019-01-01T00:00:00.000Z"], // pandas' to_csv of CET
    ["2019-01-01 00:00:00+00:00", "2019-01-01T00:00:00.000Z"],
    ["2018-12-31T19:00:00-0500", "2019-01-01T00:00:00.000Z"],
    ["2019-01-01T05:30+05", "2019-01-01T00:30:00.000Z"],
    ["2019-01-01T00:15", "2019-01-01T00:15:00.000Z"],
    ["2019-01-01", "2019-01-01T00:00:00.000Z"],
    ["2019-01-01T00:00:00.250Z", "2019-01-01T00:00:00.250Z"],
    ["  2016-02-29T23:00:00z ", "2016-02-29T23:00:00.000Z"],
    ["0050-03-01", "0050-03-01T00:00:00.000Z"], // not read as 1950
  ];
  for (const [text, iso] of cases) {
    await t.step(text, () => {
      const ms = parseUtcTimestamp(text);
      assert.ok(ms !== undefined);
      assert.equal(new Date(ms).toISOString(), iso);
    });
  }
});

Deno.test("parseUtcTimestamp() refuses other text and fields out of range", async (t) => {
  for (
    const text of [
      "",
      "01/01/2019 00:00",
      "2019-1-1",
      "1546300800",
      "2019-02-29", // 2019 is not a leap year
      "2016-04-31",
      "2019-13-01",
      "2019-01-01 24:00",
      "2019-01-01T00:60",
      "2019-01-01T00:00:00+25:00",
      "2019-01-01T00:00:00 CET",
    ]
  ) {
    await t.step(JSON.stringify(text), () => assert.equal(parseUtcTimestamp(text), undefined));
  }
});

Deno.test("isoUtc() writes milliseconds only when there are any", () => {
  assert.equal(isoUtc(Date.UTC(2016, 2, 1)), "2016-03-01T00:00:00Z");
  assert.equal(isoUtc(Date.UTC(2016, 2, 1, 0, 0, 0, 5)), "2016-03-01T00:00:00.005Z");
});
