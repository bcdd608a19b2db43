/**
 * The runner honours the solver a model names (issue 24): Calliope's national-scale day on each
 * command-line solver Debian ships (installed in CI) gives Calliope's values, a solver the machine
 * lacks runs on the built-in HiGHS with a warning, an LP-only solver hands a MILP to HiGHS, the
 * operator's RUNNER_SOLVER wins over the model, and a cancel ends the solver's process group.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { ModelRunner, RunResult } from "../../lib/runner/model_runner.ts";
import { findNativeSolver } from "../../lib/solver/native/find_native_solvers.ts";
import { solveOptimal } from "./_solve_optimal.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;
const URBAN = new URL("../../data/models/calliope_urban_scale", import.meta.url).pathname;
const DAY = { "model.subset_time": ["2005-01-01", "2005-01-01"] };
/** Calliope's published objective of the national day (test_example_models.py). */
const NATIONAL_DAY_COST = 38988.7442;

const runner = await createHighsModelRunner({ solveIn: "process" });
const installed = {
  cbc: await findNativeSolver("cbc") !== undefined,
  clp: await findNativeSolver("clp") !== undefined,
  glpk: await findNativeSolver("glpk") !== undefined,
};

function near(actual: unknown, expected: number, rel: number, what: string): void {
  assert.equal(typeof actual, "number", `${what} is not a number: ${actual}`);
  const error = Math.abs((actual as number) - expected) / Math.abs(expected);
  assert.ok(error <= rel, `${what}: ${actual} is not within ${rel} of ${expected} (${error})`);
}

async function national(solver: string, extra: Record<string, unknown> = {}) {
  return await importCalliopeModel(NATIONAL, {
    overrides: { ...DAY, "run.solver": solver, ...extra },
  });
}

/** Prepares and runs `body`, keeping the log. */
async function run(
  body: unknown,
  on: ModelRunner = runner,
): Promise<{ result: RunResult; log: string[] }> {
  const prepared = on.prepare(body);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems));
  const log: string[] = [];
  const result = await on.run(prepared.model, {
    log: (line) => log.push(line),
    progress: () => {},
    signal: new AbortController().signal,
  });
  return { result, log };
}

for (const solver of ["cbc", "clp", "glpk"] as const) {
  Deno.test({
    name: `the national day on ${solver} (native) gives Calliope's values`,
    ignore: !installed[solver],
    async fn() {
      const { result, log } = await run(await national(solver));
      assert.equal(result.termination, "optimal");
      assert.match(String(result["solver"]), /\(native\)$/);
      assert.ok(log.some((l) => l.startsWith("[runner] solver: ")), log.join("\n"));
      near(result.objective, NATIONAL_DAY_COST, 1e-6, "objective");
      const cap = result["energy_cap"] as Record<string, number>;
      near(cap["region1-1::csp"], 4626.588, 1e-6, "energy_cap region1-1::csp");
      near(cap["region1::ccgt"], 30000, 1e-6, "energy_cap region1::ccgt");
      assert.equal(result["warnings"], undefined);
    },
  });
}

Deno.test("a solver the runner lacks or cannot drive: the built-in HiGHS, with a warning", async (t) => {
  for (const name of ["xpress", "gurobi_persistent"]) {
    await t.step(name, async () => {
      if (name === "gurobi_persistent" && await findNativeSolver("gurobi") !== undefined) return;
      const { result, log } = await run(await national(name));
      near(result.objective, NATIONAL_DAY_COST, 1e-6, "objective");
      assert.match(String(result["solver"]), /HiGHS .*\(wasm\)/);
      const warnings = result["warnings"] as string[];
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0]!,
        name === "xpress"
          ? /^solver "xpress" is not one the runner can drive .*: the model runs on the built-in highs$/
          : /^solver "gurobi_persistent" is not installed on this runner: the model runs/,
      );
      assert.ok(log.includes(`[runner] warning: ${warnings[0]}`));
    });
  }
});

Deno.test({
  name: "a MILP named for clp (LP only) runs on the built-in HiGHS, with a warning",
  ignore: !installed.clp,
  async fn() {
    const body = await importCalliopeModel(URBAN, {
      scenario: "milp",
      overrides: { "model.subset_time": ["2005-07-01", "2005-07-01"], "run.solver": "clp" },
    });
    const { result } = await run(body);
    assert.equal(result.termination, "optimal");
    assert.match(String(result["solver"]), /\(wasm\)/);
    assert.deepEqual(result["warnings"], [
      "clp solves linear programs only: this MILP runs on the built-in highs",
    ]);
  },
});

Deno.test({
  name: "RUNNER_SOLVER (the runner's solver option) wins over the model's",
  ignore: !installed.cbc,
  async fn() {
    const forced = await createHighsModelRunner({ solveIn: "process", solver: "cbc" });
    const { result } = await run(await national("highs"), forced);
    assert.match(String(result["solver"]), /^CBC .*\(native\)$/);
    near(result.objective, NATIONAL_DAY_COST, 1e-6, "objective");
  },
});

Deno.test({
  name: "operate mode's windows run on a command-line solver too",
  ignore: !installed.cbc,
  async fn() {
    const days = { "model.subset_time": ["2005-01-01", "2005-01-02"] };
    const body = (solver: string) =>
      importCalliopeModel(NATIONAL, {
        scenario: "operate",
        overrides: { ...days, "run.solver": solver },
      });
    const onCbc = await solveOptimal(runner, await body("cbc"));
    const onHighs = await solveOptimal(runner, await body("highs"));
    assert.match(String(onCbc["solver"]), /\(native\)$/);
    near(onCbc.objective, onHighs.objective as number, 1e-6, "operate objective");
  },
});

Deno.test({
  name: "cancelling a job solving on cbc in its Worker ends the solver's process group",
  ignore: !installed.cbc,
  sanitizeResources: false,
  async fn() {
    // A year: cbc works on it for seconds, far longer than the cancel waits.
    const body = await importCalliopeModel(NATIONAL, {
      overrides: { "model.subset_time": null, "run.solver": "cbc" },
    });
    const inWorker = await createHighsModelRunner();
    const abort = new AbortController();
    const pids: number[] = [];
    let cancelledAt = 0;
    const running = inWorker.runBody(new TextEncoder().encode(JSON.stringify(body)), {
      log: () => {},
      progress: () => {},
      signal: abort.signal,
      onSpawn: (pid) => {
        pids.push(pid);
        // Let cbc start reading the LP first.
        setTimeout(() => {
          cancelledAt = performance.now();
          abort.abort();
        }, 300);
      },
    });
    const outcome = await running;
    assert.ok(outcome.ok);
    assert.equal(outcome.result.termination, "interrupted");
    assert.equal(pids.length, 1);
    // The group is gone within a second of the cancel.
    for (;;) {
      if (!isRunning(pids[0]!)) break;
      assert.ok(performance.now() - cancelledAt < 1000, "cbc still runs 1 s after the cancel");
      await new Promise((r) => setTimeout(r, 20));
    }
  },
});

/** Whether process `pid` exists and has not ended (a zombie waiting to be reaped has ended). */
function isRunning(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
