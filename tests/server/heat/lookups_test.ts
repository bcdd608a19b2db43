import assert from "node:assert/strict";
import { HTTPException } from "hono/http-exception";
import { createLookups } from "../../../server/heat/lookups.ts";
import { constructionPeriods } from "../../../lib/heat/typology/periods.ts";
import { refurbishmentLevels } from "../../../lib/heat/typology/match.ts";
import { typology } from "./_heat.ts";

const lookups = createLookups(typology);
const rows = typology.variantCodes("DE").map((code) => typology.variant(code)!);

Deno.test("createLookups() answers as the pure functions and keeps each answer", () => {
  const periods = lookups.periods("DE", "N", "SFH");
  assert.deepEqual(periods, constructionPeriods(rows, { set: "N", type: "SFH" }));
  assert.equal(lookups.periods("DE", "N", "SFH"), periods, "the same answer object");
  assert.deepEqual(lookups.periods("DE", "N"), constructionPeriods(rows, { set: "N" }));
  const key = { country: "DE", set: "N", type: "SFH", period: "05" };
  assert.deepEqual(lookups.levels(key), refurbishmentLevels(typology.variantCodes("DE"), key));
  assert.equal(lookups.levels(key), lookups.levels({ ...key }));
});

Deno.test("createLookups().set() picks the default set and refuses an unknown one", () => {
  assert.equal(lookups.set("DE"), "N");
  assert.equal(lookups.set("GR"), "ZoneA");
  assert.equal(lookups.set("DE", "East"), "East");
  assert.throws(() => lookups.set("DE", "Atlantis"), (e) => {
    assert.ok(e instanceof HTTPException);
    assert.equal(e.status, 400);
    return true;
  });
});

Deno.test("createLookups() keeps questions apart whatever characters their parts hold", () => {
  const levels = lookups.levels({ country: "DE", set: "N", type: "SFH", period: "06|zzz" });
  assert.deepEqual(levels, []);
  assert.equal(lookups.levels({ country: "DE", set: "N", type: "SFH", period: "06" }).length, 3);
  assert.deepEqual(lookups.periods("DE", "N|SFH"), []);
});
