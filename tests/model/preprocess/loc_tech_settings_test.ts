import assert from "node:assert/strict";
import {
  checkAllowedKeys,
  mergeSettings,
} from "../../../lib/model/preprocess/loc_tech_settings.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";

Deno.test("mergeSettings() layers base group < technology < location and keeps paths", () => {
  const s = mergeSettings("supply", "technologies[0]", [
    {
      constraints: { energy_cap_max: 10, energy_eff: 0.4 },
      costs: { monetary: { energy_cap: 1, om_prod: 2 } },
      path: "technologies[0]",
    },
    {
      constraints: { energy_cap_max: 5 },
      costs: { monetary: { om_prod: 3 }, co2: { om_prod: 1 } },
      path: "locations[1].technologies[0]",
    },
  ]);
  assert.deepEqual(s.constraints, {
    energy_prod: true,
    resource: "inf",
    resource_unit: "energy",
    energy_cap_max: 5,
    energy_eff: 0.4,
  });
  assert.deepEqual(s.costs, { monetary: { energy_cap: 1, om_prod: 3 }, co2: { om_prod: 1 } });
  assert.equal(
    s.constraintPaths.energy_cap_max,
    "locations[1].technologies[0].constraints.energy_cap_max",
  );
  assert.equal(s.constraintPaths.energy_eff, "technologies[0].constraints.energy_eff");
  assert.equal(s.constraintPaths.resource, "technologies[0]");
  assert.equal(s.costPaths.monetary!.energy_cap, "technologies[0].costs.monetary.energy_cap");
});

Deno.test("mergeSettings() merges carrier_ratios tier by tier", () => {
  const s = mergeSettings("conversion_plus", "technologies[0]", [
    { constraints: { carrier_ratios: { carrier_out_2: { heat: 0.8 } } } as never, path: "t" },
    { constraints: { carrier_ratios: { carrier_out_2: { cool: 0.2 } } } as never, path: "l" },
  ]);
  assert.deepEqual(s.constraints.carrier_ratios, { carrier_out_2: { heat: 0.8, cool: 0.2 } });
});

Deno.test("checkAllowedKeys() names keys a type does not allow", () => {
  const problems: ModelProblem[] = [];
  checkAllowedKeys(
    "demand",
    {
      constraints: { resource: -1, energy_cap_max: 5 },
      costs: { monetary: { om_con: 1, energy_cap: 2 } },
      path: "technologies[3]",
    },
    false,
    problems,
  );
  assert.deepEqual(problems.map((p) => p.path), [
    "technologies[3].constraints.energy_cap_max",
    "technologies[3].costs.monetary.energy_cap",
  ]);
  assert.match(problems[0]!.message, /not allowed for a demand technology \(it applies to supply/);
});

Deno.test("checkAllowedKeys() refuses _systemwide keys at a location or link", () => {
  const problems: ModelProblem[] = [];
  const layer = { constraints: { energy_cap_max_systemwide: 5 }, path: "links[0]" };
  checkAllowedKeys("supply", layer, false, problems);
  assert.equal(problems.length, 0);
  checkAllowedKeys("supply", layer, true, problems);
  assert.equal(problems[0]!.path, "links[0].constraints.energy_cap_max_systemwide");
});
