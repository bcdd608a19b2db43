import { strict as assert } from "node:assert";
import { modelStatusText, terminationOf } from "../../lib/solver/termination.ts";

Deno.test("terminationOf() maps HiGHS model statuses", async (t) => {
  const cases: [number, string, string][] = [
    [7, "optimal", "Optimal"],
    [8, "infeasible", "Infeasible"],
    [9, "infeasible_or_unbounded", "Primal infeasible or unbounded"],
    [10, "unbounded", "Unbounded"],
    [13, "time_limit", "Time limit reached"],
    [14, "iteration_limit", "Iteration limit reached"],
    [17, "interrupted", "Interrupted by user"],
    [4, "error", "Solve error"],
    [15, "error", "Unknown"],
  ];
  for (const [code, termination, text] of cases) {
    await t.step(`${code} -> ${termination}`, () => {
      assert.equal(terminationOf(code), termination);
      assert.equal(modelStatusText(code), text);
    });
  }
});
