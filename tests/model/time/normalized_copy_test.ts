import assert from "node:assert/strict";
import { dayMatrix } from "../../../lib/model/time/day_matrix.ts";
import { normalizedCopy, techOf } from "../../../lib/model/time/normalized_copy.ts";

Deno.test("normalizedCopy() divides |x| by the max |x| of the variable over its tech's loc::techs", () => {
  const out = normalizedCopy([
    { variable: "resource", locTech: "r1::demand", values: [-2, -4, 99] },
    { variable: "resource", locTech: "r2::demand", values: [-8, 0, 99] },
    { variable: "resource", locTech: "r1::pv", values: [1, 2, 99] },
    { variable: "cost_om_con", locTech: "r1::pv", costClass: "monetary", values: [0, 0, 99] },
  ], [0, 1]); // the last timestep (99) is not clustered, so not in the maximum
  assert.deepEqual(out.map((v) => v.values.slice(0, 2)), [
    [0.25, 0.5],
    [1, 0],
    [0.5, 1],
    [Number.NaN, Number.NaN], // 0 / 0, read as 0 by the day matrix
  ]);
  assert.deepEqual(dayMatrix(out, [[0, 1]]), [[0.25, 0.5, 1, 0, 0.5, 1, 0, 0]]);
});

Deno.test("techOf() is the part after `::`, as Calliope splits loc::techs", () => {
  assert.equal(techOf("region1::ccgt"), "ccgt");
  assert.equal(techOf("region1::ac_transmission:region2"), "ac_transmission:region2");
});
