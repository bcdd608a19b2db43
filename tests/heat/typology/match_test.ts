import assert from "node:assert/strict";
import { type MatchKey, refurbishmentLevels } from "../../../lib/heat/typology/match.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();
const key = (prefix: string): MatchKey => {
  const [country = "", set = "", type = "", period = ""] = prefix.split(".");
  return { country, set, type, period };
};
const levels = (prefix: string) =>
  refurbishmentLevels(typology.variantCodes(prefix.slice(0, 2)), key(prefix));

Deno.test("refurbishmentLevels() orders existing state, usual, advanced refurbishment", () => {
  assert.deepEqual(levels("DE.N.SFH.02"), [
    { code: "DE.N.SFH.02.Gen.ReEx.001.001", label: "existing state" },
    { code: "DE.N.SFH.02.Gen.ReEx.001.002", label: "usual refurbishment" },
    { code: "DE.N.SFH.02.Gen.ReEx.001.003", label: "advanced refurbishment" },
  ]);
});

Deno.test("refurbishmentLevels() does not depend on the order of the codes", () => {
  const codes = [...typology.variantCodes("DE")].reverse();
  assert.deepEqual(refurbishmentLevels(codes, key("DE.N.SFH.02")), levels("DE.N.SFH.02"));
});

Deno.test("refurbishmentLevels() picks the main option among several buildings", async (t) => {
  const cases: [string, string[]][] = [
    // Generic building over the high-rise one.
    ["DE.N.AB.05", [".Gen.ReEx.001.001", ".Gen.ReEx.001.002", ".Gen.ReEx.001.003"]],
    // First example (ReEx.001) over the second (ReEx.002, variants 101..103).
    ["CZ.N.SFH.07", [".Gen.ReEx.001.001", ".Gen.ReEx.001.002", ".Gen.ReEx.001.003"]],
    // Lowest series (00x) over the series with other supply systems (01x).
    ["HU.N.SFH.01", [".Gen.ReEx.001.001", ".Gen.ReEx.001.002", ".Gen.ReEx.001.003"]],
    // No generic building: the only option, series 01x.
    ["HU.N.AB.02", [".Ind.ReEx.001.011", ".Ind.ReEx.001.012", ".Ind.ReEx.001.013"]],
    // Lowest series is 03x, which has no usual refurbishment.
    ["IE.N.TH.10", [".Gen.ReEx.001.031", ".Gen.ReEx.001.033"]],
    // A level the data lacks is left out.
    ["BE.N.AB.05", [".Gen.ReEx.001.001", ".Gen.ReEx.001.003"]],
  ];
  for (const [prefix, suffixes] of cases) {
    await t.step(prefix, () => {
      assert.deepEqual(levels(prefix).map((l) => l.code), suffixes.map((s) => prefix + s));
    });
  }
});

Deno.test("refurbishmentLevels() labels levels by the last digit of the variant number", () => {
  assert.deepEqual(levels("IE.N.TH.10").map((l) => l.label), [
    "existing state",
    "advanced refurbishment",
  ]);
  assert.deepEqual(levels("HU.N.AB.02").map((l) => l.label), [
    "existing state",
    "usual refurbishment",
    "advanced refurbishment",
  ]);
});

Deno.test("refurbishmentLevels() keeps levels 1 to 3 only", () => {
  // DE.DistrictMZLerch has five levels per building; option FD comes before SD by name.
  assert.deepEqual(levels("DE.DistrictMZLerch.F.EFH").map((l) => l.code), [
    "DE.DistrictMZLerch.F.EFH.FD.ReEx.001.001",
    "DE.DistrictMZLerch.F.EFH.FD.ReEx.001.002",
    "DE.DistrictMZLerch.F.EFH.FD.ReEx.001.003",
  ]);
});

Deno.test("refurbishmentLevels() of an absent type and period is empty", () => {
  assert.deepEqual(levels("DE.N.AB.01"), []);
  assert.deepEqual(levels("DE.East.SFH.02"), []);
});
