/**
 * Operate mode's window cost (issue 23): the national-scale example's `operate` scenario over a
 * period, window 24 / horizon 48, once with one HiGHS model updated between windows and once built
 * anew for every window, each run twice (the second is reported). Usage:
 * `deno run -A benchmarks/operate_windows.ts [--period 2005-01|year]`.
 */
import { importCalliopeModel } from "../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../lib/model/prepare_model_body.ts";
import { runOperate } from "../lib/model/operate/run_operate.ts";
import { loadHighsOnce } from "../lib/solver/highs_loader.ts";
import { createPersistentLpSolver, type PersistentLpSolver } from "../lib/solver/persistent_lp.ts";

const period = Deno.args[Deno.args.indexOf("--period") + 1] === "year" ? "year" : "2005-01";
const config = await importCalliopeModel(
  new URL("../data/models/calliope_national_scale", import.meta.url).pathname,
  {
    scenario: "operate",
    overrides: {
      "model.subset_time": period === "year" ? ["2005-01-01", "2005-12-31"] : period,
      "run.operation.window": 24,
      "run.operation.horizon": 48,
    },
  },
);
const prepared = prepareModelBody(config);
if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
const highs = await loadHighsOnce();

/** A solver that loads every window anew (a new shape key each time). */
function rebuilding(inner: PersistentLpSolver): PersistentLpSolver {
  let n = 0;
  return {
    solve: (lp, options, hooks) => inner.solve(lp, options, hooks, `window-${n++}`),
    dispose: () => inner.dispose(),
  };
}

type Stats = { buildMs: number; solveMs: number; iterations: number };
for (const mode of ["updated", "built anew"] as const) {
  let line = "";
  for (let run = 0; run < 2; run++) {
    const inner = createPersistentLpSolver(highs);
    const solver = mode === "updated" ? inner : rebuilding(inner);
    const started = performance.now();
    const result = await runOperate(prepared.model, prepared.model.operate!, {
      log: () => {},
      progress: () => {},
      signal: new AbortController().signal,
    }, solver);
    const total = performance.now() - started;
    solver.dispose();
    const windows = (result["operate"] as { windows: Stats[] }).windows;
    const middle = windows.slice(1, -1);
    const mean = (f: (w: Stats) => number) =>
      middle.reduce((a, w) => a + f(w), 0) / Math.max(1, middle.length);
    line = `${period}, ${mode}: ${windows.length} windows, ${total.toFixed(0)} ms in all; per ` +
      `middle window: build ${mean((w) => w.buildMs).toFixed(2)} ms, solve ` +
      `${mean((w) => w.solveMs).toFixed(2)} ms, ${mean((w) => w.iterations).toFixed(0)} ` +
      `iterations; objective ${result.objective}`;
  }
  console.log(line);
}
