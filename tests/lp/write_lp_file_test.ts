import assert from "node:assert/strict";
import { fileRowIndex, LpNames, writeLp, writeLpFile } from "../../lib/lp/write_lp.ts";
import { denseLp } from "../solver/_small_lps.ts";

const lp = denseLp({
  cost: [1, -2.5],
  offset: 4,
  rows: [
    { name: "demand[a]", coefs: [1, 1], lower: 4, upper: Infinity },
    { name: "spread", coefs: [1, -1], lower: -1, upper: 1 },
    { name: "free", coefs: [1, 0], lower: -Infinity, upper: Infinity },
  ],
});

Deno.test("writeLpFile() streams the same text as writeLp() and returns the file's layout", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const layout = await writeLpFile(lp, `${dir}/m.lp`);
    assert.equal(await Deno.readTextFile(`${dir}/m.lp`), writeLp(lp));
    // The free row is left out, the ranged one written twice.
    assert.deepEqual([...layout.fileRows], [0, 1, 1]);
    assert.equal(fileRowIndex(layout, lp, "demand_a_"), 0);
    assert.equal(fileRowIndex(layout, lp, "spread_hi"), 1);
    assert.equal(fileRowIndex(layout, lp, "demand_a__lo"), -1);
    assert.equal(layout.colNames.indexOf("x1"), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeLp() with indexedNames and without the constant, for solvers", () => {
  const text = writeLp(lp, {
    indexedNames: true,
    objectiveConstant: false,
    allColumnsInObjective: true,
  });
  assert.match(text, /^ obj: \+ x0 - 2\.5 x1$/m);
  assert.match(text, /^ c0: \+ x0 \+ x1 >= 4$/m);
  assert.match(text, /^ c1_lo: \+ x0 - x1 >= -1$/m);
  assert.match(text, /^ c1_hi: \+ x0 - x1 <= 1$/m);
  assert.doesNotMatch(text, /c2/);
  assert.match(writeLp(lp), /^ obj: \+ x0 - 2\.5 x1 \+ 4$/m);
});

Deno.test("LpNames finds identifiers back and keeps them unique and short", () => {
  const long = "y".repeat(300);
  const names = new LpNames(["a-b", "a_b", "1x", "e1", long, long + "z", "é"], "x");
  assert.deepEqual(
    Array.from({ length: names.length }, (_, i) => names.name(i)).slice(0, 4),
    ["a_b", "a_b_2", "x_1x", "x_e1"],
  );
  assert.ok(names.name(4).length <= 200 && names.name(4) !== names.name(5));
  assert.match(names.name(6), /^x_[_]+$/);
  assert.equal(names.indexOf("a_b_2"), 1);
  assert.equal(names.indexOf("nothing"), -1);
});
