/**
 * Calliope 0.6.10's group-constraint result tests on production, consumption and shares
 * (test_backend_pyomo_constraints_group.py: carrier_prod, carrier_con, energy_cap_share,
 * carrier_prod_share and per timestep, demand_share and per timestep, net_import_share), through
 * the importer and the runner's real pipeline, with Calliope's numbers and tolerances.
 */
import assert from "node:assert/strict";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import {
  approx,
  assertIgnored,
  assertNotOptimal,
  GROUP,
  r5,
  solve,
  total,
} from "./_calliope_group_results.ts";

// --- TestCarrierProdGroupConstraints -------------------------------------------------------

Deno.test("test_no_carrier_prod_constraint", async () => {
  assert.equal(total(await solve(GROUP), "carrier_prod", "expensive_elec_supply"), 0);
});

Deno.test("test_carrier_prod_max_supply_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_max_supply");
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply")) <= 40);
});

Deno.test("test_carrier_prod_min_supply_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_min_supply");
  assert.ok(r5(total(r, "carrier_prod", "expensive_elec_supply")) >= 10);
});

Deno.test("test_carrier_prod_equals_supply_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_equals_supply");
  approx(total(r, "carrier_prod", "expensive_elec_supply"), 30);
});

Deno.test("test_carrier_prod_min_max_supply_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_min_max_supply");
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply")) <= 40);
  assert.ok(r5(total(r, "carrier_prod", "expensive_elec_supply")) >= 10);
});

Deno.test("test_carrier_prod_max_supply_loc_1_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_max_supply_loc_1");
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply", "1")) <= 40);
  assert.equal(total(r, "carrier_prod", "expensive_elec_supply", "0"), 0);
});

