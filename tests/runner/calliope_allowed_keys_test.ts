/**
 * Keys Calliope 0.6.10 accepts beyond `defaults.yaml`'s per-type lists, through the importer and
 * the runner's real pipeline: `test_constraint_results.py` `test_systemwide_equals` (v0.6.10),
 * with its numbers, and the refusals that stay.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;

const runner = await createHighsModelRunner();

/** Σ of `energy_cap` over the loc::techs whose tech (after `::`) is `tech`. */
function techCap(energyCap: Record<string, number>, tech: string): number {
  return Object.entries(energyCap)
    .filter(([id]) => id.split("::")[1] === tech)
    .reduce((sum, [, v]) => sum + v, 0);
}

Deno.test("test_systemwide_equals: ccgt's systemwide max and ac_transmission's equals bind", async () => {
  // calliope.examples.national_scale(override_dict=...): the example with its own subset_time.
  const config = await importCalliopeModel(NATIONAL, {
    overrides: {
      "techs.ccgt.constraints.energy_cap_max_systemwide": 10000,
      "techs.ac_transmission.constraints.energy_cap_equals_systemwide": 6000,
    },
  });
  const result = await solveOptimal(runner, config);
  const energyCap = result["energy_cap"] as Record<string, number>;
  // Calliope compares with ==, and so do we: HiGHS returns the binding bounds exactly.
  assert.equal(techCap(energyCap, "ccgt"), 10000);
  // `ac_transmission:region1` is the link's end at region2: one link, so 6000 (not 2×6000).
  assert.equal(techCap(energyCap, "ac_transmission:region1"), 6000);
});

Deno.test("energy_cap_max_systemwide on a transmission technology bounds the links' sum", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    overrides: {
      "model.subset_time": "2005-01-01",
      "techs.ac_transmission.constraints.energy_cap_max_systemwide": 1000,
    },
  });
  const energyCap = (await solveOptimal(runner, config))["energy_cap"] as Record<string, number>;
  const ends = Object.entries(energyCap).filter(([id]) => id.includes("::ac_transmission:"));
  // Both ends of the one link are summed against twice the value, as Calliope does; it binds.
  assert.deepEqual(ends.map(([id]) => id).sort(), [
    "region1::ac_transmission:region2",
    "region2::ac_transmission:region1",
  ]);
  for (const [id, cap] of ends) assert.ok(Math.abs(cap - 1000) <= 1e-6, `${id}: ${cap}`);
});

Deno.test("energy_cap_equals_systemwide on a demand technology fixes its Σ energy_cap", async () => {
  // Calliope builds energy_capacity_systemwide for any tech; demand's energy_cap only bounds
  // its consumption, so a value above peak demand just fixes the sum.
  const config = await importCalliopeModel(NATIONAL, {
    overrides: {
      "model.subset_time": "2005-01-01",
      "techs.demand_power.constraints.energy_cap_equals_systemwide": 1e6,
    },
  });
  const energyCap = (await solveOptimal(runner, config))["energy_cap"] as Record<string, number>;
  assert.ok(Math.abs(techCap(energyCap, "demand_power") - 1e6) <= 1e-6 * 1e6);
});

Deno.test("a _systemwide key on one link is refused, not dropped as Calliope drops it", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": "2005-01-01" },
  });
  const links = config.links as unknown as Record<string, unknown>[];
  const at = links.findIndex((l) => l["technology"] === "ac_transmission");
  links[at] = { ...links[at], constraints: { energy_cap_max_systemwide: 1000 } };
  const prepared = runner.prepare(config);
  assert.equal(prepared.ok, false);
  assert.ok(!prepared.ok);
  assert.deepEqual(prepared.problems.map((p) => p.path), [
    `links[${at}].constraints.energy_cap_max_systemwide`,
  ]);
  assert.match(prepared.problems[0]!.message, /technology as a whole/);
});
