import assert from "node:assert/strict";
import { summarizeResult, SUMMARY_MEMBER_MAX_BYTES } from "../../lib/runner/result_summary.ts";

Deno.test("summarizeResult() drops the time series and oversized members, keeps the rest", () => {
  const summary = summarizeResult({
    success: true,
    termination: "optimal",
    termination_condition: "optimal",
    objective: 3,
    capacities: { "r1::pv": 10 },
    dispatch: { pv: [1, 2] },
    transmission_flow: {},
    timestamps: ["2005-01-01T00:00:00"],
    demand_timeseries: [1],
    carrier_prod: { columns: [], values: [] },
    huge_table: new Array(SUMMARY_MEMBER_MAX_BYTES).fill(1),
  });
  assert.deepEqual(summary, {
    success: true,
    termination: "optimal",
    termination_condition: "optimal",
    objective: 3,
    capacities: { "r1::pv": 10 },
  });
});
