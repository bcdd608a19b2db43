import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import type { GroupConstraint } from "../../lib/model/group_constraints_schema.ts";
import { resolveGroupConstraints } from "../../lib/model/preprocess/group_constraints.ts";
import type { ResolvedLocTech } from "../../lib/model/preprocess/resolved_model.ts";
import { row } from "./_lp_row.ts";
import { costs, link, locTech, model } from "./_model.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";

/** The coefficients of row `name` by column name, and its bounds. */

const LOC_TECHS: ResolvedLocTech[] = [
  locTech({
    location: "a",
    tech: "ccgt",
    type: "supply",
    costs: { monetary: costs({ energy_cap: 10, om_prod: 2 }) },
  }),
  locTech({ location: "b", tech: "ccgt", type: "supply" }),
  locTech({ location: "a", tech: "pv", type: "supply_plus" }),
  locTech({ location: "a", tech: "battery", type: "storage" }),
  locTech({ location: "a", tech: "demand_power", type: "demand", carrier: "power" }),
  ...link("a", "b", "ac"),
];

function lpWith(groups: Record<string, GroupConstraint>) {
  const m = model(LOC_TECHS, { groupConstraints: resolveGroupConstraints(groups, LOC_TECHS) });
  return buildLp(m).lp;
}

Deno.test("energy_cap group: Σ over non-demand loc::techs, transmission ends counted ½", () => {
  const lp = lpWith({ g: { energy_cap_max: 14 } });
  const r = row(lp, "group_energy_cap_max_constraint[g]");
  assert.deepEqual(r.terms, {
    "energy_cap[a::ccgt]": 1,
    "energy_cap[b::ccgt]": 1,
    "energy_cap[a::pv]": 1,
    "energy_cap[a::battery]": 1,
    "energy_cap[a::ac:b]": 0.5,
    "energy_cap[b::ac:a]": 0.5,
  });
  assert.equal(r.lower, -Infinity);
  assert.equal(r.upper, 14);
});

Deno.test("techs and locs narrow a group; min and equals set the bounds", () => {
  const lp = lpWith({
    g: { techs: ["ccgt"], locs: ["a"], energy_cap_min: 6 },
    h: { locs: ["b"], energy_cap_max: "inf" },
    s: { storage_cap_equals: 3 },
  });
  const g = row(lp, "group_energy_cap_min_constraint[g]");
  assert.deepEqual(g.terms, { "energy_cap[a::ccgt]": 1 });
  assert.deepEqual([g.lower, g.upper], [6, Infinity]);
  const s = row(lp, "group_storage_cap_equals_constraint[s]");
  // pv (supply_plus) is a member but has no storage here, so no storage_cap column.
  assert.deepEqual(s.terms, { "storage_cap[a::battery]": 1 });
  assert.deepEqual([s.lower, s.upper], [3, 3]);
});

Deno.test("exists: false, an infinite max and a group covering nothing build no row", () => {
  const lp = lpWith({
    off: { exists: false, energy_cap_max: 1 },
    inf: { energy_cap_max: "inf" },
    none: { techs: ["demand_power"], storage_cap_max: 1 },
  });
  assert.deepEqual(nameArray(lp.rowNames).filter((n) => n.startsWith("group_")), []);
});

Deno.test("carrier_prod sums every timestep; carrier_con compares the other way", () => {
  const lp = lpWith({
    p: { techs: ["ccgt"], carrier_prod_min: { power: 10 } },
    c: { carrier_con_max: { power: -5 } },
  });
  const p = row(lp, "group_carrier_prod_min_constraint[p,power]");
  assert.deepEqual(Object.keys(p.terms).length, 4); // 2 loc::techs × 2 timesteps
  assert.deepEqual([p.lower, p.upper], [10, Infinity]);
  const c = row(lp, "group_carrier_con_max_constraint[c,power]");
  // Only demand (and conversion) consume in a carrier_con group; Calliope: limit ≤ Σ con.
  assert.ok(Object.keys(c.terms).every((n) => n.includes("a::demand_power::power")));
  assert.deepEqual([c.lower, c.upper], [-5, Infinity]);
});

Deno.test("cost groups: cost = investment + variable, per cost class", () => {
  const lp = lpWith({
    all: { techs: ["ccgt"], cost_max: { monetary: 100 } },
    inv: { techs: ["ccgt"], cost_investment_max: { monetary: 50 } },
    var: { techs: ["ccgt"], cost_var_max: { monetary: 20 } },
  });
  const all = row(lp, "group_cost_max_constraint[all,monetary]");
  const inv = row(lp, "group_cost_investment_max_constraint[inv,monetary]");
  const v = row(lp, "group_cost_var_max_constraint[var,monetary]");
  assert.ok(Object.keys(inv.terms).every((n) => n.startsWith("energy_cap[")));
  assert.ok(Object.keys(v.terms).every((n) => n.startsWith("carrier_prod[")));
  assert.deepEqual(all.terms, { ...inv.terms, ...v.terms });
  assert.equal(all.upper, 100);
});

Deno.test("energy_cap_share: group Σ − share · Σ supply/conversion capacity at its locations", () => {
  const lp = lpWith({ s: { techs: ["pv"], energy_cap_share_max: 0.2 } });
  const r = row(lp, "group_energy_cap_share_max_constraint[s]");
  // pv at a: rhs = ccgt and pv at a (storage and transmission excluded, b not a member's loc).
  assert.deepEqual(r.terms, { "energy_cap[a::pv]": 0.8, "energy_cap[a::ccgt]": -0.2 });
  assert.deepEqual([r.lower, r.upper], [-Infinity, 0]);
});

