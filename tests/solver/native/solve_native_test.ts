import assert from "node:assert/strict";
import type { LinearProgram } from "../../../lib/lp/linear_program.ts";
import { solveInProcess } from "../../../lib/solver/solve_in_process.ts";
import { solveNative } from "../../../lib/solver/native/solve_native.ts";
import { denseLp, infeasible, twoSupplies, unbounded } from "../_small_lps.ts";
import { knapsack, twoIntegers } from "../_small_mips.ts";
import { CI_SOLVERS, installed, testName } from "./_installed.ts";

/** twoSupplies plus a ranged row `spread` (-1 <= x0 - x1 <= 1) that binds at its upper bound. */
const ranged = denseLp({
  cost: [1, 2, 0.5],
  offset: -3,
  colUpper: [Infinity, Infinity, 2],
  rows: [
    { name: "demand", coefs: [1, 1, 1], lower: 6, upper: Infinity },
    { name: "cap[a::b]", coefs: [1, 0, 0], lower: -Infinity, upper: 3 },
    { name: "spread", coefs: [1, -1, 0], lower: -1, upper: 1 },
    { name: "unused", coefs: [0, 0, 1], lower: -Infinity, upper: Infinity },
  ],
});

const maximised: LinearProgram = {
  ...denseLp({
    cost: [-1, -2],
    offset: 5,
    rows: [
      { name: "demand", coefs: [1, 1], lower: 4, upper: Infinity },
      { name: "cap", coefs: [1, 0], lower: -Infinity, upper: 3 },
    ],
  }),
  sense: "maximize",
};

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-7 * Math.max(1, Math.abs(b));

function assertSameAsHighs(
  actual: Awaited<ReturnType<typeof solveNative>>,
  expected: Awaited<ReturnType<typeof solveInProcess>>,
): void {
  assert.equal(actual.termination, expected.termination);
  assert.ok(close(actual.objective!, expected.objective!), `${actual.objective}`);
  assert.equal(actual.colValue.length, expected.colValue.length);
  expected.colValue.forEach((v, j) => assert.ok(close(actual.colValue[j]!, v), `col ${j}`));
  assert.equal(actual.rowDual.length, expected.rowDual.length);
  expected.rowDual.forEach((v, i) =>
    assert.ok(close(actual.rowDual[i]!, v), `row ${i}: ${actual.rowDual[i]} vs HiGHS ${v}`)
  );
}

for (const name of CI_SOLVERS) {
  const found = installed(name);
  const ignore = found === undefined;

  Deno.test({
    name: testName(
      name,
      `solveNative(${name}) matches HiGHS: objective with offset, primal, duals`,
    ),
    ignore,
    async fn(t) {
      for (
        const [what, lp] of [["offset", twoSupplies], ["ranged row, free row", ranged], [
          "maximise",
          maximised,
        ]] as const
      ) {
        await t.step(what, async () => {
          const expected = await solveInProcess(lp);
          const actual = await solveNative(found!, lp);
          assertSameAsHighs(actual, expected);
          assert.equal(actual.solver, found!.description);
          assert.match(actual.solver, /^\S+ \d+\.\d+(\.\d+)? \(native\)$/);
        });
      }
    },
  });

  Deno.test({
    name: testName(name, `solveNative(${name}) reports infeasible and unbounded LPs`),
    ignore,
    async fn() {
      const inf = await solveNative(found!, infeasible);
      assert.equal(inf.termination, "infeasible");
      assert.equal(inf.objective, null);
      assert.equal(inf.colValue.length, 0);
      const unb = await solveNative(found!, unbounded);
      assert.equal(unb.termination, "unbounded");
      assert.equal(unb.objective, null);
    },
  });
}

for (const name of ["cbc", "glpk"] as const) {
  const found = installed(name);
  Deno.test({
    name: testName(name, `solveNative(${name}) solves a MIP: integer optimum, no duals`),
    ignore: found === undefined,
    async fn() {
      const outcome = await solveNative(found!, twoIntegers);
      assert.equal(outcome.termination, "optimal");
      assert.equal(outcome.objective, -1);
      assert.equal(outcome.colValue[0]! + outcome.colValue[1]!, 1);
      assert.equal(outcome.rowDual.length, 0);
    },
  });

  Deno.test({
    name: testName(
      name,
      `solveNative(${name}) stops a long MIP at its time limit with its incumbent`,
    ),
    ignore: found === undefined,
    async fn() {
      // 100 items take cbc and glpsol well over 20 s to prove optimal.
      const lp = knapsack(100);
      const started = performance.now();
      const outcome = await solveNative(found!, lp, { timeLimitS: 1 });
      const ms = performance.now() - started;
      assert.equal(outcome.termination, "time_limit");
      assert.ok(ms < 8000, `took ${ms} ms`);
      assert.ok(outcome.objective !== null && outcome.objective < -20000, `${outcome.objective}`);
      assert.equal(outcome.colValue.length, lp.numCols);
      assert.ok(outcome.colValue.every((v) => Math.abs(v - Math.round(v)) < 1e-6));
    },
  });

  Deno.test({
    name: testName(name, `solveNative(${name}) passes the MIP gap: a 5 % gap stops at once`),
    ignore: found === undefined,
    async fn() {
      const started = performance.now();
      const outcome = await solveNative(found!, knapsack(100), { mipRelGap: 0.05, timeLimitS: 20 });
      assert.equal(outcome.termination, "optimal");
      assert.ok(performance.now() - started < 10000);
    },
  });
}

Deno.test({
  name: testName("clp", "solveNative(clp) refuses a MIP with a clear error"),
  ignore: installed("clp") === undefined,
  async fn() {
    const outcome = await solveNative("clp", twoIntegers);
    assert.equal(outcome.termination, "error");
    assert.match(outcome.message!, /linear programs only/);
  },
});

Deno.test("solveNative() of a solver not on PATH is an error saying so", async () => {
  const outcome = await solveNative(
    { name: "gurobi", path: "/nonexistent/gurobi_cl", version: "12.0", description: "Gurobi" },
    twoSupplies,
  );
  assert.equal(outcome.termination, "error");
  assert.match(outcome.message!, /Could not run \/nonexistent\/gurobi_cl/);
});

Deno.test("solveNative() rejects an invalid time limit as the built-in solver does", async () => {
  await assert.rejects(() => solveNative("cbc", twoSupplies, { timeLimitS: -1 }), RangeError);
});
