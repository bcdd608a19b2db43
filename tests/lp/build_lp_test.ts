import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { link, locTech, model } from "./_model.ts";
import { solve } from "./_solve.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";

function close(actual: number | null | undefined, expected: number, tol = 1e-7) {
  assert.ok(actual !== null && actual !== undefined, "no value");
  assert.ok(
    Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)),
    `${actual} != ${expected}`,
  );
}

const demand = (loc: string, values: number[], carrier = "power") =>
  locTech({
    location: loc,
    tech: `demand_${carrier}`,
    type: "demand",
    carrier,
    constraints: { resource: values },
  });

Deno.test("buildLp() supply and demand: capex × depreciation × W, om_con on output/eff", () => {
  const m = model([
    locTech({
      location: "r1",
      tech: "ccgt",
      type: "supply",
      constraints: { energy_eff: 0.5 },
      costs: { monetary: { energy_cap: 750, om_con: 0.02, depreciation: 0.1 } },
    }),
    demand("r1", [-10, -20]),
  ]);
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  assert.equal(s.termination, "optimal");
  const W = 2 / 8760;
  close(s.objective, 750 * 0.1 * W * 20 + 0.02 * (30 / 0.5));
  close(s.colValue[index.energyCap.get("r1::ccgt")!], 20);
  const names = new Set(lp.rowNames);
  assert.ok(names.has("system_balance[r1::power,2005-01-01T00:00:00]"));
  assert.ok(nameArray(lp.colNames).includes("carrier_prod[r1::ccgt::power,2005-01-01T01:00:00]"));
});

const supply = (loc: string, tech: string, omProd: number | number[], over = {}) =>
  locTech({
    location: loc,
    tech,
    type: "supply",
    costs: { monetary: { om_prod: omProd } },
    ...over,
  });

Deno.test("buildLp() storage: eff² round trip, ÷eff on discharge, cyclic vs not, loss", async (t) => {
  const battery = (over = {}) =>
    locTech({
      location: "r1",
      tech: "battery",
      type: "storage",
      constraints: { energy_eff: 0.9, ...over },
    });
  await t.step("cyclic: charges in the cheap last step for the first", () => {
    const m = model([supply("r1", "grid", [10, 1]), battery(), demand("r1", [-10, -10])]);
    const { lp, index } = buildLp(m);
    const s = solve(lp);
    close(s.objective, 10 + 10 / 0.81);
    close(s.colValue[index.storage.get("r1::battery")! + 1], 10 / 0.9);
  });
  await t.step("non-cyclic with storage_initial 0 cannot", () => {
    const m = model([supply("r1", "grid", [10, 1]), battery(), demand("r1", [-10, -10])], {
      cyclicStorage: false,
    });
    close(solve(buildLp(m).lp).objective, 110);
  });
  await t.step("storage_loss decays per hour", () => {
    const m = model([
      supply("r1", "grid", [10, 1]),
      battery({ storage_loss: 0.1 }),
      demand("r1", [-10, -10]),
    ]);
    close(solve(buildLp(m).lp).objective, 10 + 10 / 0.9 / 0.9 / 0.9);
  });
});

Deno.test("buildLp() transmission: loss once, ends equal, capex halved, om_prod on receiving end", () => {
  const m = model([
    supply("a", "gen", 1),
    ...link("a", "b", "tx", {
      constraints: { energy_eff: 0.9 },
      costs: { monetary: { energy_cap: 100, om_prod: 0.5 } },
    }),
    demand("b", [-10, -10]),
  ]);
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  const W = 2 / 8760;
  const cap = 10 / 0.9;
  close(s.objective, 2 * cap + 0.5 * 20 + 100 * W * cap);
  close(s.colValue[index.energyCap.get("a::tx:b")!], cap);
  close(s.colValue[index.energyCap.get("b::tx:a")!], cap);
  const cost = index.costs.get("monetary")!;
  const at = (id: string) => {
    const e = cost.get(id)!;
    let v = 0;
    for (const terms of [e.investment, e.variable]) {
      terms.cols.forEach((c, k) => v += terms.vals[k]! * s.colValue[c]!);
    }
    return v;
  };
  close(at("a::tx:b"), 100 * W * cap / 2);
  close(at("b::tx:a"), 100 * W * cap / 2 + 10);
});

