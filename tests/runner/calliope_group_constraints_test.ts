/**
 * Calliope 0.6.10's group-constraint result tests on capacities and costs
 * (test_backend_pyomo_constraints_group.py: energy_cap, storage_cap, resource_area, cost), and
 * test_constraint_results.py `test_group_prod_min` / `test_group_cap_max`, through the importer
 * and the runner's real pipeline, with Calliope's numbers and tolerances. The shares, production
 * and consumption are in calliope_group_shares_test.ts.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";
import { buildTestModel } from "./_calliope_test_model.ts";
import {
  approx,
  assertNotOptimal,
  COST,
  GROUP,
  r5,
  solve,
  STORAGE,
  total,
} from "./_calliope_group_results.ts";

// --- TestEnergyCapGroupConstraints ---------------------------------------------------------

Deno.test("test_no_energy_cap_constraint", async () => {
  assert.equal(total(await solve(GROUP), "energy_cap", "expensive_elec_supply"), 0);
});

Deno.test("test_energy_cap_max_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_max_supply");
  assert.ok(r5(total(r, "energy_cap", "cheap_elec_supply")) <= 14);
});

Deno.test("test_energy_cap_min_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_min_supply");
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply")) >= 6);
});

Deno.test("test_energy_cap_equals_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_equals_supply");
  approx(total(r, "energy_cap", "expensive_elec_supply"), 10);
});

Deno.test("test_energy_cap_min_max_supply_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_min_max_supply");
  assert.ok(r5(total(r, "energy_cap", "cheap_elec_supply")) <= 4);
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply")) >= 6);
});

Deno.test("test_energy_cap_max_supply_loc_1_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_max_supply_loc_1");
  assert.ok(r5(total(r, "energy_cap", "cheap_elec_supply", "1")) <= 4);
  assert.equal(total(r, "energy_cap", "expensive_elec_supply", "0"), 0);
});

Deno.test("test_energy_cap_min_supply_loc_0_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_min_supply_loc_0");
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply", "0")) >= 6);
  assert.equal(total(r, "energy_cap", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_energy_cap_min_max_supply_loc0_1_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_min_max_supply_loc_0_1");
  assert.ok(r5(total(r, "energy_cap", "cheap_elec_supply", "1")) <= 4);
  assert.ok(r5(total(r, "energy_cap", "expensive_elec_supply", "0")) >= 6);
  assert.equal(total(r, "energy_cap", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_energy_cap_max_non_conversion_all_constraint", async () => {
  const r = await solve(GROUP, "energy_cap_max_non_conversion_all");
  const cap = (tech: string) => total(r, "energy_cap", tech, "1");
  approx(cap("cheap_heat_supply"), 0.8333, 0.001);
  approx(cap("cheap_cool_supply"), 0.1667, 0.001);
  approx(cap("elec_to_heat_cool_linked"), 1.6667, 0.001);
  assert.ok(Math.abs(cap("elec_to_heat_cool_unlinked")) <= 1e-12);
  assert.ok(Math.abs(cap("elec_to_heat")) <= 1e-12);
});

Deno.test("test_energy_cap_max_all_techs_infeasible_constraint", async () => {
  await assertNotOptimal(GROUP, "energy_cap_max_all_techs_infeasible");
});

// --- TestStorageCapGroupConstraints --------------------------------------------------------

Deno.test("test_no_storage_cap_constraint", async () => {
  assert.equal(total(await solve(STORAGE), "storage_cap", "expensive_elec_storage"), 0);
});

Deno.test("test_storage_cap_max_constraint", async () => {
  const r = await solve(STORAGE, "storage_cap_max");
  assert.ok(r5(total(r, "storage_cap", "cheap_elec_storage")) <= 5);
});

Deno.test("test_storage_cap_min_constraint", async () => {
  const r = await solve(STORAGE, "storage_cap_min");
  assert.ok(r5(total(r, "storage_cap", "expensive_elec_storage")) >= 4);
});

Deno.test("test_storage_cap_equals_constraint", async () => {
  const r = await solve(STORAGE, "storage_cap_equals");
  approx(total(r, "storage_cap", "expensive_elec_storage"), 6);
});

Deno.test("test_storage_cap_min_max_constraint", async () => {
  const r = await solve(STORAGE, "storage_cap_min_max");
  assert.ok(r5(total(r, "storage_cap", "cheap_elec_storage")) <= 2);
  assert.ok(r5(total(r, "storage_cap", "expensive_elec_storage")) >= 2);
});

// --- TestResourceAreaGroupConstraints ------------------------------------------------------

Deno.test("test_no_resource_area_constraint", async () => {
  assert.equal(total(await solve(GROUP), "resource_area", "expensive_elec_supply"), 0);
});

Deno.test("test_resource_area_max_supply_constraint", async () => {
  const r = await solve(GROUP, "resource_area_max_supply");
  assert.ok(r5(total(r, "resource_area", "expensive_elec_supply")) <= 28);
});

Deno.test("test_resource_area_min_supply_constraint", async () => {
  const r = await solve(GROUP, "resource_area_min_supply");
  assert.ok(r5(total(r, "resource_area", "expensive_elec_supply")) >= 12);
});

Deno.test("test_resource_area_equals_supply_constraint", async () => {
  const r = await solve(GROUP, "resource_area_equals_supply");
  approx(total(r, "resource_area", "expensive_elec_supply"), 20);
});

Deno.test("test_resource_area_min_max_supply_constraint", async () => {
  const r = await solve(GROUP, "resource_area_min_max_supply");
  assert.ok(r5(total(r, "resource_area", "cheap_elec_supply")) <= 8);
  assert.ok(r5(total(r, "resource_area", "expensive_elec_supply")) >= 12);
});

Deno.test("test_resource_area_max_supply_loc_1_constraint", async () => {
  const r = await solve(GROUP, "resource_area_max_supply_loc_1");
  assert.ok(r5(total(r, "resource_area", "cheap_elec_supply", "1")) <= 8);
  assert.equal(total(r, "resource_area", "expensive_elec_supply", "0"), 0);
});

Deno.test("test_resource_area_min_supply_loc_0_constraint", async () => {
  const r = await solve(GROUP, "resource_area_min_supply_loc_0");
  assert.ok(r5(total(r, "resource_area", "expensive_elec_supply", "0")) >= 12);
  assert.equal(total(r, "resource_area", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_resource_area_min_max_supply_loc0_1_constraint", async () => {
  const r = await solve(GROUP, "resource_area_min_max_supply_loc_0_1");
  assert.ok(r5(total(r, "resource_area", "cheap_elec_supply", "1")) <= 8);
  assert.ok(r5(total(r, "resource_area", "expensive_elec_supply", "0")) >= 12);
  assert.equal(total(r, "resource_area", "expensive_elec_supply", "1"), 0);
});

Deno.test("test_resource_area_max_all_techs_infeasible_constraint", async () => {
  await assertNotOptimal(GROUP, "resource_area_max_all_techs_infeasible");
});

// --- TestCostCapGroupConstraint ------------------------------------------------------------

const cost = (r: RunResult, cls: string, tech?: string, loc?: string, table = "costs") =>
  total(r, table, tech, loc, cls);

Deno.test("test_systemwide_cost_max_constraint", async () => {
  const r = await solve(COST, "cheap_cost_max_systemwide");
  assert.ok(r5(cost(r, "monetary", "cheap_polluting_supply")) <= 30);
});

Deno.test("test_systemwide_cost_investment_max_constraint", async () => {
  const r = await solve(COST, "cheap_cost_investment_max_systemwide");
  const inv = cost(r, "monetary", "cheap_polluting_supply", undefined, "cost_investment");
  assert.ok(cost(r, "monetary", "cheap_polluting_supply") > inv);
  assert.ok(r5(inv) <= 4);
});

Deno.test("test_systemwide_cost_var_max_constraint", async () => {
  const r = await solve(COST, "cheap_cost_var_max_systemwide");
  const v = cost(r, "monetary", "cheap_polluting_supply", undefined, "cost_var");
  assert.ok(cost(r, "monetary", "cheap_polluting_supply") > v);
  assert.ok(r5(v) <= 200);
});

Deno.test("test_systemwide_cost_min_constraint", async () => {
  const r = await solve(COST, "expensive_cost_min_systemwide");
  assert.ok(r5(cost(r, "monetary", "expensive_clean_supply")) >= 600);
});

Deno.test("test_systemwide_cost_equals_constraint", async () => {
  const r = await solve(COST, "cheap_cost_equals_systemwide");
  approx(cost(r, "monetary", "cheap_polluting_supply"), 210);
});

Deno.test("test_location_specific_cost_max_constraint", async () => {
  const r = await solve(COST, "cheap_cost_max_location_0");
  assert.ok(r5(cost(r, "monetary", "cheap_polluting_supply", "0")) <= 10);
});

Deno.test("test_systemwide_emissions_max_constraint", async () => {
  const r = await solve(COST, "emissions_max_systemwide");
  assert.ok(r5(cost(r, "emissions")) <= 400);
});

Deno.test("test_location_specific_emissions_max_constraint", async () => {
  const r = await solve(COST, "emissions_max_location_0");
  assert.ok(r5(cost(r, "emissions", undefined, "0")) <= 200);
});

Deno.test("test_systemwide_clean_emissions_max_constraint", async () => {
  const r = await solve(COST, "clean_emissions_max_systemwide");
  assert.ok(r5(cost(r, "emissions", "expensive_clean_supply")) <= 300);
});

Deno.test("test_multiple_costs_constraint", async () => {
  const r = await solve(COST, "multiple_costs_constraint");
  assert.ok(r5(cost(r, "emissions")) <= 400);
  assert.ok(r5(cost(r, "monetary", "expensive_clean_supply")) <= 600);
});

Deno.test("test_different_locations_per_cost_group_constraint", async () => {
  const r = await solve(COST, "different_locations_per_group");
  assert.ok(r5(cost(r, "monetary", "cheap_polluting_supply")) <= 30);
  assert.ok(r5(cost(r, "monetary", "cheap_polluting_supply", "0")) <= 10);
});

Deno.test("test_different_techs_per_cost_group_constraint", async () => {
  const r = await solve(COST, "different_techs_per_group");
  assert.ok(r5(cost(r, "emissions")) <= 400);
  assert.ok(r5(cost(r, "emissions", "expensive_clean_supply")) <= 300);
});

// --- test_constraint_results.py (national-scale example, its default 5 days) ---------------

const runner = await createHighsModelRunner();
const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;

async function national(scenario: string): Promise<RunResult> {
  return solveOptimal(runner, await importCalliopeModel(NATIONAL, { scenario }));
}

Deno.test("test_group_prod_min: cold fusion and csp produce 85% of power", async () => {
  const r = await national("cold_fusion_with_production_share");
  const prod = (tech: string) =>
    Object.entries(r["carrier_prod"] as unknown as Record<string, number[]>)
      .filter(([id]) => id.split("::")[1] === tech && id.split("::")[2] === "power")
      .reduce((s, [, v]) => s + v.reduce((a, b) => a + b, 0), 0);
  const share = (prod("cold_fusion") + prod("csp")) /
    (prod("ccgt") + prod("cold_fusion") + prod("csp"));
  approx(share, 0.85);
});

Deno.test("test_group_cap_max: cold fusion and csp hold 20% of capacity", async () => {
  const r = await national("cold_fusion_with_capacity_share");
  const cap = (tech: string) => total(r, "energy_cap", tech);
  const share = (cap("cold_fusion") + cap("csp")) / (cap("ccgt") + cap("cold_fusion") + cap("csp"));
  approx(share, 0.2);
});

Deno.test("a group naming an unknown technology or location is a problem naming it", async () => {
  const config = await buildTestModel({ modelFile: GROUP });
  const prepared = runner.prepare({
    ...config,
    groupConstraints: { g: { techs: ["nuclear"], locs: ["9"], energy_cap_max: 1 } },
  });
  assert.equal(prepared.ok, false);
  if (prepared.ok) return;
  assert.deepEqual(prepared.problems.map((p) => [p.path, p.message]), [
    ["groupConstraints.g.techs[0]", 'unknown technology "nuclear"'],
    ["groupConstraints.g.locs[0]", 'unknown location "9"'],
  ]);
});
