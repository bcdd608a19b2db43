import assert from "node:assert/strict";
import {
  groupConstraintProblems,
  resolveGroupConstraints,
} from "../../../lib/model/preprocess/group_constraints.ts";
import { link, locTech } from "../../lp/_model.ts";

const LOC_TECHS = [
  locTech({ location: "a", tech: "ccgt", type: "supply" }),
  locTech({
    location: "a",
    tech: "boiler",
    type: "conversion",
    carriers: { in: ["gas"], out: ["heat"] },
  }),
  locTech({ location: "a", tech: "battery", type: "storage" }),
  locTech({ location: "a", tech: "demand_power", type: "demand", carrier: "power" }),
  ...link("a", "b", "ac"),
];

const members = (group: Parameters<typeof resolveGroupConstraints>[0]) =>
  resolveGroupConstraints(group, LOC_TECHS).map((g) => [g.family, g.sense, g.key, [...g.members]]);

Deno.test("a group covers the loc::techs of the types all its families allow", () => {
  // energy_cap: everything but demand; resource_area: supply and supply_plus only.
  assert.deepEqual(members({ g: { energy_cap_max: 1 } }), [[
    "energy_cap",
    "max",
    undefined,
    ["a::ccgt", "a::boiler", "a::battery", "a::ac:b", "b::ac:a"],
  ]]);
  assert.deepEqual(members({ g: { energy_cap_max: 1, resource_area_max: 2 } }), [
    ["energy_cap", "max", undefined, ["a::ccgt"]],
    ["resource_area", "max", undefined, ["a::ccgt"]],
  ]);
});

Deno.test("named techs of other types are dropped; a transmission tech covers its ends in locs", () => {
  assert.deepEqual(members({ g: { techs: ["battery", "ccgt"], storage_cap_max: 1 } }), [
    ["storage_cap", "max", undefined, ["a::battery"]],
  ]);
  assert.deepEqual(members({ g: { techs: ["ac"], locs: ["b"], cost_max: { monetary: 1 } } }), [
    ["cost", "max", "monetary", ["b::ac:a"]],
  ]);
});

Deno.test("exists: false and groups covering nothing give no rows", () => {
  assert.deepEqual(members({ off: { exists: false, energy_cap_max: 1 } }), []);
  assert.deepEqual(members({ none: { techs: ["demand_power"], energy_cap_max: 1 } }), []);
});

Deno.test("groupConstraintProblems() names unknown techs, locations, cost classes", () => {
  const problems = groupConstraintProblems(
    {
      g: { techs: ["x"], locs: ["z"], cost_max: { co2: 1 } },
      e: {},
      c: { carrier_con_min: { power: -1 }, energy_cap_max: 1 },
    },
    new Set(["ccgt"]),
    new Set(["a"]),
    new Set(["monetary"]),
  );
  assert.deepEqual(problems.map((p) => `${p.path}: ${p.message}`), [
    'groupConstraints.g.techs[0]: unknown technology "x"',
    'groupConstraints.g.locs[0]: unknown location "z"',
    'groupConstraints.g.cost_max.co2: unknown cost class "co2"',
    "groupConstraints.e: a group constraint needs at least one limit",
    "groupConstraints.c.carrier_con_min: a group with a carrier-based limit can hold only that one limit (Calliope)",
  ]);
});

Deno.test("groupConstraintProblems() refuses limits no value can meet; vacuous ones pass", () => {
  const problems = groupConstraintProblems(
    {
      a: { energy_cap_max: "-inf", energy_cap_min: "inf", storage_cap_equals: "inf" },
      b: { cost_equals: { monetary: "-inf" } },
      c: { demand_share_per_timestep_decision: { power: "-inf" } },
      ok: { energy_cap_max: "inf", energy_cap_min: "-inf", cost_max: { monetary: "inf" } },
      free: { demand_share_per_timestep_decision: { power: "inf" } },
    },
    new Set(["ccgt"]),
    new Set(["a"]),
    new Set(["monetary"]),
  );
  assert.deepEqual(problems.map((p) => `${p.path}: ${p.message}`), [
    "groupConstraints.a.energy_cap_max: energy_cap_max of -inf can never hold: the model would be infeasible",
    "groupConstraints.a.energy_cap_min: energy_cap_min of inf can never hold: the model would be infeasible",
    "groupConstraints.a.storage_cap_equals: storage_cap_equals of inf can never hold: the model would be infeasible",
    "groupConstraints.b.cost_equals.monetary: cost_equals of -inf can never hold: the model would be infeasible",
    "groupConstraints.c.demand_share_per_timestep_decision.power: demand_share_per_timestep_decision of -inf can never hold: the model would be infeasible",
  ]);
});

Deno.test("a group covering nothing, or no loc::tech::carrier, is dropped with Calliope's warning", () => {
  const warnings: string[] = [];
  const resolved = resolveGroupConstraints(
    {
      none: { techs: ["demand_power"], energy_cap_max: 1 },
      gas: { carrier_prod_max: { gas: 5 } }, // the boiler consumes gas; nothing produces it
      heat: { demand_share_min: { heat: 0.5 } }, // the boiler makes heat; no demand for it
      power: { carrier_prod_max: { power: 5 } },
    },
    LOC_TECHS,
    warnings,
  );
  assert.deepEqual(resolved.map((g) => g.group), ["power"]);
  assert.deepEqual(warnings, [
    "Constraint group `none` will be completely ignored since there are no valid " +
    "location::technology combinations",
    "Constraint group `gas` will be completely ignored since there are no valid " +
    "location::technology::carrier combinations",
    "Constraint group `heat` will be completely ignored since there are no valid " +
    "location::technology::carrier combinations",
  ]);
});
