import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { writeLp } from "../../lib/lp/write_lp.ts";
import type { ResolvedModel } from "../../lib/model/preprocess/resolved_model.ts";
import { loadHighsOnce } from "../../lib/solver/highs_loader.ts";
import { solveLp } from "../../lib/solver/solve_lp.ts";
import { locTech, model } from "./_model.ts";
import { solveLpText } from "./_solve.ts";

const highs = await loadHighsOnce();

/** A plant of at most 10 with a capital cost, serving a fixed demand peaking at 3. */
const plant = (over: Partial<ResolvedModel> = {}) =>
  model([
    locTech({
      location: "r1",
      tech: "gen",
      type: "supply",
      constraints: { energy_cap_max: 10 },
      costs: { monetary: { energy_cap: 100, om_prod: 1, depreciation: 0.1 } },
    }),
    locTech({
      location: "r1",
      tech: "demand_power",
      type: "demand",
      constraints: { resource: [-3, -1] },
    }),
  ], over);

const energyCap = (m: ResolvedModel) => {
  const { lp, index } = buildLp(m);
  const out = solveLp(highs, lp, {});
  assert.equal(out.termination, "optimal");
  return { cap: out.colValue[index.energyCap.get("r1::gen")!]!, out, lp };
};

Deno.test("buildLp() with objectiveSense maximize: HiGHS maximises, the LP file says so", () => {
  const min = energyCap(plant());
  const max = energyCap(plant({ objectiveSense: "maximize" }));
  assert.equal(min.lp.sense, undefined);
  assert.equal(max.lp.sense, "maximize");
  assert.ok(Math.abs(min.cap - 3) < 1e-9, `minimised cap ${min.cap}`);
  assert.ok(Math.abs(max.cap - 10) < 1e-9, `maximised cap ${max.cap}`);
  const text = writeLp(max.lp);
  assert.match(text, /^Maximize$/m);
  const reread = solveLpText(text);
  assert.equal(reread.status, 7);
  assert.ok(Math.abs(reread.objective - max.out.objective!) < 1e-9 * max.out.objective!);
});

Deno.test("buildLp() maximising subtracts the bigM penalty (objective.py), minimising adds it", () => {
  for (const [sense, sign] of [["minimize", 1], ["maximize", -1]] as const) {
    const { lp, index } = buildLp(
      plant({ objectiveSense: sense, ensureFeasibility: true, bigM: 1000 }),
    );
    const unmet = index.unmetDemand.get("r1::power")!;
    const unused = index.unusedSupply.get("r1::power")!;
    assert.equal(lp.colCost[unmet], sign * 1000);
    assert.equal(lp.colCost[unused], -sign * 1000);
  }
});

Deno.test("buildLp() for check_feasibility: no costs, the constant 1, minimised", () => {
  const m = plant({
    objective: "feasibility",
    objectiveSense: "maximize",
    ensureFeasibility: true,
  });
  const { lp, out } = energyCap(m);
  assert.equal(lp.sense, undefined);
  assert.ok(lp.colCost.every((c) => c === 0));
  assert.equal(lp.offset, 1);
  assert.equal(out.objective, 1);
  const text = writeLp(lp);
  assert.match(text, /^ obj: 0 \S+ \+ 1$/m);
  assert.equal(solveLpText(text).objective, 1);
});
