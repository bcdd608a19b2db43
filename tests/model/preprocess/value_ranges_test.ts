import assert from "node:assert/strict";
import { prepareModel } from "../../../lib/model/preprocess/resolve_model.ts";
import { supplyDemandModel } from "../../fixtures/model/small_models.ts";

/** The problems of the small supply + demand model with `edit` applied to it. */
function problemsWith(edit: (m: ReturnType<typeof supplyDemandModel>) => void) {
  const model = supplyDemandModel(4);
  edit(model);
  const prepared = prepareModel(model);
  return prepared.ok ? [] : prepared.problems;
}

Deno.test("valueRangeProblems(): values the LP cannot hold are problems at their JSON paths", async (t) => {
  const cases: [string, (m: ReturnType<typeof supplyDemandModel>) => void, string, RegExp][] = [
    [
      "a negative minimum",
      (m) => m.technologies[0]!.constraints!.energy_cap_min = -1e15,
      "technologies[0].constraints.energy_cap_min",
      /energy_cap_min of r1::ccgt is -Infinity; it must be a finite number, 0 or more/,
    ],
    [
      "an efficiency too small to divide by",
      (m) => m.technologies[0]!.constraints!.energy_eff = 5e-324,
      "technologies[0].constraints.energy_eff",
      /0, or between 1e-6 and 1e6/,
    ],
    [
      "an infinite cost",
      (m) => m.technologies[0]!.costs!["monetary"]!.om_con = "inf",
      "technologies[0].costs.monetary.om_con",
      /cost monetary.om_con of r1::ccgt is Infinity; it must be a finite number/,
    ],
    [
      "a storage loss above 1",
      (m) => m.technologies[0]!.constraints!.energy_cap_min_use = 2,
      "technologies[0].constraints.energy_cap_min_use",
      /a fraction between 0 and 1/,
    ],
    [
      "a series value that is not a finite number (the parser refuses it)",
      (m) => m.timeSeries![0]!.columns["r1"]![2] = -1e308 * 10,
      "timeSeries[0].columns.r1[2]",
      /./,
    ],
  ];
  for (const [name, edit, path, message] of cases) {
    await t.step(name, () => {
      const problems = problemsWith(edit);
      const found = problems.find((p) => p.path === path);
      assert.ok(found, `${path} not in ${JSON.stringify(problems)}`);
      assert.match(found.message, message);
    });
  }
  await t.step("an efficiency of 0 and maxima of inf are allowed", () => {
    assert.deepEqual(
      problemsWith((m) => {
        m.technologies[0]!.constraints!.energy_eff = 0;
        m.technologies[0]!.constraints!.energy_cap_max = "inf";
      }),
      [],
    );
  });
});
