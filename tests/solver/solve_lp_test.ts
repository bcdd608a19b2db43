import { strict as assert } from "node:assert";
import { loadHighsOnce, solverName } from "../../lib/solver/highs_loader.ts";
import { MAX_CONFLICTS, solveLp } from "../../lib/solver/solve_lp.ts";
import { denseLp, infeasible, twoSupplies, unbounded } from "./_small_lps.ts";

const highs = await loadHighsOnce();

Deno.test("loadHighsOnce() loads one instance per realm and names its version", async () => {
  assert.equal(await loadHighsOnce(), highs);
  assert.match(solverName(highs), /^HiGHS \d+\.\d+\.\d+ \(wasm\)$/);
});

Deno.test("solveLp() finds the optimum with objective offset, primal and duals", async (t) => {
  for (const method of ["simplex", "ipm", "choose"] as const) {
    await t.step(method, () => {
      const outcome = solveLp(highs, twoSupplies, { method });
      assert.equal(outcome.termination, "optimal");
      assert.equal(outcome.status, "Optimal");
      assert.ok(Math.abs(outcome.objective! - 10) < 1e-9);
      assert.deepEqual(Array.from(outcome.colValue, (v) => Math.round(v * 1e9) / 1e9), [3, 1]);
      // Raising demand by one costs 2 (the marginal supply); raising the cap saves 1.
      assert.deepEqual(Array.from(outcome.rowDual, (v) => Math.round(v * 1e9) / 1e9), [2, -1]);
      assert.equal(outcome.solver, solverName(highs));
      assert.ok(outcome.peakHeapBytes > 1 << 20);
      assert.equal(outcome.conflicts, undefined);
    });
  }
});

Deno.test("solveLp() with ipm on an LP presolve cannot remove counts IPM iterations", () => {
  const lp = denseLp({
    cost: [-1, -1, -1],
    colUpper: [4, 4, 4],
    rows: [
      { name: "a", coefs: [1, 2, 1], lower: -Infinity, upper: 6 },
      { name: "b", coefs: [2, 1, 3], lower: -Infinity, upper: 7 },
      { name: "c", coefs: [1, 1, 2], lower: 1, upper: 5 },
    ],
  });
  const simplex = solveLp(highs, lp, { method: "simplex" });
  const ipm = solveLp(highs, lp, { method: "ipm" });
  assert.equal(ipm.termination, "optimal");
  assert.ok(Math.abs(ipm.objective! - simplex.objective!) < 1e-7);
  assert.ok(ipm.iterations > 0);
});

Deno.test("solveLp() reports infeasible with the conflicting rows by name", () => {
  const outcome = solveLp(highs, infeasible, {});
  assert.equal(outcome.termination, "infeasible");
  assert.equal(outcome.objective, null);
  assert.equal(outcome.colValue.length, 0);
  assert.deepEqual([...(outcome.conflicts ?? [])].sort(), ["demand", "supply"]);
});

Deno.test("solveLp() names at most MAX_CONFLICTS conflicting rows", () => {
  // total: sum x_i >= 100 against 60 rows cap[i]: x_i <= 1; the IIS needs every row (61).
  const n = 60;
  const rows = Array.from({ length: n }, (_, i) => ({
    name: `cap[${i}]`,
    coefs: Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)),
    lower: -Infinity,
    upper: 1,
  }));
  rows.push({ name: "total", coefs: Array(n).fill(1), lower: 100, upper: Infinity });
  const outcome = solveLp(highs, denseLp({ cost: Array(n).fill(1), rows }), {});
  assert.equal(outcome.termination, "infeasible");
  assert.equal(outcome.conflicts?.length, MAX_CONFLICTS);
});

Deno.test("solveLp() reports unbounded as HiGHS does", () => {
  const outcome = solveLp(highs, unbounded, {});
  assert.equal(outcome.termination, "unbounded");
  assert.equal(outcome.objective, null);
});

Deno.test("solveLp() relays the log line by line, in order, without empty lines", () => {
  const lines: string[] = [];
  solveLp(highs, twoSupplies, {}, { onLog: (line) => lines.push(line) });
  assert.ok(lines.length > 5);
  for (const line of lines) {
    assert.ok(!line.includes("\n") && line.trim() !== "", JSON.stringify(line));
  }
  const first = lines.findIndex((l) => l.startsWith("LP has 2 rows"));
  const status = lines.findIndex((l) => /^Model status\s+: Optimal$/.test(l));
  assert.ok(first >= 0 && status > first);
});

Deno.test("solveLp() returns interrupted without solving when already stopped", () => {
  const lines: string[] = [];
  const outcome = solveLp(highs, twoSupplies, {}, {
    shouldStop: () => true,
    onLog: (l) => lines.push(l),
  });
  assert.equal(outcome.termination, "interrupted");
  assert.equal(outcome.objective, null);
  assert.deepEqual(lines, []);
});

Deno.test("solveLp() rejects a negative time limit", () => {
  assert.throws(() => solveLp(highs, twoSupplies, { timeLimitS: -1 }), RangeError);
});

Deno.test("solveLp() turns a HiGHS failure into termination error", () => {
  const broken = {
    ...twoSupplies,
    matrix: { ...twoSupplies.matrix, starts: new Int32Array([0, 9, 3]) },
  };
  const outcome = solveLp(highs, broken, {});
  assert.equal(outcome.termination, "error");
  assert.ok((outcome.message ?? "").length > 0);
});
