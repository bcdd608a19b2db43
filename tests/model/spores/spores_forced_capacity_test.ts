/**
 * Calliope 0.6.10's test_ignore_forced_energy_cap_spores (and its _some_ccgt_score and
 * _no_double_counting cases): only capacity beyond energy_cap_equals (else energy_cap_min) is
 * scored. The example maxes out region1's ccgt (30000) in every spore, so forcing it changes no
 * capacity and no other score, and its spores score is 0 when forced to 30000, > 0 otherwise.
 */
import assert from "node:assert/strict";
import { runSpores, type SporesRunResult } from "../../../lib/model/spores/run_spores.ts";
import { keepLog, nationalSporesModel, SCENARIO_OPTIONS, solveHere } from "./_spores_national.ts";

const CCGT = "region1::ccgt";
const solve = await solveHere();

async function spores(extra: Record<string, unknown> = {}): Promise<SporesRunResult> {
  return await runSpores(
    await nationalSporesModel(extra),
    SCENARIO_OPTIONS,
    solve,
    keepLog().hooks,
  );
}

/** Σ over spores of one loc::tech's spores_score cost. */
function ccgtScore(r: SporesRunResult): number {
  return r.spores.reduce((s, e) => {
    const costs = e["costs"] as Record<string, Record<string, number>>;
    return s + (costs["spores_score"]?.[CCGT] ?? 0);
  }, 0);
}

function round5(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}

function assertSameElsewhere(a: SporesRunResult, b: SporesRunResult): void {
  assert.equal(a.spores.length, b.spores.length);
  for (let k = 0; k < a.spores.length; k++) {
    const capA = a.spores[k]!["energy_cap"] as Record<string, number>;
    const capB = b.spores[k]!["energy_cap"] as Record<string, number>;
    for (const id of Object.keys(capA)) {
      assert.equal(round5(capA[id]!), round5(capB[id]!), `spore ${k} ${id}`);
    }
    const sA = (a.spores[k]!["costs"] as Record<string, Record<string, number>>)["spores_score"]!;
    const sB = (b.spores[k]!["costs"] as Record<string, Record<string, number>>)["spores_score"]!;
    for (const id of Object.keys(sA)) {
      if (id !== CCGT) assert.equal(round5(sA[id]!), round5(sB[id]!), `spore ${k} ${id}`);
    }
  }
}

const without = await spores();

Deno.test("the national spores score region1's ccgt when nothing forces it", () => {
  assert.ok(ccgtScore(without) > 0);
});

for (const key of ["energy_cap_min", "energy_cap_equals"]) {
  Deno.test(`a ccgt forced by ${key} 30000 is not scored`, async () => {
    const r = await spores({ [`locations.region1.techs.ccgt.constraints.${key}`]: 30000 });
    assertSameElsewhere(without, r);
    assert.equal(ccgtScore(r), 0);
  });
}

Deno.test("a ccgt with energy_cap_min 15000 is still scored", async () => {
  const r = await spores({ "locations.region1.techs.ccgt.constraints.energy_cap_min": 15000 });
  assertSameElsewhere(without, r);
  assert.ok(ccgtScore(r) > 0);
});

Deno.test("energy_cap_equals 30000 wins over energy_cap_min 15000: not scored", async () => {
  const r = await spores({
    "locations.region1.techs.ccgt.constraints.energy_cap_min": 15000,
    "locations.region1.techs.ccgt.constraints.energy_cap_equals": 30000,
  });
  assertSameElsewhere(without, r);
  assert.equal(ccgtScore(r), 0);
});
