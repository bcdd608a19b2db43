import assert from "node:assert/strict";
import {
  infinityCosts,
  infinityRecord,
  infinityValue,
} from "../../../lib/model/frontend/frontend_infinity.ts";

Deno.test("infinityValue() maps every frontend spelling of infinity", async (t) => {
  const cases: [unknown, unknown][] = [
    ["inf", "inf"],
    [".inf", "inf"],
    ["INF", "inf"],
    ["-inf", "-inf"],
    ["-.inf", "-inf"],
    [1e15, "inf"],
    [2e16, "inf"],
    [-1e15, "-inf"],
    [999999999999999, 999999999999999],
    [0, 0],
    ["file=a.csv:b", "file=a.csv:b"],
    [true, true],
  ];
  for (const [input, expected] of cases) {
    await t.step(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      assert.equal(infinityValue(input), expected);
    });
  }
});

Deno.test("infinityRecord() maps nested values and drops nulls", () => {
  assert.deepEqual(
    infinityRecord({
      energy_cap_max: 1e15,
      resource: ".inf",
      energy_eff: 0.5,
      unset: null,
      carrier_ratios: { carrier_out_2: { heat: 0.8 } },
    }),
    {
      energy_cap_max: "inf",
      resource: "inf",
      energy_eff: 0.5,
      carrier_ratios: { carrier_out_2: { heat: 0.8 } },
    },
  );
});

Deno.test("infinityCosts() maps every cost class", () => {
  assert.deepEqual(
    infinityCosts({ monetary: { energy_cap: 1e15 }, emissions: { om_prod: "-inf" }, empty: null }),
    { monetary: { energy_cap: "inf" }, emissions: { om_prod: "-inf" } },
  );
});