Deno.test("test_carrier_prod_min_supply_loc_0_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_min_supply_loc_0");
  assert.ok(r5(total(r, "carrier_prod", "expensive_elec_supply", "0")) >= 10);
  assert.equal(total(r, "carrier_prod", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_carrier_prod_min_max_supply_loc0_1_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_min_max_supply_loc_0_1");
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply", "1")) <= 40);
  assert.ok(r5(total(r, "carrier_prod", "expensive_elec_supply", "0")) >= 10);
  assert.equal(total(r, "carrier_prod", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_carrier_prod_max_all_techs_infeasible_constraint", async () => {
  await assertNotOptimal(GROUP, "carrier_prod_max_all_techs_infeasible");
});

// Conversion techs only, so the supply-only family covers nothing: Calliope warns and ignores the
// group, and the conversion techs run unconstrained.
Deno.test("test_carrier_prod_max_non_conversion_all_constraint", async () => {
  const r = await solve(GROUP, "carrier_prod_max_non_conversion_all");
  assertIgnored(r, "example_carrier_prod_constraint");
  const prod = (tech: string, carrier?: string) =>
    Object.entries(r["carrier_prod"] as Record<string, number[]>)
      .filter(([id]) => {
        const [l, t, c] = id.split("::");
        return l === "1" && t === tech && (carrier === undefined || c === carrier);
      })
      .reduce((s, [, v]) => s + v.reduce((a, b) => a + b, 0), 0);
  assert.ok(r5(prod("cheap_heat_supply")) <= 10);
  assert.ok(r5(prod("cheap_cool_supply")) <= 5);
  assert.ok(Math.round(prod("elec_to_heat_cool_linked", "cool")) >= 1);
  assert.ok(Math.round(prod("elec_to_heat_cool_linked", "heat")) >= 5);
  assert.equal(prod("elec_to_heat_cool_unlinked"), 0);
  assert.equal(prod("elec_to_heat"), 0);
});

// --- TestCarrierConGroupConstraints --------------------------------------------------------

const demand = (r: RunResult, tech: string, loc?: string) => total(r, "carrier_con", tech, loc);

Deno.test("test_no_carrier_con_constraint", async () => {
  approx(demand(await solve(GROUP), "electricity_demand"), -90);
});

Deno.test("test_carrier_con_max_demand_constraint", async () => {
  const r = await solve(GROUP, "carrier_con_max_demand");
  assert.ok(r5(demand(r, "electricity_demand")) >= -80);
});

Deno.test("test_carrier_con_min_demand_constraint", async () => {
  const r = await solve(GROUP, "carrier_con_min_demand");
  assert.ok(r5(demand(r, "electricity_demand")) <= -40);
});

Deno.test("test_carrier_con_equals_demand_constraint", async () => {
  const r = await solve(GROUP, "carrier_con_equals_demand");
  approx(demand(r, "electricity_demand"), -60);
});

Deno.test("test_carrier_con_max_demand_loc_1_constraint", async () => {
  const r = await solve(GROUP, "carrier_con_max_demand_loc_1");
  assert.ok(r5(demand(r, "electricity_demand", "1")) >= -80);
  assert.equal(demand(r, "electricity_demand", "0"), 0);
});

Deno.test("test_carrier_con_max_multi_demand_constraint", async () => {
  const r = await solve(GROUP, "carrier_con_max_multi_demand");
  assert.ok(r5(demand(r, "heat_demand")) >= -10);
  assert.ok(r5(demand(r, "cool_demand")) >= -5);
});

Deno.test("test_carrier_con_min_conversion_constraint", async () => {
  const r = await solve(GROUP, "carrier_con_min_conversion");
  assert.ok(r5(demand(r, "elec_to_heat")) <= -1);
});

Deno.test("test_carrier_con_min_conversion_plus_constraint", async () => {
  const r = await solve(GROUP, "carrier_con_min_conversion_plus");
  assert.ok(r5(demand(r, "elec_to_heat_cool_unlinked")) <= 1);
});

// --- TestEnergyCapShareGroupConstraints ---------------------------------------------------

/** Calliope's `get_supply_conversion_techs`. */
const SUPPLY_CONVERSION_TECHS = [
  "elec_to_heat_cool_unlinked",
  "cheap_elec_supply",
  "elec_to_heat_cool_linked",
  "elec_to_heat",
  "expensive_elec_supply",
  "normal_elec_supply",
  "cheap_heat_supply",
  "cheap_cool_supply",
  "normal_heat_supply",
  "expensive_heat_supply",
  "normal_cool_supply",
  "expensive_cool_supply",
  "elec_supply_plus",
];
const supplyConversionCap = (r: RunResult, loc?: string) =>
  SUPPLY_CONVERSION_TECHS.reduce((s, t) => s + total(r, "energy_cap", t, loc), 0);

Deno.test("test_no_energy_cap_share_constraint", async () => {
  assert.equal(total(await solve(GROUP), "energy_cap", "expensive_elec_supply"), 0);
});

Deno.test("test_energy_cap_share_max_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_max_supply");
  const all = supplyConversionCap(r);
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply") / all) <= 0.5);
});

Deno.test("test_energy_cap_share_min_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_min_supply");
  const all = supplyConversionCap(r);
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply") / all) >= 0.4);
});

Deno.test("test_energy_cap_share_equals_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_equals_supply");
  approx(total(r, "energy_cap", "expensive_elec_supply") / supplyConversionCap(r), 0.3);
});

Deno.test("test_energy_cap_share_min_max_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_min_max_supply");
  const all = supplyConversionCap(r);
  assert.ok(r5(total(r, "energy_cap", "cheap_elec_supply") / all) <= 0.2);
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply") / all) >= 0.4);
});

Deno.test("test_energy_cap_share_max_supply_loc_1_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_max_supply_loc_1");
  const all1 = supplyConversionCap(r, "1");
  assert.ok(r5(total(r, "energy_cap", "cheap_elec_supply", "1") / all1) <= 0.2);
  assert.equal(total(r, "energy_cap", "expensive_elec_supply", "0"), 0);
});

