import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import type { LinearProgram } from "../../lib/lp/linear_program.ts";
import { writeLp } from "../../lib/lp/write_lp.ts";
import type { ResolvedMilp } from "../../lib/model/preprocess/milp_settings.ts";
import type { ResolvedLocTech } from "../../lib/model/preprocess/resolved_model.ts";
import { loadHighsOnce } from "../../lib/solver/highs_loader.ts";
import { solveLp } from "../../lib/solver/solve_lp.ts";
import { row } from "./_lp_row.ts";
import { locTech, type LocTechSpec, model } from "./_model.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";

const highs = await loadHighsOnce();

/** The coefficients of row `name` by column name, and its bounds. */

const hasRow = (lp: LinearProgram, prefix: string) =>
  nameArray(lp.rowNames).some((n) => n.startsWith(prefix));
const integerCols = (lp: LinearProgram) =>
  nameArray(lp.colNames).filter((_, j) => lp.integrality?.[j] === 1);

function milpTech(spec: LocTechSpec, milp: Partial<ResolvedMilp>): ResolvedLocTech {
  const lt = locTech({ ...spec, sets: { investmentCost: true, ...spec.sets } });
  return { ...lt, milp: { purchase: false, purchaseCost: {}, asynchronous: false, ...milp } };
}

const demand = (values: number[], location = "A") =>
  locTech({
    location,
    tech: "demand_power",
    type: "demand",
    carrier: "power",
    constraints: { resource: values },
  });

const T0 = "2005-01-01T00:00:00";
const T1 = "2005-01-01T01:00:00";

Deno.test("units: integer columns, unit rows in place of the capacity ones, and the optimum", () => {
  const gen = milpTech(
    {
      location: "A",
      tech: "gen",
      type: "supply",
      constraints: { energy_cap_min_use: 0.2, energy_cap_max: 5 },
      costs: { monetary: { energy_cap: 0 } },
    },
    {
      units: { min: 0, max: 3 },
      energyCapPerUnit: 10,
      purchaseCost: { monetary: 100 },
    },
  );
  const { lp, index } = buildLp(model([gen, demand([-15, -4])]));
  assert.deepEqual(integerCols(lp), [
    "units[A::gen]",
    `operating_units[A::gen,${T0}]`,
    `operating_units[A::gen,${T1}]`,
  ]);
  assert.deepEqual(row(lp, `unit_commitment_milp[A::gen,${T0}]`), {
    terms: { "units[A::gen]": -1, [`operating_units[A::gen,${T0}]`]: 1 },
    lower: -Infinity,
    upper: 0,
  });
  assert.deepEqual(row(lp, "unit_capacity_milp[A::gen]").upper, 3);
  assert.deepEqual(row(lp, `carrier_production_max_milp[A::gen::power,${T1}]`).terms, {
    [`carrier_prod[A::gen::power,${T1}]`]: 1,
    [`operating_units[A::gen,${T1}]`]: -10,
  });
  assert.deepEqual(row(lp, `carrier_production_min_milp[A::gen::power,${T1}]`).terms, {
    [`carrier_prod[A::gen::power,${T1}]`]: 1,
    [`operating_units[A::gen,${T1}]`]: -2,
  });
  assert.deepEqual(row(lp, "energy_capacity_units_milp[A::gen]"), {
    terms: { "energy_cap[A::gen]": 1, "units[A::gen]": -10 },
    lower: 0,
    upper: 0,
  });
  // energy_cap_max no longer bounds a tech with units; nor does the capacity-based dispatch.
  assert.ok(!hasRow(lp, "energy_capacity[A::gen]"));
  assert.ok(!hasRow(lp, "carrier_production_max[A::gen"));
  assert.ok(!hasRow(lp, "carrier_production_min[A::gen"));
  assert.match(writeLp(lp), /\nGeneral\n units_A__gen_ operating_units_A__gen_/);

  const outcome = solveLp(highs, lp, {});
  assert.equal(outcome.termination, "optimal");
  const x = outcome.colValue;
  assert.equal(Math.round(x[index.units.get("A::gen")!]!), 2);
  const op = index.operatingUnits.get("A::gen")!;
  assert.deepEqual([Math.round(x[op]!), Math.round(x[op + 1]!)], [2, 1]);
  // Purchase cost per unit, annualised over the modelled 2 h of a year.
  assert.ok(Math.abs(outcome.objective! - 2 * 100 * 2 / 8760) < 1e-9);
});

