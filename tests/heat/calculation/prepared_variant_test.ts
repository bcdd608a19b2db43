import assert from "node:assert/strict";
import { prepareVariant, referenceArea } from "../../../lib/heat/calculation/prepared_variant.ts";
import { calculate } from "../../../lib/heat/calculation/calculate.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();
const row = typology.variant("DE.N.SFH.05.Gen.ReEx.001.002")!;

Deno.test("prepareVariant() keeps the preparation of a frozen typology row", () => {
  assert.ok(Object.isFrozen(row));
  assert.equal(prepareVariant(row), prepareVariant(row));
});

Deno.test("prepareVariant() reads a row that may still change anew", () => {
  const copy = { ...row };
  const first = prepareVariant(copy);
  copy.theta_i = 22;
  assert.notEqual(prepareVariant(copy), first);
  assert.equal(prepareVariant(copy).inputs.theta_i, 22);
});

Deno.test("prepareVariant() reads what the calculation needs from the row", () => {
  const p = prepareVariant(row);
  assert.equal(p.code, "DE.N.SFH.05.Gen.ReEx.001.002");
  assert.equal(p.aRef, referenceArea(row));
  assert.equal(p.inputs.theta_i, row.theta_i);
  assert.equal(p.inputs.I_Sol.Horizontal, row.I_Sol_Hor);
  assert.equal(p.slots.length, 10);
  assert.equal(p.slots[2]!.area, row.A_Wall_1);
  assert.equal(p.orientationAreas.South, row.A_Window_South);
});

Deno.test("calculate() gives the same result from a frozen row and from a plain copy", () => {
  for (const variant of typology.allVariants().slice(0, 200)) {
    assert.deepEqual(calculate({ ...variant }), calculate(variant));
  }
});

Deno.test("calculate() on a row lacking a column names the variant and column", () => {
  const { U_Roof_1: _dropped, ...rest } = row;
  assert.throws(() => calculate(rest), {
    name: "TypeError",
    message: /DE\.N\.SFH\.05\.Gen\.ReEx\.001\.002: column U_Roof_1 is not a number/,
  });
});

Deno.test("calculate() keeps the archetype result of a frozen row, frozen", () => {
  const first = calculate(row);
  assert.equal(calculate(row), first);
  assert.equal(calculate(row, {}), first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.explain.slots[0]));
  assert.throws(() => {
    (first as { q_h_nd: number }).q_h_nd = 0;
  }, TypeError);
  // Any override computes anew.
  const again = calculate(row, { theta_i: Number(row.theta_i) });
  assert.notEqual(again, first);
  assert.equal(again.q_h_nd, first.q_h_nd);
});