Deno.test("test_energy_cap_share_min_supply_loc_0_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_min_supply_loc_0");
  const all0 = supplyConversionCap(r, "0");
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply", "0") / all0) >= 0.4);
  assert.equal(total(r, "energy_cap", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_energy_cap_share_min_max_supply_loc0_1_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_min_max_supply_loc_0_1");
  const all0 = supplyConversionCap(r, "0");
  const all1 = supplyConversionCap(r, "1");
  assert.ok(r5(total(r, "energy_cap", "cheap_elec_supply", "1") / all1) <= 0.2);
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply", "0") / all0) >= 0.4);
  assert.equal(total(r, "energy_cap", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_energy_cap_share_max_non_conversion_all_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_share_max_non_conversion_all");
  const heatCool = total(r, "energy_cap", "cheap_heat_supply", "1") +
    total(r, "energy_cap", "cheap_cool_supply", "1");
  assert.ok(heatCool / supplyConversionCap(r, "1") <= 0.1);
});

Deno.test("test_energy_cap_share_max_all_techs_infeasible_constraint", async () => {
  await assertNotOptimal(GROUP, "energy_cap_share_max_all_techs_infeasible");
});

// --- TestSupplyShareGroupConstraints (carrier_prod_share) -----------------------------------

const SHARE = "group_constraint_carrier_prod_share.yaml";

/** Each tech's share of Σ carrier_prod (Calliope's groupby("techs") ... x / x.sum()). */
function prodShare(r: RunResult, tech: string): number {
  return total(r, "carrier_prod", tech) / total(r, "carrier_prod");
}

Deno.test("test_no_carrier_prod_share_constraint", async () => {
  assert.equal(total(await solve(SHARE), "carrier_prod", "expensive_supply"), 0);
});

Deno.test("test_systemwide_carrier_prod_share_max_constraint", async () => {
  const r = await solve(SHARE, "carrier_prod_share_max_systemwide");
  assert.ok(r5(prodShare(r, "cheap_supply")) <= 0.4);
});

Deno.test("test_systemwide_carrier_prod_share_min_constraint", async () => {
  const r = await solve(SHARE, "carrier_prod_share_min_systemwide");
  assert.ok(r5(prodShare(r, "expensive_supply")) >= 0.6);
});

Deno.test("test_location_specific_carrier_prod_share_max_constraint", async () => {
  const r = await solve(SHARE, "carrier_prod_share_max_location_0");
  const cheap0 = total(r, "carrier_prod", "cheap_supply", "0");
  const expensive0 = total(r, "carrier_prod", "expensive_supply", "0");
  assert.ok(r5(cheap0 / (cheap0 + expensive0)) <= 0.4);
  assert.equal(total(r, "carrier_prod", "expensive_supply", "1"), 0);
});

Deno.test("test_location_specific_carrier_prod_share_min_constraint", async () => {
  const r = await solve(SHARE, "carrier_prod_share_min_location_0");
  const cheap0 = total(r, "carrier_prod", "cheap_supply", "0");
  const expensive0 = total(r, "carrier_prod", "expensive_supply", "0");
  assert.ok(r5(expensive0 / (cheap0 + expensive0)) >= 0.6);
  assert.equal(total(r, "carrier_prod", "expensive_supply", "1"), 0);
});

// These two read cost.csv, a day long beside a month of demand: each series is cut to
// subset_time before they are compared, as Calliope does. Σ supply is over supply and
// conversion techs only (Calliope's loc_tech_carriers_supply_conversion_all), not the links'
// or the storage's production.
for (
  const [name, scenario] of [
    ["test_carrier_prod_share_with_transmission", "transmission_link"],
    ["test_carrier_prod_share_with_storage", "storage_tech"],
  ]
) {
  Deno.test(name!, async () => {
    const r = await solve(SHARE, `carrier_prod_share_min_systemwide,${scenario}`);
    const expensive = total(r, "carrier_prod", "expensive_supply");
    const supply = expensive + total(r, "carrier_prod", "cheap_supply");
    assert.ok(total(r, "carrier_prod") > supply, "the links or the storage produce too");
    assert.ok(r5(expensive / supply) >= 0.6);
  });
}

// --- TestSupplyShareGroupConstraints: per timestep ----------------------------------------

/** Per timestep, Σ of a time-indexed table over the ids `keep` accepts. */
function series(r: RunResult, table: string, keep: (id: string) => boolean): number[] {
  const out: number[] = [];
  for (
    const [id, v] of Object.entries(
      r[table as keyof RunResult] as unknown as Record<string, number[]>,
    )
  ) {
    if (!keep(id)) continue;
    v.forEach((x, t) => out[t] = (out[t] ?? 0) + x);
  }
  return out;
}
const isTech = (tech: string, carrier?: string) => (id: string) =>
  id.split("::")[1] === tech && (carrier === undefined || id.split("::")[2] === carrier);
const ratios = (a: number[], b: number[]) => b.map((x, t) => r5((a[t] ?? 0) / x));

Deno.test("test_carrier_prod_share_per_timestep_max", async () => {
  const r = await solve(SHARE, "carrier_prod_share_per_timestep_max");
  const cheap = series(r, "carrier_prod", isTech("cheap_supply", "electricity"));
  const all = series(r, "carrier_prod", (id) => id.endsWith("::electricity"));
  assert.ok(ratios(cheap, all).every((x) => x <= 0.4));
});

Deno.test("test_carrier_prod_share_per_timestep_min", async () => {
  const r = await solve(SHARE, "carrier_prod_share_per_timestep_min");
  const expensive = series(r, "carrier_prod", isTech("expensive_supply", "electricity"));
  const all = series(r, "carrier_prod", (id) => id.endsWith("::electricity"));
  assert.ok(ratios(expensive, all).every((x) => x >= 0.6));
});

Deno.test("test_carrier_prod_share_per_timestep_equals", async () => {
  const r = await solve(SHARE, "carrier_prod_share_per_timestep_equals");
  const expensive = series(r, "carrier_prod", isTech("expensive_supply", "electricity"));
  const all = series(r, "carrier_prod", (id) => id.endsWith("::electricity"));
  assert.ok(ratios(expensive, all).every((x) => x === 0.6), `${ratios(expensive, all)}`);
});

// --- TestDemandShareGroupConstraints (not the decision variant) ----------------------------

const DEMAND = "group_constraint_demand_share.yaml";
const demandTotal = (r: RunResult, loc?: string) => -total(r, "carrier_con", undefined, loc);

Deno.test("test_no_demand_share_constraint", async () => {
  assert.equal(total(await solve(DEMAND), "carrier_prod", "expensive_elec_supply"), 0);
});

Deno.test("test_systemwide_demand_share_max_constraint", async () => {
  const r = await solve(DEMAND, "demand_share_max_systemwide");
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply") / demandTotal(r)) <= 0.3);
});

Deno.test("test_systemwide_demand_share_min_constraint", async () => {
  const r = await solve(DEMAND, "demand_share_min_systemwide");
  assert.ok(r5(total(r, "carrier_prod", "expensive_elec_supply") / demandTotal(r)) >= 0.6);
});

Deno.test("test_systemwide_demand_share_equals_constraint", async () => {
  const r = await solve(DEMAND, "demand_share_equals_systemwide");
  assert.equal(r5(total(r, "carrier_prod", "expensive_elec_supply") / demandTotal(r)), 0.6);
});

Deno.test("test_location_specific_demand_share_max_constraint", async () => {
  const r = await solve(DEMAND, "demand_share_max_location_0");
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply", "0") / demandTotal(r, "0")) <= 0.3);
  assert.equal(total(r, "carrier_prod", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_location_specific_demand_share_max_constraint_two_techs", async () => {
  const r = await solve(DEMAND, "demand_share_max_location_0_two_techs");
  const gen0 = total(r, "carrier_prod", "cheap_elec_supply", "0") +
    total(r, "carrier_prod", "normal_elec_supply", "0");
  assert.ok(r5(gen0 / demandTotal(r, "0")) <= 0.4);
});

Deno.test("test_location_specific_demand_share_min_constraint", async () => {
  const r = await solve(DEMAND, "demand_share_min_location_0");
  assert.ok(
    r5(total(r, "carrier_prod", "expensive_elec_supply", "0") / demandTotal(r, "0")) >= 0.6,
  );
  assert.equal(total(r, "carrier_prod", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_multiple_group_constraints", async () => {
  const r = await solve(DEMAND, "multiple_constraints");
  const demand = demandTotal(r);
  assert.ok(r5(total(r, "carrier_prod", "expensive_elec_supply") / demand) >= 0.6);
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply") / demand) <= 0.3);
});

/** Σ of a flow table over one tech and carrier (all locations and timesteps). */
const flowOf = (r: RunResult, table: string, tech: string, carrier: string, loc?: string) =>
  series(
    r,
    table,
    (id) => isTech(tech, carrier)(id) && (loc === undefined || id.startsWith(`${loc}::`)),
  )
    .reduce((a, b) => a + b, 0);

Deno.test("test_multiple_group_carriers", async () => {
  const r = await solve(DEMAND, "multiple_carriers_max");
  const elec = -flowOf(r, "carrier_con", "electricity_demand", "electricity");
  const heat = -flowOf(r, "carrier_con", "heat_demand", "heat");
  assert.ok(r5(flowOf(r, "carrier_prod", "cheap_elec_supply", "electricity") / elec) <= 0.3);
  assert.ok(r5(flowOf(r, "carrier_prod", "cheap_heat_supply", "heat") / heat) <= 0.5);
});

Deno.test("test_multiple_group_carriers_constraints", async () => {
  const r = await solve(DEMAND, "multiple_constraints_carriers");
  const elec = -flowOf(r, "carrier_con", "electricity_demand", "electricity");
  const heat = -flowOf(r, "carrier_con", "heat_demand", "heat");
  assert.ok(r5(flowOf(r, "carrier_prod", "cheap_elec_supply", "electricity") / elec) <= 0.3);
  assert.ok(r5(flowOf(r, "carrier_prod", "expensive_elec_supply", "electricity") / elec) >= 0.6);
  assert.ok(r5(flowOf(r, "carrier_prod", "cheap_heat_supply", "heat") / heat) <= 0.5);
  assert.ok(r5(flowOf(r, "carrier_prod", "expensive_heat_supply", "heat") / heat) >= 0.4);
});

Deno.test("test_different_locations_per_group_constraint", async () => {
  const r = await solve(DEMAND, "different_locations_per_group");
  const d0 = -flowOf(r, "carrier_con", "electricity_demand", "electricity", "0");
  const d1 = -flowOf(r, "carrier_con", "electricity_demand", "electricity", "1");
  const gen = (tech: string, loc: string) => total(r, "carrier_prod", tech, loc);
  assert.ok(r5(gen("expensive_elec_supply", "0") / d0) >= 0.6);
  assert.equal(gen("expensive_elec_supply", "1") / d1, 0);
  assert.ok(r5((gen("cheap_elec_supply", "0") + gen("cheap_elec_supply", "1")) / (d0 + d1)) <= 0.3);
});

Deno.test("test_transmission_not_included_in_demand", async () => {
  const r = await solve(DEMAND, "transmission_not_included_in_demand");
  const at1 = ["normal_elec_supply", "cheap_elec_supply", "expensive_elec_supply"]
    .reduce((s, t) => s + total(r, "carrier_prod", t, "1"), 0);
  assert.ok(Math.abs(at1) <= 1e-12);
  const demand0 = -total(r, "carrier_con", "electricity_demand", "0");
  assert.ok(r5(total(r, "carrier_prod", "cheap_elec_supply", "0") / demand0) <= 0.4);
});

Deno.test("test_demand_share_per_timestep_max", async () => {
  const r = await solve(DEMAND, "demand_share_per_timestep_max");
  const cheap = series(r, "carrier_prod", isTech("cheap_elec_supply", "electricity"));
  const demand = series(r, "carrier_con", () => true).map((x) => -x);
  assert.ok(ratios(cheap, demand).every((x) => x <= 0.3));
});

Deno.test("test_demand_share_per_timestep_min", async () => {
  const r = await solve(DEMAND, "demand_share_per_timestep_min");
  const expensive = series(r, "carrier_prod", isTech("expensive_elec_supply", "electricity"));
  const demand = series(r, "carrier_con", () => true).map((x) => -x);
  assert.ok(ratios(expensive, demand).every((x) => x >= 0.6));
});

Deno.test("test_demand_share_per_timestep_equals", async () => {
  const r = await solve(DEMAND, "demand_share_per_timestep_equals");
  const expensive = series(r, "carrier_prod", isTech("expensive_elec_supply", "electricity"));
  const demand = series(r, "carrier_con", () => true).map((x) => -x);
  assert.ok(ratios(expensive, demand).every((x) => x === 0.6));
});

// --- TestNetImportShareGroupConstraints ----------------------------------------------------

/** Σ over time of the electricity a location's transmission ends produce (+) or consume. */
function flow(r: RunResult, table: "carrier_prod" | "carrier_con", loc: string): number {
  return series(r, table, (id) => {
    const [l, tech, carrier] = id.split("::");
    return l === loc && tech!.includes("transmission") && carrier === "electricity";
  }).reduce((a, b) => a + b, 0);
}
const netImports = (r: RunResult, loc: string) =>
  flow(r, "carrier_prod", loc) + flow(r, "carrier_con", loc);
const elecDemand = (r: RunResult, loc: string) =>
  total(r, "carrier_con", "electricity_demand", loc);

Deno.test("test_only_imports_without_constraint", async () => {
  const r = await solve(GROUP, "expensive-1");
  approx(netImports(r, "1"), -elecDemand(r, "1"));
});

Deno.test("test_only_imports_with_wrong_carrier", async () => {
  const r = await solve(GROUP, "expensive-1,other-carrier");
  assertIgnored(r, "example_net_import_share_constraint");
  approx(netImports(r, "1"), -elecDemand(r, "1"));
});

Deno.test("test_no_net_imports", async () => {
  const r = await solve(GROUP, "expensive-1,no-net-imports");
  assert.ok(Math.abs(netImports(r, "1")) <= 1e-12);
});

Deno.test("test_no_imports_explicit_tech", async () => {
  const r = await solve(GROUP, "expensive-1,no-net-imports-explicit-tech");
  assert.ok(Math.abs(netImports(r, "1")) <= 1e-12);
});

Deno.test("test_some_imports_allowed", async () => {
  const r = await solve(GROUP, "expensive-1,some-imports-allowed");
  assert.ok(netImports(r, "1") <= -0.2 * elecDemand(r, "1"));
});

Deno.test("test_some_imports_enforced", async () => {
  const r = await solve(GROUP, "expensive-1,some-imports-enforced");
  approx(netImports(r, "1"), -0.2 * elecDemand(r, "1"));
});

Deno.test("test_some_expensive_imports_enforced", async () => {
  const r = await solve(GROUP, "expensive-1,some-expensive-imports-enforced");
  // Binding (9 = 0.2 × 45): Calliope compares exactly, HiGHS lands within 1e-9 below.
  assert.ok(netImports(r, "0") >= -0.2 * elecDemand(r, "0") - 1e-9);
});

Deno.test("test_ignores_imports_within_group", async () => {
  const r = await solve(GROUP, "expensive-1,ignores-imports-within-group");
  assertIgnored(r, "example_net_import_share_constraint");
  approx(flow(r, "carrier_prod", "1"), -elecDemand(r, "1"));
});

Deno.test("test_allows_gross_imports / test_no_net_imports_despite_gross_imports", async () => {
  const r = await solve(GROUP, "no-net-imports,alternating-costs");
  assert.ok(flow(r, "carrier_prod", "1") > 0);
  assert.ok(netImports(r, "1") <= 0);
});
