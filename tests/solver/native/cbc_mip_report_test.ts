import assert from "node:assert/strict";
import { cbcMipReport } from "../../../lib/solver/native/cbc_mip_report.ts";

Deno.test("cbcMipReport() reads the gap and bound of cbc's log", async (t) => {
  await t.step("stopped early: its Gap and Lower bound, the offset added", () => {
    const log = [
      "Result - Stopped on time limit",
      "",
      "Objective value:                545.00000000",
      "Lower bound:                    530.000",
      "Gap:                            0.03",
    ];
    assert.deepEqual(cbcMipReport(log, 10), { mipGap: 0.03, mipDualBound: 540 });
  });
  await t.step("proved optimal: gap 0, the objective as the bound", () => {
    const log = ["Result - Optimal solution found", "", "Objective value:  13.00000000"];
    assert.deepEqual(cbcMipReport(log, 0), { mipGap: 0, mipDualBound: 13 });
  });
  await t.step("a maximisation keeps its gap only; no report, nothing", () => {
    const log = ["Result - Optimal solution found", "Objective value:  13.00000000"];
    assert.deepEqual(cbcMipReport(log, 0, "maximize"), { mipGap: 0 });
    assert.deepEqual(cbcMipReport(["Result - Linear relaxation infeasible"], 0), {});
  });
});
