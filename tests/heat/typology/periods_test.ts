import assert from "node:assert/strict";
import {
  type ConstructionPeriod,
  constructionPeriods,
  periodOfYear,
} from "../../../lib/heat/typology/periods.ts";
import type { VariantRow } from "../../../lib/heat/parameters/variant_row.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();
const rows = (iso2: string): VariantRow[] =>
  typology.variantCodes(iso2).map((code) => typology.variant(code)).filter((r) => r !== undefined);
const names = (periods: ConstructionPeriod[]) => periods.map((p) => p.period);

Deno.test("constructionPeriods() lists a set's bands oldest first, open ends 0 and 9999", () => {
  const periods = constructionPeriods(rows("DE"), { set: "N" });
  assert.deepEqual(names(periods), [
    "01",
    "02",
    "03",
    "04",
    "05",
    "06",
    "07",
    "08",
    "09",
    "10",
    "11",
    "12",
  ]);
  assert.deepEqual(periods[0], { period: "01", year_from: 0, year_to: 1859 });
  assert.deepEqual(periods[1], { period: "02", year_from: 1860, year_to: 1918 });
  assert.deepEqual(periods.at(-1), { period: "12", year_from: 2016, year_to: 9999 });
});

Deno.test("constructionPeriods() keeps to the set and type asked for", () => {
  assert.deepEqual(names(constructionPeriods(rows("DE"), { set: "East", type: "AB" })), [
    "06",
    "07",
    "08",
  ]);
  assert.deepEqual(names(constructionPeriods(rows("HU"), { set: "N", type: "AB" })), [
    "02",
    "03",
    "05",
  ]);
  assert.deepEqual(constructionPeriods(rows("DE"), { set: "Nowhere" }), []);
});

Deno.test("constructionPeriods() leaves out variants of non-standard types", () => {
  // Italy's SFH-TH and MFH-AB pilot cases carry period segments like `01-03`.
  const periods = names(constructionPeriods(rows("IT"), { set: "MidClim" }));
  assert.deepEqual(periods, ["01", "02", "03", "04", "05", "06", "07", "08"]);
  // DE.DistrictMZLerch uses type `F` and house names as periods: no standard periods at all.
  assert.deepEqual(constructionPeriods(rows("DE"), { set: "DistrictMZLerch" }), []);
});

Deno.test("constructionPeriods() widens a band when rows of one period disagree", () => {
  const [first, second] = rows("SE").filter((r) =>
    String(r["Code_BuildingVariant"]).startsWith("SE.N.SFH.02.")
  );
  assert.ok(first && second);
  const changed = { ...second, Year1_Building: 1950, Year2_Building: 1980 };
  assert.deepEqual(constructionPeriods([first, changed], { set: "N" }), [
    { period: "02", year_from: 1950, year_to: 1980 },
  ]);
});

Deno.test("periodOfYear() finds the band containing a year, bounds inclusive", async (t) => {
  const de = constructionPeriods(rows("DE"), { set: "N", type: "SFH" });
  const cases: [number, string | undefined][] = [
    [1500, "01"],
    [1859, "01"],
    [1860, "02"],
    [1918, "02"],
    [1965, "05"],
    [2016, "12"],
    [3000, "12"],
  ];
  for (const [year, period] of cases) {
    await t.step(String(year), () => assert.equal(periodOfYear(de, year)?.period, period));
  }
  await t.step("a year after Sweden's newest band has no period", () => {
    const se = constructionPeriods(rows("SE"), { set: "N", type: "SFH" });
    assert.equal(periodOfYear(se, 2010), undefined);
  });
  await t.step("a year in a gap of a type's bands has no period", () => {
    const hu = constructionPeriods(rows("HU"), { set: "N", type: "AB" });
    assert.equal(periodOfYear(hu, 1995), undefined);
  });
});
