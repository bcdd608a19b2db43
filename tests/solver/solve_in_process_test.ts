import { strict as assert } from "node:assert";
import { solveInProcess } from "../../lib/solver/solve_in_process.ts";
import { randomLp } from "./_big_lp.ts";
import { infeasible, twoSupplies } from "./_small_lps.ts";

Deno.test("solveInProcess() solves on this thread", async () => {
  const outcome = await solveInProcess(twoSupplies, { method: "ipm" });
  assert.equal(outcome.termination, "optimal");
  assert.ok(Math.abs(outcome.objective! - 10) < 1e-7);
});

Deno.test("solveInProcess() names conflicts of an infeasible LP", async () => {
  const outcome = await solveInProcess(infeasible);
  assert.equal(outcome.termination, "infeasible");
  assert.deepEqual([...(outcome.conflicts ?? [])].sort(), ["demand", "supply"]);
});

Deno.test("solveInProcess() stops when the signal is aborted from a hook", async () => {
  const controller = new AbortController();
  // The solve blocks the event loop, so only an abort from inside a hook can reach it.
  const outcome = await solveInProcess(randomLp(200, 400, 0.05), { method: "simplex" }, {
    signal: controller.signal,
    onLog: () => controller.abort(),
  });
  assert.equal(outcome.termination, "interrupted");
  const before = await solveInProcess(twoSupplies, {}, { signal: AbortSignal.abort() });
  assert.equal(before.termination, "interrupted");
});