Deno.test("purchase: a binary bounds energy_cap and carries the purchase cost", () => {
  const boiler = milpTech(
    {
      location: "A",
      tech: "boiler",
      type: "supply",
      constraints: { energy_cap_max: 50, energy_cap_min: 5 },
      costs: { monetary: { energy_cap: 1 } },
    },
    { purchase: true, purchaseCost: { monetary: 1000 } },
  );
  const { lp, index } = buildLp(model([boiler, demand([-3, -3])]));
  assert.deepEqual(integerCols(lp), ["purchased[A::boiler]"]);
  assert.equal(lp.colUpper[index.purchased.get("A::boiler")!], 1);
  assert.deepEqual(row(lp, "energy_capacity_max_purchase_milp[A::boiler]"), {
    terms: { "energy_cap[A::boiler]": 1, "purchased[A::boiler]": -50 },
    lower: -Infinity,
    upper: 0,
  });
  assert.deepEqual(row(lp, "energy_capacity_min_purchase_milp[A::boiler]").terms, {
    "energy_cap[A::boiler]": 1,
    "purchased[A::boiler]": -5,
  });
  assert.ok(!hasRow(lp, "energy_capacity[A::boiler]"));
  const outcome = solveLp(highs, lp, {});
  assert.equal(outcome.termination, "optimal");
  const W = 2 / 8760;
  // Bought (1000·W) with its minimum capacity of 5 (5·W).
  assert.ok(Math.abs(outcome.objective! - (1000 + 5) * W) < 1e-9, String(outcome.objective));
});

Deno.test("units_max_systemwide: units and purchases of a tech summed over locations", () => {
  const spec = (location: string): LocTechSpec => ({ location, tech: "gen", type: "supply" });
  const milp = { units: { min: 0, max: Infinity }, energyCapPerUnit: 10, unitsMaxSystemwide: 1 };
  const { lp } = buildLp(model([milpTech(spec("A"), milp), milpTech(spec("B"), milp)]));
  assert.deepEqual(row(lp, "unit_capacity_systemwide_milp[gen]"), {
    terms: { "units[A::gen]": 1, "units[B::gen]": 1 },
    lower: -Infinity,
    upper: 1,
  });
  assert.ok(!hasRow(lp, "unit_capacity_milp["));
});

Deno.test("force_asynchronous_prod_con: a binary switch per timestep with bigM rows", () => {
  const store = milpTech(
    { location: "A", tech: "battery", type: "storage", constraints: { storage_cap_max: 10 } },
    { asynchronous: true },
  );
  const { lp } = buildLp(model([store], { bigM: 1000 }));
  assert.deepEqual(integerCols(lp), [
    `prod_con_switch[A::battery,${T0}]`,
    `prod_con_switch[A::battery,${T1}]`,
  ]);
  assert.deepEqual(row(lp, `asynchronous_prod_milp[A::battery,${T0}]`), {
    terms: {
      [`carrier_prod[A::battery::power,${T0}]`]: 1,
      [`prod_con_switch[A::battery,${T0}]`]: -1000,
    },
    lower: -Infinity,
    upper: 0,
  });
  assert.deepEqual(row(lp, `asynchronous_con_milp[A::battery,${T0}]`), {
    terms: {
      [`carrier_con[A::battery::power,${T0}]`]: -1,
      [`prod_con_switch[A::battery,${T0}]`]: 1000,
    },
    lower: -Infinity,
    upper: 1000,
  });
  // The capacity-based dispatch rows stay (no units).
  assert.ok(hasRow(lp, "carrier_production_max[A::battery"));
});

Deno.test("an LP without MILP keys has no integrality", () => {
  const gen = locTech({ location: "A", tech: "gen", type: "supply" });
  const { lp } = buildLp(model([gen, demand([-1, -1])]));
  assert.equal(lp.integrality, undefined);
  assert.doesNotMatch(writeLp(lp), /General/);
});
