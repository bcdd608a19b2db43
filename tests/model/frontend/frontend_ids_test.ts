import assert from "node:assert/strict";
import { frontendKey, safeId } from "../../../lib/model/frontend/frontend_ids.ts";

Deno.test("safeId() follows the frontend runner's _safe_id", async (t) => {
  const cases: [string, string][] = [
    ["region1-1", "region1-1"],
    // `::` becomes `__` first, and the run of `_` then collapses.
    ["a::b", "a_b"],
    ["a:b", "a_b"],
    ["Region 1 (north)", "Region_1_north"],
    ["  spaced  out ", "spaced_out"],
    ["a__b", "a_b"],
    ["Köln/Bonn", "K_ln_Bonn"],
  ];
  for (const [input, expected] of cases) {
    await t.step(`${JSON.stringify(input)} -> ${expected}`, () => {
      assert.equal(safeId(input), expected);
    });
  }
});

Deno.test("frontendKey() lower-cases the safe id", () => {
  assert.equal(frontendKey("Solar PV"), "solar_pv");
  assert.equal(frontendKey("REGION1"), "region1");
  assert.equal(frontendKey("Loc::A"), "loc_a");
});
