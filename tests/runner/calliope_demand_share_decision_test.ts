/**
 * Calliope 0.6.10's `TestDemandShareDecisionGroupConstraints`
 * (`calliope/test/test_backend_pyomo_constraints_group.py`) on
 * `group_constraint_demand_share_decision.yaml`, through our importer and runner, with
 * Calliope's numbers. Its `get_shares` divides each tech's carrier_prod by −Σ carrier_con of
 * every tech whose name contains `con_contains` (links and conversion included), per timestep,
 * summed over locations or per location. Calliope compares the shares exactly; HiGHS' values
 * are compared to 1e-9.
 */
import assert from "node:assert/strict";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { solveTestModel, type TestModelOptions } from "./_calliope_test_model.ts";

const MODEL_FILE = "group_constraint_demand_share_decision.yaml";

interface ShareOptions {
  sumLocs?: boolean;
  carrier?: string;
  conContains?: string;
}

/** Per timestep, Σ of `table`'s series of `carrier` by tech (and location unless summed). */
function byTech(r: RunResult, table: string, carrier: string, sumLocs: boolean) {
  const out = new Map<string, number[]>();
  for (const [id, s] of Object.entries(r[table] as Record<string, number[]>)) {
    const [loc, tech, c] = id.split("::");
    if (c !== carrier) continue;
    const key = sumLocs ? tech! : `${tech}@${loc}`;
    const acc = out.get(key) ?? s.map(() => 0);
    s.forEach((v, t) => acc[t]! += v);
    out.set(key, acc);
  }
  return out;
}

/** Calliope's `get_shares`: share of `tech` (at `loc` when not summed) per timestep. */
function shares(r: RunResult, tech: string, options: ShareOptions = {}, loc?: string): number[] {
  const { sumLocs = true, carrier = "electricity", conContains = "" } = options;
  const supply = byTech(r, "carrier_prod", carrier, sumLocs).get(sumLocs ? tech : `${tech}@${loc}`);
  assert.ok(supply !== undefined, `no carrier_prod of ${tech}`);
  const demand = supply.map(() => 0);
  for (const [key, s] of byTech(r, "carrier_con", carrier, sumLocs)) {
    const [t, l] = key.split("@");
    if (!t!.includes(conContains) || (!sumLocs && l !== loc)) continue;
    s.forEach((v, k) => demand[k]! -= v);
  }
  return supply.map((v, k) => v / demand[k]!);
}

function allEqual(values: number[], expected: number, tolerance = 1e-9): void {
  for (const v of values) {
    assert.ok(Math.abs(v - expected) <= tolerance, `${v} is not ${expected} (${values})`);
  }
}

const decided = (r: RunResult) =>
  Object.values(r["demand_share_per_timestep_decision"] as Record<string, number>)
    .reduce((a, b) => a + b, 0);

const solve = (scenario: string, override?: TestModelOptions["override"]) =>
  solveTestModel({ modelFile: MODEL_FILE, scenario, ...(override ? { override } : {}) });

Deno.test("test_demand_share_per_timestep_decision_inf", async () => {
  const r = await solve("demand_share_per_timestep_decision_inf");
  allEqual(shares(r, "cheap_elec_supply"), 0.1875);
  allEqual(shares(r, "normal_elec_supply"), 0.8125);
});

Deno.test("test_demand_share_per_timestep_decision_simple", async () => {
  const r = await solve("demand_share_per_timestep_decision_simple");
  allEqual(shares(r, "cheap_elec_supply"), 0.1875);
  allEqual(shares(r, "normal_elec_supply"), 0.8125);
  allEqual([decided(r)], 1);
});

Deno.test("test_demand_share_per_timestep_decision_not_one", async () => {
  const r = await solve("demand_share_per_timestep_decision_not_one");
  allEqual(shares(r, "cheap_elec_supply"), 0.1);
  allEqual(shares(r, "normal_elec_supply"), 0.9);
  allEqual(shares(r, "expensive_elec_supply"), 0);
  allEqual([decided(r)], 0.9);
});

