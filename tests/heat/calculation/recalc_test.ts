import assert from "node:assert/strict";
import { recalculate, summarize } from "../../../lib/heat/calculation/recalc.ts";
import { calculate } from "../../../lib/heat/calculation/calculate.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();

Deno.test("recalculate() compares archetypes with their reference", () => {
  const code = "DE.N.AB.02.Gen.ReEx.001.001";
  const [result] = recalculate(typology, [{ code }]);
  assert.equal(result!.q_h_nd, calculate(typology.variant(code)!).q_h_nd);
  assert.equal(result!.reference, typology.reference(code)!.q_h_nd);
  assert.ok(Math.abs(result!.deviation!) < 1e-9);
});

Deno.test("recalculate() gives no reference for an altered building or a refurbished level", () => {
  const results = recalculate(typology, [
    { code: "DE.N.AB.02.Gen.ReEx.001.001", overrides: { theta_i: 22 } },
    { code: "DE.N.AB.02.Gen.ReEx.001.002" },
  ]);
  assert.deepEqual(results.map((r) => [r.reference, r.deviation]), [[null, null], [null, null]]);
});

Deno.test("recalculate() names the item of an unknown code", () => {
  assert.throws(
    () => recalculate(typology, [{ code: "DE.X", label: "stock.csv:4" }]),
    { name: "RangeError", message: 'stock.csv:4: unknown variant code "DE.X"' },
  );
});

Deno.test("recalculate() reports progress and summarize() counts and ranks", () => {
  const seen: number[] = [];
  const codes = typology.variantCodes("AT").map((code) => ({ code }));
  const results = recalculate(typology, codes, (done) => seen.push(done));
  assert.equal(seen.length, codes.length);
  assert.equal(seen.at(-1), codes.length);
  const summary = summarize(results);
  assert.equal(summary.count, codes.length);
  assert.ok(summary.withReference > 0);
  assert.equal(summary.worst.length, 5);
  const worst = summary.worst.map((r) => Math.abs(r.deviation!));
  assert.deepEqual(worst, [...worst].sort((a, b) => b - a));
  assert.equal(summary.worst[0]!.code.startsWith("AT.MT."), true);
});
