import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { readResults } from "../../lib/results/read_results.ts";
import { link, locTech, model } from "../lp/_model.ts";
import { solve } from "../lp/_solve.ts";

function close(actual: unknown, expected: number, tol = 1e-7) {
  assert.equal(typeof actual, "number");
  const a = actual as number;
  assert.ok(Math.abs(a - expected) <= tol * Math.max(1, Math.abs(expected)), `${a} != ${expected}`);
}

const ccgtModel = (over = {}) =>
  model([
    locTech({
      location: "r1",
      tech: "ccgt",
      type: "supply",
      constraints: { energy_eff: 0.5, energy_cap_max: 15 },
      costs: { monetary: { energy_cap: 750, om_con: 0.02, depreciation: 0.1 } },
    }),
    locTech({
      location: "r1",
      tech: "demand_power",
      type: "demand",
      constraints: { resource: [-10, -20] },
    }),
  ], over);

Deno.test("readResults() without a solution: empty tables, success false, objective null", () => {
  const m = ccgtModel();
  const { lp, index } = buildLp(m);
  const r = readResults(m, index, solve(lp), { buildMs: 1 });
  // energy_cap_max 15 < peak 20 and no ensure_feasibility: infeasible
  assert.equal(r.success, false);
  assert.equal(r.termination_condition, "infeasible");
  assert.equal(r.objective, null);
  assert.deepEqual(r.carrier_prod, {});
});

Deno.test("readResults() reports costs, unmet demand (bigM in the objective), prices, frontend keys", () => {
  const m = ccgtModel({ ensureFeasibility: true, bigM: 1000 });
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  const r = readResults(m, index, s, { buildMs: 1 });
  const W = 2 / 8760;
  const cost = 750 * 0.1 * W * 15 + 0.02 * (25 / 0.5);
  assert.equal(r.success, true);
  // The objective is what was minimised (Calliope's objective_function_value), penalty included.
  close(r.objective, cost + 1000 * 5);
  close(r.cost_sum_unweighted, cost);
  assert.deepEqual(r.unmet_demand, { "r1::power": [0, 5] });
  const costs = r.costs as Record<string, Record<string, number>>;
  close(costs.monetary!["r1::ccgt"], cost);
  assert.deepEqual(r.capacities, r.energy_cap);
  close((r.energy_cap as Record<string, number>)["r1::ccgt"], 15);
  assert.deepEqual(r.carrier_prod, { "r1::ccgt::power": [10, 15] });
  assert.deepEqual(r.carrier_con, { "r1::demand_power::power": [-10, -20] });
  // Price: marginal fuel cost 0.02/0.5 when the plant has room; bigM when demand is unmet.
  const prices = (r.nodal_prices as Record<string, number[]>)["r1::power"]!;
  close(prices[0], 0.04);
  close(prices[1], 1000);
  assert.deepEqual(r.generation, { "r1::ccgt::power": 25 });
  assert.deepEqual(r.dispatch, { ccgt: [10, 15] });
  assert.deepEqual(r.demand_timeseries, [10, 20]);
  close((r.costs_by_tech as Record<string, number>).ccgt, cost);
  close((r.costs_by_location as Record<string, Record<string, number>>).r1!.ccgt, cost);
  assert.deepEqual((r.tech_metadata as Record<string, unknown>).ccgt, {
    parent: "supply",
    carrier_out: "power",
    display_name: "ccgt",
  });
  const stats = r.stats as Record<string, number>;
  assert.equal(stats.variables, lp.numCols);
  assert.equal(stats.constraints, lp.numRows);
});

Deno.test("readResults() transmission_flow: net a->b with a < b, link_flows per end", () => {
  const m = model([
    locTech({ location: "b", tech: "gen", type: "supply", costs: { monetary: { om_prod: 1 } } }),
    ...link("a", "b", "tx", { constraints: { energy_eff: 0.5 } }),
    locTech({ location: "a", tech: "demand_power", type: "demand", constraints: { resource: -2 } }),
  ]);
  const { lp, index } = buildLp(m);
  const r = readResults(m, index, solve(lp), { buildMs: 0 });
  assert.deepEqual(r.transmission_flow, {
    "a::b": { from: "a", to: "b", timeseries: [-4, -4] },
  });
  assert.deepEqual((r.link_flows as Record<string, number[]>)["a::tx:b::power"], [2, 2]);
  assert.ok(!("tx:b" in (r.dispatch as object)));
});

Deno.test("readResults() rounds magnitudes below the model's zero_threshold to 0", () => {
  const m = ccgtModel({ ensureFeasibility: true, bigM: 1000, zeroThreshold: 12 });
  const { lp, index } = buildLp(m);
  const r = readResults(m, index, solve(lp), { buildMs: 1 });
  // carrier_prod is [10, 15]: 10 < 12 is reported as 0 (Calliope's clean_results).
  assert.deepEqual(r.carrier_prod, { "r1::ccgt::power": [0, 15] });
  assert.deepEqual(r.unmet_demand, {}); // [0, 5]: 5 < 12
  // The objective is not rounded (Calliope's objective_function_value is not cleaned).
  assert.ok((r.objective as number) > 5000);
});
