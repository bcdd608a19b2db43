import assert from "node:assert/strict";
import { resolveMilp } from "../../../lib/model/preprocess/milp_settings.ts";
import { mergeSettings } from "../../../lib/model/preprocess/loc_tech_settings.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";

/** resolveMilp of a supply whose technology sets `constraints` and `costs`. */
function milpOf(constraints: Record<string, unknown>, costs: Record<string, unknown> = {}) {
  const settings = mergeSettings("supply", "technologies[0]", [
    { path: "technologies[0]", constraints, costs: { monetary: costs } },
  ]);
  const problems: ModelProblem[] = [];
  const milp = resolveMilp(settings, "X1::chp", "technologies[0]", problems);
  return { milp, problems };
}

Deno.test("resolveMilp() decides units and purchase from the keys set, as Calliope", () => {
  assert.equal(milpOf({ energy_cap_max: 10 }).milp, undefined);
  const units = milpOf({ units_max: "inf", energy_cap_per_unit: 300 });
  assert.deepEqual(units.problems, []);
  assert.deepEqual(units.milp?.units, { min: 0, max: Infinity });
  assert.equal(units.milp?.purchase, false);
  const bought = milpOf({ energy_cap_max: 10 }, { purchase: 2000 });
  assert.deepEqual([bought.milp?.purchase, bought.milp?.purchaseCost], [true, { monetary: 2000 }]);
});

Deno.test("resolveMilp() refuses a negative, infinite or non-numeric unit size, count or price", () => {
  const { problems } = milpOf(
    { units_max: -1, units_equals: "inf", energy_cap_per_unit: -1e15, storage_cap_per_unit: "big" },
    { purchase: "lots" },
  );
  assert.deepEqual(problems.map((p) => [p.path, p.message]), [
    [
      "technologies[0].constraints.energy_cap_per_unit",
      "energy_cap_per_unit of X1::chp is -1000000000000000; it must be a finite number >= 0",
    ],
    [
      "technologies[0].constraints.storage_cap_per_unit",
      'storage_cap_per_unit of X1::chp is "big"; it must be a finite number >= 0',
    ],
    [
      "technologies[0].constraints.units_max",
      "units_max of X1::chp is -1; it must be a number >= 0 (or inf)",
    ],
    [
      "technologies[0].constraints.units_equals",
      'units_equals of X1::chp is "inf"; it must be a finite number >= 0',
    ],
    [
      "technologies[0].costs.monetary.purchase",
      'purchase cost of X1::chp is "lots"; it must be a finite number',
    ],
  ]);
});

Deno.test("resolveMilp() needs energy_cap_per_unit with units", () => {
  assert.deepEqual(milpOf({ units_max: 2 }).problems, [{
    path: "technologies[0].constraints.energy_cap_per_unit",
    message: "integer units need constraints.energy_cap_per_unit (missing at X1::chp)",
  }]);
});
