import assert from "node:assert/strict";
import { LpBuilder } from "../../lib/lp/lp_builder.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";
import { columnWise, rowWise } from "../../lib/lp/sparse_matrix.ts";

Deno.test("LpBuilder.build() gives rows as added, repeated terms of a row summed, zeros dropped", () => {
  const b = new LpBuilder();
  const x = b.addColumn("x", 0, Infinity, 1);
  const y = b.addColumn("y", -Infinity, 0);
  b.addRow("r0", 1, 1, [x, y, x], [1, 2, 3]);
  b.addRow("r1", -Infinity, 5, [y, x], [0, -1]);
  b.addCost(y, 2);
  const lp = b.build(7);
  assert.equal(lp.numCols, 2);
  assert.equal(lp.numRows, 2);
  assert.equal(lp.matrix.format, "csr");
  assert.deepEqual([...lp.matrix.starts], [0, 2, 3]);
  assert.deepEqual([...lp.matrix.indices], [x, y, x]);
  assert.deepEqual([...lp.matrix.values], [4, 2, -1]);
  // By columns: x in rows 0 and 1, y in row 0.
  const csc = columnWise(lp.matrix);
  assert.deepEqual([...csc.starts], [0, 2, 3]);
  assert.deepEqual([...csc.indices], [0, 1, 0]);
  assert.deepEqual([...csc.values], [4, -1, 2]);
  assert.deepEqual(rowWise(csc), { ...lp.matrix, format: "csr" });
  assert.deepEqual([...lp.colCost], [1, 2]);
  assert.equal(lp.offset, 7);
  assert.deepEqual(nameArray(lp.rowNames), ["r0", "r1"]);
  assert.deepEqual(nameArray(lp.colNames), ["x", "y"]);
});

Deno.test("LpBuilder keeps every row's terms across array growth", () => {
  const b = new LpBuilder();
  const n = 5000;
  for (let j = 0; j < n; j++) b.addColumn(`x${j}`, 0, 1);
  for (let i = 0; i < n; i++) b.addRow(`r${i}`, 0, 1, [i, (i + 1) % n], [1, 1]);
  const lp = b.build();
  const perCol = new Int32Array(n);
  for (const j of lp.matrix.indices) perCol[j]!++;
  assert.ok(perCol.every((v) => v === 2));
  for (let i = 0; i < n; i++) {
    assert.deepEqual(
      [...lp.matrix.indices.subarray(lp.matrix.starts[i], lp.matrix.starts[i + 1])],
      [
        i,
        (i + 1) % n,
      ],
    );
  }
  assert.equal(lp.matrix.indices.length, 2 * n);
});

Deno.test("LpBuilder.build() hands over its arrays, of their lengths, and takes nothing after", async () => {
  const b = new LpBuilder();
  for (let j = 0; j < 3000; j++) b.addColumn(`x${j}`, 0, j, j);
  for (let i = 0; i < 3000; i++) b.addRow(`r${i}`, -i, i, [i, (i + 7) % 3000, i], [1, -2, 1]);
  const lp = b.build();
  for (const a of [lp.colCost, lp.colLower, lp.colUpper, lp.rowLower, lp.rowUpper]) {
    assert.equal(a.length, 3000);
  }
  assert.equal(lp.colCost.length, 3000);
  assert.equal(lp.colUpper[2999], 2999);
  assert.equal(lp.rowLower[2999], -2999);
  assert.equal(lp.matrix.values.length, 6000);
  assert.equal(lp.matrix.starts.length, 3001);
  assert.equal(lp.matrix.values[0], 2);
  const copy = await new Promise<typeof lp.matrix.values>((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = (event) => {
      port1.close();
      port2.close();
      resolve(event.data);
    };
    port1.postMessage(lp.matrix.values);
  });
  assert.deepEqual(copy, lp.matrix.values);
  const spent = /LpBuilder: the LP is built; start a new builder/;
  assert.throws(() => b.addColumn("late", 0, 1), spent);
  assert.throws(() => b.beginRow("late", 0, 1), spent);
  assert.throws(() => b.term(0, 1), spent);
  assert.throws(() => b.addCost(0, 1), spent);
  assert.throws(() => b.setBounds(0, 0, 1), spent);
  assert.throws(() => b.build(), spent);
  assert.equal(lp.colCost.length, 3000);
});

Deno.test("LpBuilder: a time-indexed name and a non-finite coefficient's error name the entries", () => {
  const b = new LpBuilder(["2005-01-01T00:00:00", "2005-01-01T01:00:00"]);
  const x = b.addColumn(b.stepName("carrier_prod", "r1::pv::power", 1), 0, Infinity);
  b.beginRow(b.stepName("system_balance", "r1::power", 1), 0, 0);
  assert.throws(
    () => b.term(x, NaN),
    /LP coefficient of carrier_prod\[r1::pv::power,2005-01-01T01:00:00\] in system_balance\[r1::power,2005-01-01T01:00:00\] is NaN/,
  );
});