Deno.test("carrier_prod_share: of all supply/conversion production of the carrier", () => {
  const lp = lpWith({ s: { techs: ["pv"], carrier_prod_share_min: { power: 0.85 } } });
  const r = row(lp, "group_carrier_prod_share_min_constraint[s,power]");
  for (const [name, v] of Object.entries(r.terms)) {
    // pv is in both sums: 1 − 0.85.
    const expected = name.includes("a::pv::") ? 0.15 : -0.85;
    assert.ok(Math.abs(v - expected) < 1e-12, `${name}: ${v}`);
  }
  assert.equal(Object.keys(r.terms).length, 6); // pv, ccgt at a and b, × 2 timesteps
  assert.deepEqual([r.lower, r.upper], [0, Infinity]);
});

Deno.test("demand_share: Σ prod + share · Σ demand carrier_con ⋛ 0 (demand at the group's locs)", () => {
  const lp = lpWith({ d: { techs: ["ccgt"], locs: ["a"], demand_share_min: { power: 0.6 } } });
  const r = row(lp, "group_demand_share_min_constraint[d,power]");
  const names = Object.keys(r.terms);
  assert.equal(names.length, 4); // a::ccgt prod and a::demand_power con, × 2 timesteps
  for (const n of names) assert.equal(r.terms[n], n.includes("demand_power") ? 0.6 : 1);
  assert.deepEqual([r.lower, r.upper], [0, Infinity]);
});

Deno.test("per-timestep shares: one row per timestep", () => {
  const lp = lpWith({ d: { techs: ["ccgt"], demand_share_per_timestep_max: { power: 0.3 } } });
  const rows = nameArray(lp.rowNames).filter((n) => n.startsWith("group_"));
  assert.deepEqual(rows, [
    "group_demand_share_per_timestep_max_constraint[d,power,2005-01-01T00:00:00]",
    "group_demand_share_per_timestep_max_constraint[d,power,2005-01-01T01:00:00]",
  ]);
  assert.equal(Object.keys(row(lp, rows[0]!).terms).length, 3); // 2 ccgt + 1 demand, one step
});

Deno.test("net_import_share: links leaving the group's locs, prod + con; none when all locs", () => {
  const lp = lpWith({
    n: { locs: ["a"], net_import_share_max: { power: 0.1 } },
    all: { net_import_share_max: { power: 0.1 } },
  });
  const r = row(lp, "group_net_import_share_max_constraint[n,power]");
  const names = Object.keys(r.terms);
  assert.ok(names.every((n) => n.includes("a::ac:b") || n.includes("a::demand_power")));
  assert.ok(names.some((n) => n.startsWith("carrier_prod[a::ac:b")));
  assert.ok(names.some((n) => n.startsWith("carrier_con[a::ac:b")));
  assert.equal(nameArray(lp.rowNames).some((n) => n.includes("[all,")), false);
});

Deno.test("demand_share_per_timestep_decision: a share column per producer, main and sum rows", () => {
  const demand = locTech({
    location: "a",
    tech: "demand_power",
    type: "demand",
    constraints: { resource: [-4, -6], resource_scale: 2 },
  });
  const lts = [LOC_TECHS[0]!, LOC_TECHS[2]!, LOC_TECHS[3]!, demand];
  const build = (value: number | string, relax?: number) => {
    const groups = resolveGroupConstraints(
      { g: { locs: ["a"], demand_share_per_timestep_decision: { power: value } } },
      lts,
    );
    return buildLp(model(lts, {
      groupConstraints: groups,
      ...(relax === undefined ? {} : { demandShareDecisionRelaxation: relax }),
    })).lp;
  };
  const lp = build(0.9);
  // ccgt and pv produce power; the battery (storage) is not a member. Σ required = 2·(−4) at τ0.
  const main = row(
    lp,
    "group_demand_share_per_timestep_decision_main_constraint[g,a::ccgt::power,2005-01-01T00:00:00]",
  );
  assert.deepEqual(main.terms, {
    "carrier_prod[a::ccgt::power,2005-01-01T00:00:00]": 1,
    "demand_share_per_timestep_decision[a::ccgt::power]": -8,
  });
  assert.deepEqual([main.lower, main.upper], [0, 0]);
  const sum = row(lp, "group_demand_share_per_timestep_decision_sum_constraint[g]");
  assert.deepEqual(sum.terms, {
    "demand_share_per_timestep_decision[a::ccgt::power]": 1,
    "demand_share_per_timestep_decision[a::pv::power]": 1,
  });
  assert.deepEqual([sum.lower, sum.upper], [0.9, 0.9]);
  // inf: equal shares in every timestep, no total.
  assert.ok(!nameArray(build("inf").rowNames).some((n) => n.includes("decision_sum")));
  // Relaxed by 5 %: two rows, ≥ 0.95 and ≤ 1.05 times the demand's share.
  const relaxed = build(0.9, 0.05);
  const at = "g,a::pv::power,2005-01-01T01:00:00";
  const min = row(relaxed, `group_demand_share_per_timestep_decision_main_constraint[${at},min]`);
  const max = row(relaxed, `group_demand_share_per_timestep_decision_main_constraint[${at},max]`);
  assert.equal(min.terms["demand_share_per_timestep_decision[a::pv::power]"], 0.95 * -12);
  assert.deepEqual([min.lower, min.upper], [0, Infinity]);
  assert.equal(max.terms["demand_share_per_timestep_decision[a::pv::power]"], 1.05 * -12);
  assert.deepEqual([max.lower, max.upper], [-Infinity, 0]);
});
