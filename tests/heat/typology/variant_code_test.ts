import assert from "node:assert/strict";
import {
  CODE_SEGMENT_PATTERN,
  parseVariantCode,
  variantPrefix,
} from "../../../lib/heat/typology/variant_code.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();

Deno.test("parseVariantCode() splits a code into its segments", () => {
  assert.deepEqual(parseVariantCode("DE.N.SFH.02.Gen.ReEx.001.002"), {
    country: "DE",
    set: "N",
    type: "SFH",
    period: "02",
    option: "Gen.ReEx.001",
    variant: "002",
  });
  assert.deepEqual(parseVariantCode("DE.DistrictMZLerch.F.RH1.FD.E.ReEx.001.005"), {
    country: "DE",
    set: "DistrictMZLerch",
    type: "F",
    period: "RH1",
    option: "FD.E.ReEx.001",
    variant: "005",
  });
});

Deno.test("parseVariantCode() accepts every code of the data", () => {
  const codes = typology.allVariants().map((row) => String(row["Code_BuildingVariant"]));
  assert.ok(codes.length > 2000);
  assert.deepEqual(codes.filter((code) => parseVariantCode(code) === undefined), []);
});

Deno.test("parseVariantCode() rejects malformed codes", async (t) => {
  for (
    const code of [
      "",
      "DE",
      "de.N.SFH.02.Gen.ReEx.001.001",
      "DE.N.SFH.02",
      "DE..SFH.02.x.001.001",
      "DE.N.SFH.02.Gen.ReEx.001.1",
      "DE N SFH",
    ]
  ) {
    await t.step(JSON.stringify(code), () => assert.equal(parseVariantCode(code), undefined));
  }
});

Deno.test("variantPrefix() joins country, set, type and period", () => {
  assert.equal(variantPrefix("GR", "ZoneA", "MFH", "03"), "GR.ZoneA.MFH.03");
});

Deno.test("CODE_SEGMENT_PATTERN takes every set, type and period of the TABULA data", () => {
  const refused = new Set<string>();
  for (const row of typology.allVariants()) {
    const parsed = parseVariantCode(String(row.Code_BuildingVariant));
    assert.ok(parsed);
    for (const segment of [parsed.set, parsed.type, parsed.period]) {
      if (!CODE_SEGMENT_PATTERN.test(segment)) refused.add(segment);
    }
  }
  assert.deepEqual([...refused], []);
  for (const bad of ["06|zzz", "06.Gen", "", "0 6", "../06"]) {
    assert.equal(CODE_SEGMENT_PATTERN.test(bad), false, bad);
  }
});