Deno.test("test_demand_share_per_timestep_decision_per_location", async () => {
  const r = await solve("demand_share_per_timestep_decision_per_location");
  const perLoc = { sumLocs: false };
  allEqual(shares(r, "cheap_elec_supply", perLoc, "0"), 0.25);
  allEqual(shares(r, "normal_elec_supply", perLoc, "0"), 0.75);
  allEqual(shares(r, "cheap_elec_supply", perLoc, "1"), 0.125);
  allEqual(shares(r, "normal_elec_supply", perLoc, "1"), 0.875);
});

Deno.test("test_demand_share_per_timestep_decision_inf_with_transmission", async () => {
  const r = await solve("demand_share_per_timestep_decision_inf,with_electricity_transmission");
  const perLoc = { sumLocs: false };
  allEqual(shares(r, "cheap_elec_supply", perLoc, "0"), 0.125);
  allEqual(shares(r, "normal_elec_supply", perLoc, "0"), 0.875);
  allEqual(shares(r, "electricity_transmission:0", perLoc, "1"), 1.0);
});

Deno.test("test_demand_share_per_timestep_decision_inf_with_heat_constrain_electricity", async () => {
  const r = await solve("demand_share_per_timestep_decision_inf,with_electricity_conversion_tech");
  allEqual(shares(r, "cheap_elec_supply"), 0.1759259, 1e-6 * 0.1759259);
  allEqual(shares(r, "normal_elec_supply"), 0.82407407, 1e-6 * 0.82407407);
});

Deno.test("test_demand_share_per_timestep_decision_inf_with_heat_constrain_heat", async () => {
  const r = await solve(
    "demand_share_per_timestep_decision_inf_with_heat,with_electricity_conversion_tech",
  );
  allEqual(shares(r, "elec_to_heat", { carrier: "heat" }), 0.5, 1e-6 * 0.5);
  allEqual(shares(r, "heating", { carrier: "heat" }), 0.5, 1e-6 * 0.5);
});

Deno.test(
  "test_demand_share_per_timestep_decision_inf_with_heat_constrain_heat_and_electricity",
  async () => {
    const r = await solve(
      "demand_share_per_timestep_decision_inf_with_heat," +
        "demand_share_per_timestep_decision_not_one,with_electricity_conversion_tech",
    );
    const heat = { carrier: "heat", conContains: "demand" };
    const elec = { carrier: "electricity", conContains: "demand" };
    allEqual(shares(r, "elec_to_heat", heat), 0.5);
    allEqual(shares(r, "heating", heat), 0.5);
    allEqual(shares(r, "normal_elec_supply", elec), 0.9, 1e-6 * 0.9);
    for (const s of shares(r, "cheap_elec_supply", elec)) {
      assert.ok(Math.round(s * 1e5) / 1e5 >= 0.1, `${s} < 0.1`);
    }
  },
);

for (const relax of [0, 0.01, 0.05, 0.1]) {
  Deno.test(`test_demand_share_per_timestep_decision_relax[${relax}]`, async () => {
    const r = await solve("demand_share_per_timestep_decision_not_one", {
      "run.relax_constraint.demand_share_per_timestep_decision_main_constraint": relax,
    });
    allEqual(shares(r, "expensive_elec_supply"), 0);
    allEqual([decided(r)], 0.9);
    const cheap = shares(r, "cheap_elec_supply");
    const normal = shares(r, "normal_elec_supply");
    if (relax === 0) {
      allEqual(cheap, 0.1);
      allEqual(normal, 0.9);
    } else {
      assert.ok(cheap.some((s) => Math.abs(s - 0.1) > 1e-9), "cheap's share moved");
      assert.ok(normal.some((s) => Math.abs(s - 0.9) > 1e-9), "normal's share moved");
      for (const s of normal) {
        const r5 = Math.round(s * 1e5) / 1e5;
        assert.ok(r5 >= 0.9 * (1 - relax) && r5 <= 0.9 * (1 + relax), `${s}`);
      }
    }
  });
}
