import assert from "node:assert/strict";
import { buildCatalogue } from "../../lib/profiles/build_catalogue.ts";
import { COUNTRIES } from "../../lib/profiles/countries.ts";
import { parseSourceTable } from "../../lib/profiles/source_table.ts";
import { fixtureCatalogue, fixtureTable, ROOT } from "./_fixtures.ts";

const AT = COUNTRIES.filter((c) => c.iso === "AT");

function byId(id: string) {
  return async () => {
    const profile = (await fixtureCatalogue()).profiles.find((p) => p.profile_id === id);
    assert.ok(profile, `no profile ${id}`);
    return profile;
  };
}

Deno.test("buildCatalogue() drops the 24 hours of 29 February and says so", async () => {
  const wind = await byId("AT_onshore_wind_2016")();
  // 28 fixture rows: 2 of 28 February, 24 of 29 February, 2 of 1 March.
  assert.deepEqual(wind.values, [0.1447, 0.1401, 0.1521, 0.2588]);
  assert.equal(wind.n_timesteps, 4);
  assert.equal(wind.start, "2016-02-28T22:00:00Z");
  assert.equal(wind.end, "2016-03-01T01:00:00Z");
  assert.ok(wind.notes.includes(
    "29 February is dropped (24 hours of a leap year), so the series has 4 steps: the step " +
      "after 2016-02-28T23:00:00Z is 2016-03-01T00:00:00Z.",
  ));
});

Deno.test("buildCatalogue() turns the 8784 hours of 2016 into 8760 steps", async () => {
  const read = async (file: string, time: string) =>
    parseSourceTable(file, await Deno.readTextFile(`${ROOT}data/profiles/${file}`), time);
  const at = await read("AT_2016.csv", "timestamp");
  assert.equal(at.timestamps.length, 8784);
  const built = buildCatalogue(
    new Map([["AT", at]]),
    await read("prices_2016.csv", "utc_timestamp"),
    AT,
  );
  for (const p of built.profiles) {
    assert.equal(p.n_timesteps, 8760, p.profile_id);
    assert.equal(p.values.length, 8760, p.profile_id);
    assert.equal(p.start, "2016-01-01T00:00:00Z");
    assert.equal(p.end, "2016-12-31T23:00:00Z");
  }
  // Row 1440 (0-based) of the source is 2016-03-01T00:00Z; it follows 28 February at step 1416.
  assert.equal(at.timestamps[1440], "2016-03-01T00:00:00Z");
  const load = built.profiles.find((p) => p.profile_id === "AT_load_2016");
  assert.equal(load?.values[1415], at.columns.get("load_mw")?.[1415]);
  assert.equal(load?.values[1416], at.columns.get("load_mw")?.[1440]);
});

Deno.test("buildCatalogue() clips Norwegian run-of-river to 1 and counts the hours", async () => {
  const ror = await byId("NO_hydro_ror_2016")();
  assert.deepEqual(ror.values, [0.9923, 0.9957, 0.9991, 1, 1, 1]);
  assert.ok(ror.notes.includes(
    "Clipped to 1 in 3 of 6 hours (source maximum 1.0093): the source is a scaled " +
      "availability factor, not a physical capacity factor.",
  ));
});

Deno.test("buildCatalogue() keeps reservoir inflow above 1: it is not a capacity factor", async () => {
  const inflow = await byId("NO_hydro_reservoir_inflow_2016")();
  assert.equal(inflow.type, "inflow");
  assert.equal(inflow.unit, "MWh/MW");
  assert.deepEqual(inflow.values, [1.1623, 1.1657, 1.1691, 1.1725, 1.1759, 1.1793]);
});

Deno.test("buildCatalogue() skips a blank series and lists it as not published", async () => {
  const built = await fixtureCatalogue();
  assert.ok(!built.profiles.some((p) => p.profile_id === "AT_offshore_wind_2016"));
  assert.deepEqual(built.not_published.map((u) => u.profile_id), ["AT_offshore_wind_2016"]);
  assert.match(built.not_published[0]?.reason ?? "", /offshore_wind_cf of AT_2016_leap_day\.csv/);
  assert.ok(built.profiles.some((p) => p.profile_id === "NO_offshore_wind_2016"));
});

Deno.test("buildCatalogue() publishes a partly blank price series for its filled span", async () => {
  const built = await fixtureCatalogue();
  const gb = buildCatalogue(
    new Map([["GB", await fixtureTable("AT_2016_leap_day.csv")]]),
    await fixtureTable("prices_2016_gb_start.csv", "utc_timestamp"),
    COUNTRIES.filter((c) => c.iso === "GB"),
  ).profiles.find((p) => p.profile_id === "GB_price_2016");
  assert.ok(gb);
  assert.deepEqual(gb.values, [35.72, 35.49, 35.07]);
  assert.equal(gb.start, "2016-06-29T23:00:00Z");
  assert.equal(gb.end, "2016-06-30T01:00:00Z");
  assert.equal(gb.n_timesteps, 3);
  assert.equal(gb.unit, "EUR/MWh");
  assert.ok(gb.notes.some((n) => n.startsWith("Published only for the hours the source fills")));
  const at = built.profiles.find((p) => p.profile_id === "AT_price_2016");
  assert.deepEqual(at?.values, [34.94, 29.96, 25.16, 23.34, 22.08, 20.11]);
});

Deno.test("buildCatalogue() refuses a blank hour inside a filled span", () => {
  const text = "utc_timestamp,AT\r\n2016-01-01T00:00:00Z,1\r\n2016-01-01T01:00:00Z,\r\n" +
    "2016-01-01T02:00:00Z,3\r\n";
  const prices = parseSourceTable("prices.csv", text, "utc_timestamp");
  const at = parseSourceTable(
    "AT.csv",
    "timestamp,solar_pv_cf,onshore_wind_cf,offshore_wind_cf,hydro_ror_cf," +
      "hydro_reservoir_inflow_pu,load_mw,day_ahead_price_eur_per_mwh\r\n" +
      "2016-01-01T00:00:00Z,0,0.1,,0.1,0.1,6000,\r\n",
    "timestamp",
  );
  assert.throws(
    () => buildCatalogue(new Map([["AT", at]]), prices, AT),
    (e) => e instanceof RangeError && /2016-01-01T01:00:00Z is blank inside/.test(e.message),
  );
});

Deno.test("buildCatalogue() sorts profiles by id and gives every one its metadata", async () => {
  const built = await fixtureCatalogue();
  const ids = built.profiles.map((p) => p.profile_id);
  assert.deepEqual(ids, [...ids].sort());
  assert.equal(ids.length, 13);
  for (const p of built.profiles) {
    assert.match(p.profile_id, /^(AT|NO)_[a-z_]+_2016$/);
    assert.equal(p.resolution, "1h");
    assert.equal(p.year, 2016);
    assert.ok(p.source.length > 0 && p.unit.length > 0 && p.notes.length > 0);
  }
});
