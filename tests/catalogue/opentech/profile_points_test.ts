import assert from "node:assert/strict";
import {
  stepMs,
  stepTimes,
  withProfilePoints,
} from "../../../lib/catalogue/opentech/profile_points.ts";
import { serveCatalogueProfile } from "../../../lib/catalogue/served/served_profile.ts";
import { catalogueProfile } from "./_fixtures.ts";

const HOUR = 3_600_000;

Deno.test("stepMs() reads step lengths and refuses other text", () => {
  assert.equal(stepMs("1h"), HOUR);
  assert.equal(stepMs("24h"), 24 * HOUR);
  assert.equal(stepMs("15min"), 900_000);
  assert.equal(stepMs("hourly"), undefined);
  assert.equal(stepMs("0h"), undefined);
});

Deno.test("withProfilePoints() skips 29 February in a 2016 catalogue profile", async () => {
  const profile = serveCatalogueProfile(await catalogueProfile("DE_solar_pv_2016"));
  assert.equal(profile.n_timesteps, 8760);
  const served = withProfilePoints(profile);
  assert.equal(served.points_note, null);
  assert.equal(served.points.length, 8760);
  assert.deepEqual(served.points.map((p) => p.value), profile.values);
  assert.equal(served.points[0]?.timestamp, "2016-01-01T00:00:00Z");
  // 31 days of January and 28 of February: step 1416 is the first of March.
  assert.equal(served.points[1415]?.timestamp, "2016-02-28T23:00:00Z");
  assert.equal(served.points[1416]?.timestamp, "2016-03-01T00:00:00Z");
  assert.equal(served.points[8759]?.timestamp, "2016-12-31T23:00:00Z");
  assert.equal(served.points.some((p) => p.timestamp.startsWith("2016-02-29")), false);
  assert.equal(served.values, profile.values, "the spec's values kept beside the points");
});

Deno.test("stepTimes() of GB prices 2016 (4441 hours, no 29 February) is contiguous", async () => {
  const profile = serveCatalogueProfile(await catalogueProfile("GB_price_2016"));
  const times = stepTimes(profile);
  assert.ok(times);
  assert.equal(times.length, 4441);
  assert.equal(times[0], Date.parse("2016-06-29T23:00:00Z"));
  assert.equal(times.at(-1), Date.parse("2016-12-31T23:00:00Z"));
  assert.ok(times.every((t, i) => i === 0 || t - times[i - 1]! === HOUR));
});

Deno.test("withProfilePoints() gives a profile without start no points and a note", async () => {
  const profile = {
    ...serveCatalogueProfile(await catalogueProfile("GB_price_2016")),
    start: null,
    end: null,
  };
  const served = withProfilePoints(profile);
  assert.deepEqual(served.points, []);
  assert.match(served.points_note ?? "", /no start time/);
  assert.equal(served.values.length, 4441, "values still served");
});
