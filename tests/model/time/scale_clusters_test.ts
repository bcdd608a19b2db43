import assert from "node:assert/strict";
import { aggregate, scaleClusters } from "../../../lib/model/time/scale_clusters.ts";

const series = (values: number[]) => ({ variable: "resource", locTech: "a::pv", values });

Deno.test("aggregate() skips NaN, and is NaN when every value is", () => {
  assert.equal(aggregate([1, Number.NaN, 3], "mean"), 2);
  assert.equal(aggregate([1, Number.NaN, 3], "sum"), 4);
  assert.equal(aggregate([1, -2, 3], "min"), -2);
  assert.ok(Number.isNaN(aggregate([Number.NaN], "max")));
});

Deno.test("scaleClusters() matches the plain (unweighted) mean over the timesteps", () => {
  const scaled = scaleClusters([series([1, 2, 3, 6])], [series([2, 4])], "mean");
  assert.ok(scaled.ok);
  assert.deepEqual(scaled.variables[0]!.values, [2, 4]);
  const sum = scaleClusters([series([1, 2, 3, 6])], [series([2, 4])], "sum");
  assert.ok(sum.ok);
  assert.deepEqual(sum.variables[0]!.values, [4, 8]);
});

Deno.test("scaleClusters() zeroes a series whose aggregate is 0 before and after, as Calliope", () => {
  const scaled = scaleClusters([series([0, 2, 0])], [series([0, 3])], "min");
  assert.ok(scaled.ok);
  assert.deepEqual(scaled.variables[0]!.values, [0, 0]);
  assert.match(scaled.warnings[0]!, /min of resource of a::pv is 0 before and after/);
});

Deno.test("scaleClusters() refuses an aggregate that clustering made 0", () => {
  const scaled = scaleClusters([series([0, 2, 4])], [series([0, 0])], "max");
  assert.ok(!scaled.ok);
  assert.match(scaled.message, /resource of a::pv \(max 4 before, 0 after\)/);
});
