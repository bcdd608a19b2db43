/**
 * Calliope's national-scale example on 2005-01-01 solved by each installed command-line solver
 * through the LP file: the objective equals HiGHS's and Calliope's published 38988.7442
 * (`calliope/test/test_example_models.py`, v0.6.10) to 1e-6, and the duals (used by
 * lib/results/) equal HiGHS's where the LP has a unique dual solution.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../../../lib/model/prepare_model_body.ts";
import { buildLp } from "../../../lib/lp/build_lp.ts";
import { solveInProcess } from "../../../lib/solver/solve_in_process.ts";
import { solveNative } from "../../../lib/solver/native/solve_native.ts";
import { CI_SOLVERS, installed, testName } from "./_installed.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;
const PUBLISHED = 38988.7442;

const config = await importCalliopeModel(NATIONAL, {
  overrides: { "model.subset_time": "2005-01-01" },
});
const prepared = prepareModelBody(config);
if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
const { lp } = buildLp(prepared.model);
const highs = await solveInProcess(lp);

Deno.test("the built-in HiGHS gives Calliope's published national-scale objective", () => {
  assert.equal(highs.termination, "optimal");
  assert.ok(Math.abs(highs.objective! - PUBLISHED) <= 1e-6 * PUBLISHED, `${highs.objective}`);
});

for (const name of CI_SOLVERS) {
  const found = installed(name);
  Deno.test({
    name: testName(
      name,
      `solveNative(${name}), national-scale day: HiGHS's and Calliope's objective`,
    ),
    ignore: found === undefined,
    async fn() {
      const lines: string[] = [];
      const outcome = await solveNative(found!, lp, {}, { onLog: (l) => lines.push(l) });
      assert.equal(outcome.termination, "optimal", outcome.message ?? "");
      const rel = Math.abs(outcome.objective! - highs.objective!) / Math.abs(highs.objective!);
      assert.ok(rel <= 1e-6, `${outcome.objective} vs HiGHS ${highs.objective} (${rel})`);
      assert.ok(Math.abs(outcome.objective! - PUBLISHED) <= 1e-6 * PUBLISHED);
      assert.equal(outcome.colValue.length, lp.numCols);
      assert.equal(outcome.rowDual.length, lp.numRows);
      // Duals priced as HiGHS prices them: the system balance rows (energy's price) agree.
      let compared = 0;
      for (let i = 0; i < lp.numRows; i++) {
        if (!lp.rowNames.at(i)!.startsWith("system_balance")) continue;
        const a = outcome.rowDual[i]!;
        const b = highs.rowDual[i]!;
        assert.ok(
          Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)),
          `${lp.rowNames.at(i)}: ${a} vs ${b}`,
        );
        compared++;
      }
      assert.ok(compared > 100);
      assert.ok(lines.length > 3);
    },
  });
}
