import { strict as assert } from "node:assert";
import { loadHighsOnce } from "../../lib/solver/highs_loader.ts";
import { solveLp } from "../../lib/solver/solve_lp.ts";
import { solveInWorker } from "../../lib/solver/solve_in_worker.ts";
import { knapsack, twoIntegers } from "./_small_mips.ts";

const highs = await loadHighsOnce();

Deno.test("solveLp() solves integer columns as a MIP and reports its gap and bound", () => {
  const lines: string[] = [];
  const outcome = solveLp(highs, twoIntegers, {}, { onLog: (line) => lines.push(line) });
  assert.equal(outcome.termination, "optimal");
  assert.ok(Math.abs(outcome.objective! - -1) < 1e-9);
  assert.equal(Math.round(outcome.colValue[0]! + outcome.colValue[1]!), 1);
  for (const v of outcome.colValue) assert.ok(Math.abs(v - Math.round(v)) < 1e-9);
  // A MIP has no duals.
  assert.equal(outcome.rowDual.length, 0);
  assert.equal(outcome.mipGap, 0);
  assert.ok(Math.abs(outcome.mipDualBound! - -1) < 1e-9);
  assert.ok(
    lines.some((l) => /^MIP has 1 row; 2 cols; 2 nonzeros; 2 integer variables/.test(l)),
    lines.join("\n"),
  );
});

Deno.test("solveLp() of an LP reports no MIP gap", async () => {
  const { twoSupplies } = await import("./_small_lps.ts");
  const outcome = solveLp(highs, twoSupplies, {});
  assert.equal(outcome.mipGap, undefined);
  assert.equal(outcome.mipDualBound, undefined);
});

Deno.test("solveLp() passes mipRelGap to HiGHS as mip_rel_gap", () => {
  const lines: string[] = [];
  const outcome = solveLp(highs, knapsack(60), { mipRelGap: 0.02, timeLimitS: 30 }, {
    onLog: (line) => lines.push(line),
  });
  assert.equal(outcome.termination, "optimal");
  assert.ok(outcome.mipGap! <= 0.02 && outcome.mipGap! > 0);
  assert.ok(lines.some((l) => /tolerance: 2%/.test(l)), lines.join("\n"));
  assert.throws(() => {
    const bad = solveLp(highs, twoIntegers, { mipRelGap: -1 });
    if (bad.termination === "error") throw new RangeError(bad.message);
  }, /MIP relative gap must be a non-negative number/);
});

Deno.test("solveLp() of a MIP stopped by its time limit returns its feasible solution", () => {
  const lines: string[] = [];
  const outcome = solveLp(highs, knapsack(60), { timeLimitS: 0.5 }, {
    onLog: (line) => lines.push(line),
  });
  assert.equal(outcome.termination, "time_limit");
  assert.equal(outcome.status, "Time limit reached");
  assert.equal(outcome.colValue.length, 60);
  for (const v of outcome.colValue) assert.ok(Math.abs(v - Math.round(v)) < 1e-6);
  assert.ok(outcome.objective! < 0);
  // The bound is below the solution (minimising) and the gap says by how much.
  assert.ok(outcome.mipDualBound! < outcome.objective!);
  assert.ok(outcome.mipGap! > 1e-4);
  // The log streams branch and bound as HiGHS writes it.
  assert.ok(lines.some((l) => /BestBound\s+BestSol\s+Gap/.test(l)), lines.join("\n"));
});

Deno.test("solveInWorker() solves a MIP and stops a long one within 1 s of the abort", async () => {
  const small = await solveInWorker(twoIntegers, {});
  assert.equal(small.termination, "optimal");
  assert.ok(Math.abs(small.objective! - -1) < 1e-9);
  assert.equal(small.mipGap, 0);

  const controller = new AbortController();
  let abortedAt = Number.NaN;
  const outcome = await solveInWorker(knapsack(200), {}, {
    signal: controller.signal,
    onLog: (line) => {
      if (Number.isNaN(abortedAt) && /BestBound\s+BestSol/.test(line)) {
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 300);
      }
    },
  });
  const latencyMs = performance.now() - abortedAt;
  assert.equal(outcome.termination, "interrupted");
  // Stopped by HiGHS's MIP interrupt callback, not by terminating the Worker.
  assert.equal(outcome.status, "Interrupted by user");
  assert.ok(latencyMs < 1000, `stopped ${latencyMs.toFixed(0)} ms after the abort`);
});
