import assert from "node:assert/strict";
import { preferredSet, variantSets } from "../../../lib/heat/typology/variant_sets.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();
const codes = (iso2: string) => typology.variantCodes(iso2);

Deno.test("variantSets() counts the sets of a country, preferred first", () => {
  assert.deepEqual(variantSets(codes("DE")), [
    { set: "N", count: 166 },
    { set: "DistrictMZLerch", count: 45 },
    { set: "East", count: 21 },
  ]);
});

Deno.test("preferredSet() takes N, else the largest set, ties by name", async (t) => {
  const cases: [string, string][] = [
    ["DE", "N"],
    ["SE", "N"], // N has 30 variants, each climate zone more: N still wins
    ["AT", "N"],
    ["IT", "MidClim"],
    ["ES", "ME"],
    ["GB", "ENG"],
    ["GR", "ZoneA"], // four zones of 36 variants each
  ];
  for (const [iso2, set] of cases) {
    await t.step(iso2, () => assert.equal(preferredSet(codes(iso2)), set));
  }
});

Deno.test("preferredSet() of no codes is undefined", () => {
  assert.equal(preferredSet([]), undefined);
});
