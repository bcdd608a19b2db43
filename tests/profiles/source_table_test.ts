import assert from "node:assert/strict";
import { parseSourceTable } from "../../lib/profiles/source_table.ts";
import { fixtureTable } from "./_fixtures.ts";

const HEADER = "timestamp,solar_pv_cf,offshore_wind_cf\r\n";

Deno.test("parseSourceTable() reads timestamps, numbers and blank cells as null", async () => {
  const table = await fixtureTable("AT_2016_leap_day.csv");
  assert.equal(table.timestamps.length, 28);
  assert.equal(table.timestamps[0], "2016-02-28T22:00:00Z");
  assert.equal(table.timestamps[27], "2016-03-01T01:00:00Z");
  assert.deepEqual(table.columns.get("onshore_wind_cf")?.slice(0, 2), [0.1447, 0.1401]);
  assert.deepEqual(table.columns.get("load_mw")?.slice(0, 2), [6454.8, 6169.6]);
  assert.ok(table.columns.get("offshore_wind_cf")?.every((v) => v === null));
});

Deno.test("parseSourceTable() names file, line and column of a cell that is not a number", () => {
  const text = HEADER + "2016-01-01T00:00:00Z,0,0.5\r\n2016-01-01T01:00:00Z,NaN,0.5\r\n";
  assert.throws(
    () => parseSourceTable("X.csv", text, "timestamp"),
    (e) =>
      e instanceof SyntaxError &&
      e.message === `Cannot read "X.csv": line 3, column solar_pv_cf: "NaN" is not a number`,
  );
});

Deno.test("parseSourceTable() refuses a missing hour", () => {
  const text = HEADER + "2016-01-01T00:00:00Z,0,0.5\r\n2016-01-01T02:00:00Z,0,0.5\r\n";
  assert.throws(() => parseSourceTable("X.csv", text, "timestamp"), RangeError);
});

Deno.test("parseSourceTable() refuses another first column", () => {
  assert.throws(() => parseSourceTable("X.csv", HEADER, "utc_timestamp"), SyntaxError);
});
