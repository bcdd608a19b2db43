import assert from "node:assert/strict";
import {
  estimateEnvelope,
  estimationCodes,
} from "../../../lib/heat/calculation/envelope_estimate.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();

Deno.test("estimateEnvelope() reproduces the workbook's estimated areas of every reference row", () => {
  const columns = [
    "n_Storey_effective",
    "n_Storey_effective_envelope",
    "A_C_Storey",
    ["A_GrossWall_Storey", "A_Estim_GrossWall_Storey"],
    ["A_Roof", "A_Estim_Roof"],
    ["A_UpperCeiling", "A_Estim_UpperCeiling"],
    ["A_Wall_ExtAir", "A_Estim_Wall_ExtAir"],
    ["A_Wall_ToCellarOrSoil", "A_Estim_Wall_ToCellarOrSoil"],
    ["A_Floor", "A_Estim_Floor"],
    ["A_Window", "A_Estim_Window"],
    ["A_Door", "A_Estim_Door"],
  ] as const;
  let checked = 0;
  for (const ref of typology.references()) {
    const estimate = estimateEnvelope(
      estimationCodes(ref),
      Number(ref.A_C_Ref),
      Number(ref.n_Storey),
    );
    for (const column of columns) {
      const [ours, theirs] = typeof column === "string" ? [column, column] : column;
      const expected = Number(ref[theirs]);
      assert.ok(
        Math.abs(estimate[ours] - expected) <= 1e-6 * Math.max(1, Math.abs(expected)),
        `${ref.Code_BuildingVariant} ${theirs}: ${estimate[ours]} vs ${expected}`,
      );
    }
    checked++;
  }
  assert.equal(checked, 836);
});
