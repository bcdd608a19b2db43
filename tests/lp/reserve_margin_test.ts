import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { maxDemandTimestep } from "../../lib/lp/reserve_margin.ts";
import { row } from "./_lp_row.ts";
import { locTech, model } from "./_model.ts";
import { solve } from "./_solve.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";

/** The coefficients of row `name` by column name, and its bounds. */

const demand = (loc: string, values: number[], carrier = "power") =>
  locTech({
    location: loc,
    tech: `demand_${carrier}`,
    type: "demand",
    carrier,
    constraints: { resource: values },
  });

const T1 = "2005-01-01T01:00:00";

Deno.test("reserve margin row: supply-type capacity ≥ peak demand / Δτ × (1 + margin)", () => {
  const m = model([
    locTech({ location: "r1", tech: "ccgt", type: "supply" }),
    locTech({
      location: "r1",
      tech: "chp",
      type: "conversion_plus",
      carriers: { in: ["gas"], out: ["heat"], out_2: ["power"] },
      primary_carrier_out: "heat",
    }),
    locTech({ location: "r1", tech: "battery", type: "storage" }),
    locTech({ location: "r2", tech: "pv", type: "supply_plus" }),
    locTech({
      location: "r2",
      tech: "boiler",
      type: "conversion",
      carriers: { in: ["gas"], out: ["heat"] },
    }),
    locTech({ location: "r1", tech: "gas_supply", type: "supply", carrier: "gas" }),
    demand("r1", [-10, -30, -20]),
    demand("r2", [-5, -1, -5]),
    demand("r1", [-100, -1, -1], "heat"),
  ], { steps: 3, resolution: [1, 2, 1], reserveMargin: { power: 0.1 } });
  // Summed power demand −15, −31, −25: peak at t = 1 (raw resource, not per hour).
  assert.equal(maxDemandTimestep(m, "power"), 1);
  assert.equal(maxDemandTimestep(m, "heat"), 0);
  const { lp } = buildLp(m);
  const r = row(lp, "reserve_margin_constraint[power]");
  assert.equal(r.lower, 0);
  assert.equal(r.upper, Infinity);
  const coef = 1.1 / 2;
  assert.deepEqual(r.terms, {
    "energy_cap[r1::ccgt]": 1,
    "energy_cap[r1::chp]": 1, // conversion_plus producing power on a secondary tier counts
    "energy_cap[r2::pv]": 1,
    [`carrier_con[r1::demand_power::power,${T1}]`]: coef,
    [`carrier_con[r2::demand_power::power,${T1}]`]: coef,
  });
  // No margin on heat or gas: no row.
  assert.equal(nameArray(lp.rowNames).filter((n) => n.startsWith("reserve_margin")).length, 1);
});

Deno.test("reserve margin: a carrier without demand gets the vacuous row Calliope builds", () => {
  const m = model([
    locTech({
      location: "r1",
      tech: "boiler",
      type: "conversion",
      carriers: { in: ["gas"], out: ["heat"] },
    }),
    locTech({ location: "r1", tech: "gas_supply", type: "supply", carrier: "gas" }),
    locTech({ location: "r1", tech: "ccgt", type: "supply" }),
    demand("r1", [-10, -20]),
  ], { reserveMargin: { heat: 0.2 } });
  assert.equal(maxDemandTimestep(m, "heat"), 0);
  const r = row(buildLp(m).lp, "reserve_margin_constraint[heat]");
  assert.deepEqual(r.terms, { "energy_cap[r1::boiler]": 1 });
});

Deno.test("reserve margin: the solved capacity is peak demand × (1 + margin)", () => {
  const build = (reserveMargin?: Record<string, number>) =>
    model([
      locTech({
        location: "r1",
        tech: "ccgt",
        type: "supply",
        costs: { monetary: { energy_cap: 100 } },
      }),
      demand("r1", [-10, -20]),
    ], reserveMargin === undefined ? {} : { reserveMargin });
  const capacity = (reserveMargin?: Record<string, number>) => {
    const { lp, index } = buildLp(build(reserveMargin));
    const s = solve(lp);
    assert.equal(s.termination, "optimal");
    return s.colValue[index.energyCap.get("r1::ccgt")!]!;
  };
  assert.ok(Math.abs(capacity() - 20) < 1e-7);
  assert.ok(Math.abs(capacity({ power: 0.5 }) - 30) < 1e-7);
  assert.ok(Math.abs(capacity({ power: 0 }) - 20) < 1e-7);
});