Deno.test("buildLp() conversion: om_con on the input", () => {
  const m = model([
    supply("r1", "gas_supply", 0.1, { carrier: "gas" }),
    locTech({
      location: "r1",
      tech: "boiler",
      type: "conversion",
      carriers: { in: ["gas"], out: ["heat"] },
      constraints: { energy_eff: 0.8 },
      costs: { monetary: { om_con: 0.05 } },
    }),
    demand("r1", [-8, -8], "heat"),
  ]);
  close(solve(buildLp(m).lp).objective, 0.1 * 20 + 0.05 * 20);
});

Deno.test("buildLp() conversion_plus: out_2 ratio to primary output, capacity on primary tier", () => {
  const m = model([
    locTech({
      location: "r1",
      tech: "gas_supply",
      type: "supply",
      carrier: "gas",
    }),
    locTech({
      location: "r1",
      tech: "chp",
      type: "conversion_plus",
      carriers: { in: ["gas"], out: ["power"], out_2: ["heat"] },
      primary_carrier_out: "power",
      constraints: { energy_eff: 0.4, carrier_ratios: { out_2: { heat: 0.8 } } },
      costs: { monetary: { energy_cap: 1, om_prod: 0.01, om_con: 0.02 } },
    }),
    demand("r1", [-10, -10]),
    demand("r1", [-8, -8], "heat"),
  ]);
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  assert.equal(s.termination, "optimal");
  const W = 2 / 8760;
  close(s.colValue[index.energyCap.get("r1::chp")!], 10);
  close(s.objective, W * 10 + 0.01 * 20 + 0.02 * 50);
  close(s.colValue[index.carrierCon.get("r1::chp::gas")!], -25);
});

Deno.test("buildLp() export: subtracted in the balance, negative cost is revenue, export_cap", () => {
  const m = model([
    locTech({
      location: "r1",
      tech: "pv",
      type: "supply",
      constraints: { resource: [5, 5], export_carrier: "power", export_cap: 3 },
      costs: { monetary: { om_prod: 0.01, export: -0.1 } },
    }),
    demand("r1", [-1, -1]),
  ]);
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  close(s.objective, 2 * (0.01 * 4 - 0.1 * 3));
  close(s.colValue[index.carrierExport.get("r1::pv::power")!], 3);
});

Deno.test("buildLp() supply_plus: parasitic_eff in the cap and balance, resource_cap", () => {
  const m = model([
    locTech({
      location: "r1",
      tech: "csp",
      type: "supply_plus",
      constraints: { resource: [10, 10], energy_eff: 0.5, parasitic_eff: 0.9 },
      costs: { monetary: { resource_cap: 1, energy_cap: 3 } },
    }),
    demand("r1", [-2, -2]),
  ]);
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  const W = 2 / 8760;
  close(s.colValue[index.resourceCap.get("r1::csp")!], 2 / 0.45);
  close(s.colValue[index.energyCap.get("r1::csp")!], 2 / 0.9);
  close(s.objective, W * (2 / 0.45) + 3 * W * (2 / 0.9));
});

Deno.test("buildLp() energy_per_area with available_area", () => {
  const m = model([
    locTech({
      location: "r1",
      tech: "pv",
      type: "supply",
      constraints: { resource: [0.2, 0.1], resource_unit: "energy_per_area" },
      costs: { monetary: { resource_area: 1 } },
    }),
    supply("r1", "backup", 100),
    demand("r1", [-2, -4]),
  ], { locations: [{ id: "r1", name: "r1", available_area: 30 }] });
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  close(s.colValue[index.resourceArea.get("r1::pv")!], 30);
  close(s.objective, (2 / 8760) * 30 + 100);
});

Deno.test("buildLp() energy_cap_max_systemwide counts both link ends against 2×", () => {
  const m = model([
    supply("a", "cheap", 1),
    supply("b", "dear", 10),
    ...link("a", "b", "tx", { constraints: { energy_cap_max_systemwide: 4 } }),
    demand("b", [-10, -10]),
  ]);
  const { lp, index } = buildLp(m);
  const s = solve(lp);
  close(s.objective, 2 * (4 + 60));
  close(s.colValue[index.energyCap.get("a::tx:b")!], 4);
});
