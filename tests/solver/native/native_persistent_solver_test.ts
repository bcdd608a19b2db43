import assert from "node:assert/strict";
import { createNativePersistentSolver } from "../../../lib/solver/native/native_persistent_solver.ts";
import { twoSupplies } from "../_small_lps.ts";
import { installed, testName } from "./_installed.ts";

Deno.test({
  name: testName("clp", "createNativePersistentSolver(clp) solves each LP whole (mode built)"),
  ignore: installed("clp") === undefined,
  async fn() {
    const solver = createNativePersistentSolver(installed("clp")!);
    for (const offset of [5, 7]) {
      const { outcome, stats } = await solver.solve({ ...twoSupplies, offset }, {}, {}, "s");
      assert.equal(outcome.termination, "optimal");
      assert.equal(outcome.objective, 5 + offset);
      assert.equal(stats.mode, "built");
    }
    solver.dispose();
  },
});
