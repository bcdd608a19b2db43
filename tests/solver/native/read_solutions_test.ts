/**
 * The solution-file readers on sample files written by hand in each solver's documented format
 * (tests/fixtures/solver_solutions/):
 * - HiGHS: "Solution file" in the HiGHS documentation (raw style, HighsSolution.cpp
 *   writeSolutionFile): `Model status`, `# Primal solution values`, `# Dual solution values`.
 * - Gurobi: reference manual, "File Formats" > "SOL format" and "JSON solution format"
 *   (`SolutionInfo.Status` as in "Optimization Status Codes"; `Pi` with JSONSolDetail=1).
 * - CPLEX: "File formats reference" > "SOL file format: solution files" (XML `CPLEXSolution`).
 * - SCIP: the shell's `write solution` (SCIPprintSol): `solution status:`, `objective value:`.
 * - cbc and glpsol: files these binaries wrote here (cbc 2.10.8 `solu`, glpsol 5.0 `--write`).
 */
import assert from "node:assert/strict";
import { readCoinSolution } from "../../../lib/solver/native/read_coin_solution.ts";
import { readCplexSolution } from "../../../lib/solver/native/read_cplex_solution.ts";
import { readGlpkSolution } from "../../../lib/solver/native/read_glpk_solution.ts";
import {
  gurobiLogTermination,
  readGurobiJson,
  readGurobiSol,
} from "../../../lib/solver/native/read_gurobi_solution.ts";
import { readHighsSolution } from "../../../lib/solver/native/read_highs_solution.ts";
import { readScipSolution } from "../../../lib/solver/native/read_scip_solution.ts";
import type { NativeValues } from "../../../lib/solver/native/native_solution.ts";

const fixture = (name: string) =>
  Deno.readTextFileSync(new URL(`../../fixtures/solver_solutions/${name}`, import.meta.url));

const named = (values: NativeValues | undefined) =>
  values instanceof Map
    ? Object.fromEntries(values)
    : values === undefined
    ? undefined
    : [...values];

const COLS = { x0: 3, x1: 1 };
const ROWS = { c0: 2, c1: -1, c2_hi: 0 };

Deno.test("readHighsSolution() reads status, primal values and duals by name", () => {
  const s = readHighsSolution(fixture("highs_optimal.sol"), false);
  assert.equal(s.termination, "optimal");
  assert.equal(s.status, "Optimal");
  assert.deepEqual(named(s.colValues), COLS);
  assert.deepEqual(named(s.rowDuals), ROWS);
  const inf = readHighsSolution(fixture("highs_infeasible.sol"), false);
  assert.equal(inf.termination, "infeasible");
  assert.equal(inf.colValues, undefined);
  // A MIP's duals are not taken.
  assert.equal(readHighsSolution(fixture("highs_optimal.sol"), true).rowDuals, undefined);
});

Deno.test("readGurobiJson() reads the status code, X and Pi; a MIP's incumbent at a time limit", () => {
  const s = readGurobiJson(fixture("gurobi_optimal.json"), false);
  assert.equal(s.termination, "optimal");
  assert.equal(s.status, "OPTIMAL");
  assert.deepEqual(named(s.colValues), COLS);
  assert.deepEqual(named(s.rowDuals), ROWS);
  assert.equal(s.iterations, 2);
  const t = readGurobiJson(fixture("gurobi_time_limit_mip.json"), true);
  assert.equal(t.termination, "time_limit");
  assert.deepEqual(named(t.colValues), { x0: 1 });
  assert.equal(t.sparse, true);
  assert.equal(t.mipGap, 0.5);
  assert.equal(t.mipDualBound, -1.5);
  assert.equal(t.rowDuals, undefined);
});

Deno.test("readGurobiSol() reads values; the status comes from gurobi_cl's log", () => {
  const s = readGurobiSol(
    fixture("gurobi_optimal.sol"),
    ["Optimal objective  5.000000000e+00"],
    false,
  );
  assert.equal(s.termination, "optimal");
  assert.deepEqual(named(s.colValues), COLS);
  assert.deepEqual(gurobiLogTermination(["Model fingerprint: 0x1", "Infeasible model"]), [
    "infeasible",
    "Infeasible model",
  ]);
  assert.equal(
    gurobiLogTermination(["Infeasible or unbounded model"])[0],
    "infeasible_or_unbounded",
  );
  assert.equal(gurobiLogTermination(["Time limit reached"])[0], "time_limit");
});

Deno.test("readCplexSolution() reads the XML header's status, values and duals", () => {
  const s = readCplexSolution(fixture("cplex_optimal.sol"), false);
  assert.equal(s.termination, "optimal");
  assert.equal(s.status, "optimal");
  assert.deepEqual(named(s.colValues), COLS);
  assert.deepEqual(named(s.rowDuals), ROWS);
  assert.equal(s.iterations, 2);
  const t = readCplexSolution(fixture("cplex_time_limit_mip.sol"), true);
  assert.equal(t.termination, "time_limit");
  assert.deepEqual(named(t.colValues), { x0: 1, x1: -0 });
  assert.equal(t.mipGap, 0.5);
  assert.equal(t.rowDuals, undefined);
});

Deno.test("readScipSolution() reads the status and the nonzero values", () => {
  const s = readScipSolution(fixture("scip_optimal.sol"), false);
  assert.equal(s.termination, "optimal");
  assert.deepEqual(named(s.colValues), COLS);
  assert.equal(s.sparse, true);
  assert.equal(s.rowDuals, undefined);
  const inf = readScipSolution(fixture("scip_infeasible.sol"), false);
  assert.equal(inf.termination, "infeasible");
  assert.equal(inf.colValues, undefined);
});

Deno.test("readCoinSolution() and readGlpkSolution() read what cbc and glpsol write", () => {
  const c = readCoinSolution(fixture("cbc_optimal.sol"), 3, false);
  assert.equal(c.termination, "optimal");
  assert.deepEqual(named(c.colValues), COLS);
  assert.deepEqual(named(c.rowDuals), ROWS);
  assert.equal(
    readCoinSolution("Stopped on time - objective value -3\n", 0, true).termination,
    "time_limit",
  );
  assert.equal(
    readCoinSolution("Stopped on gap - objective value -3\n", 0, true).termination,
    "optimal",
  );
  // An LP cbc stopped at its time limit: the file says iterations, the log says time.
  const stopped = "Stopped on iterations - objective value 47003581\n";
  assert.equal(readCoinSolution(stopped, 0, false).termination, "iteration_limit");
  assert.equal(
    readCoinSolution(stopped, 0, false, ["Result - Stopped on time limit"]).termination,
    "time_limit",
  );
  const g = readGlpkSolution(fixture("glpk_optimal.sol"), []);
  assert.equal(g.termination, "optimal");
  assert.deepEqual(named(g.colValues), [3, 1]);
  assert.deepEqual(named(g.rowDuals), [2, -1, 0]);
  assert.equal(
    readGlpkSolution("s mip 1 2 f -1\nj 1 1\nj 2 0\n", ["TIME LIMIT EXCEEDED; SEARCH TERMINATED"])
      .termination,
    "time_limit",
  );
});
