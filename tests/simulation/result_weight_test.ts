import assert from "node:assert/strict";
import { measureResult, predictedWeight } from "../../lib/simulation/result_weight.ts";
import { resultWeightOf, runToEnd } from "../../lib/simulation/simulation_model.ts";
import { hydrogenModel } from "../../lib/simulation/hydrogen/hydrogen_model.ts";
import { ccsModel } from "../../lib/simulation/ccs/ccs_model.ts";
import type { SimulationModel } from "../../lib/simulation/simulation_model.ts";
import { ccsClientPayload, hydrogenClientPayload } from "../server/simulation/_client_payloads.ts";

/** Arrays of `n` numbers anywhere in a result, each reference counted (as JSON writes it). */
function seriesOf(value: unknown, n: number): number {
  if (Array.isArray(value)) return value.length === n && typeof value[0] === "number" ? 1 : 0;
  if (value === null || typeof value !== "object") return 0;
  return Object.values(value).reduce((sum: number, v) => sum + seriesOf(v, n), 0);
}

Deno.test("each model's resultSeries and steps are what its result carries (the weight the limits use)", () => {
  for (
    const [model, payload] of [
      [hydrogenModel, hydrogenClientPayload(86_400, 300)],
      [ccsModel, ccsClientPayload(86_400, 900)],
    ] as const
  ) {
    const m = model as SimulationModel;
    const result = runToEnd(m, payload);
    const n = (result["time_s"] as number[]).length;
    const checked = m.payloadSchema.parse(payload);
    assert.equal(m.steps(checked), n, m.name);
    assert.equal(seriesOf(result, n), m.resultSeries, m.name);
    const predicted = resultWeightOf(m, checked);
    assert.equal(predicted.values, n * m.resultSeries);
    // Measured: every number as written (the KPI and constants are not arrays).
    const measured = measureResult(result);
    assert.ok(measured.values >= predicted.values, m.name);
    assert.ok(measured.values <= predicted.values + 8, `${measured.values} ${predicted.values}`);
    // Held: the distinct arrays only (flat keys share the nested arrays), at most the bound.
    assert.ok(measured.bytes <= predicted.bytes + 64 * 1024, `${measured.bytes}`);
  }
});

Deno.test("measureResult() counts a shared array once in bytes and twice in values", () => {
  const series = [1, 2, 3, 4];
  const { values, bytes } = measureResult({ a: series, b: { c: series }, note: "x" });
  assert.equal(values, 8);
  assert.ok(bytes >= 4 * 8 && bytes < 2 * 4 * 8 + 400, `${bytes}`);
  assert.deepEqual(predictedWeight(10, 3), { steps: 10, series: 3, values: 30, bytes: 240 });
});
