import assert from "node:assert/strict";
import { toNumber } from "../../../lib/model/preprocess/quantity.ts";

Deno.test("toNumber() reads infinity words and ±1e15 as infinity", () => {
  assert.equal(toNumber("inf"), Infinity);
  assert.equal(toNumber(".inf"), Infinity);
  assert.equal(toNumber("-inf"), -Infinity);
  assert.equal(toNumber("-.inf"), -Infinity);
  assert.equal(toNumber(1e15), Infinity);
  assert.equal(toNumber(-1e15), -Infinity);
  assert.equal(toNumber(2e16), Infinity);
  assert.equal(toNumber(9.99e14), 9.99e14);
  assert.equal(toNumber(0), 0);
  assert.equal(toNumber(-3.5), -3.5);
});

Deno.test("toNumber() returns undefined for what is not a quantity", () => {
  assert.equal(toNumber("file=a.csv:b"), undefined);
  assert.equal(toNumber(NaN), undefined);
  assert.equal(toNumber(undefined), undefined);
  assert.equal(toNumber(true), undefined);
});
