import assert from "node:assert/strict";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { sanitizeNames, writeLp } from "../../lib/lp/write_lp.ts";
import { link, locTech, model } from "./_model.ts";
import { solve, solveLpText } from "./_solve.ts";

Deno.test("writeLp() text re-read by HiGHS gives the same objective", () => {
  const m = model([
    locTech({ location: "a", tech: "gen", type: "supply", costs: { monetary: { om_prod: 1 } } }),
    locTech({
      location: "b",
      tech: "battery",
      type: "storage",
      constraints: { energy_eff: 0.9, energy_cap_max: 5, storage_cap_min: 1 },
      costs: { monetary: { storage_cap: 3, energy_cap: 2 } },
    }),
    ...link("a", "b", "tx", {
      constraints: { energy_eff: 0.95 },
      costs: { monetary: { energy_cap: 10 } },
    }),
    locTech({
      location: "b",
      tech: "demand_power",
      type: "demand",
      constraints: { resource: [-3, -1, -6] },
    }),
  ], { steps: 3, ensureFeasibility: true, bigM: 1e6 });
  const { lp } = buildLp(m);
  const direct = solve(lp);
  const text = writeLp(lp);
  assert.match(text, /^ system_balance_b__power_2005_01_01T00_00_00_: /m);
  const reread = solveLpText(text);
  assert.equal(reread.status, 7);
  assert.ok(Math.abs(reread.objective - direct.objective!) < 1e-6 * Math.abs(direct.objective!));
});

Deno.test("sanitizeNames() makes valid, unique identifiers", () => {
  assert.deepEqual(sanitizeNames(["a-b", "a_b", "1x", "e1"], "x"), [
    "a_b",
    "a_b_2",
    "x_1x",
    "x_e1",
  ]);
});
