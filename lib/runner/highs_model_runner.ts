/**
 * The runner's domain pipeline on HiGHS: a body is validated and pre-processed (`prepare`), then
 * `run` builds the linear program, solves it in a Worker (or in this thread) and reads the
 * result back. Infeasible or unbounded is a result; a fault rejects.
 */
import { buildLp } from "../lp/build_lp.ts";
import { readResults } from "../model/read_results.ts";
import { prepareModelBody } from "../model/prepare_model_body.ts";
import type { ResolvedModel } from "../model/resolved_model.ts";
import { loadHighsOnce, solverName } from "../solver/highs_loader.ts";
import { solveInProcess } from "../solver/solve_in_process.ts";
import { solveInWorker } from "../solver/solve_in_worker.ts";
import type { ModelRunner, Prepared, RunHooks, RunResult } from "./model_runner.ts";

/** Where the solve runs: a Worker per run (the service), or this thread (notebooks, CLI). */
export interface HighsModelRunnerOptions {
  readonly solveIn?: "worker" | "process";
}

/** The ModelRunner the service, the CLI and the notebooks use (loads HiGHS once to name it). */
export async function createHighsModelRunner(
  options: HighsModelRunnerOptions = {},
): Promise<ModelRunner> {
  const name = solverName(await loadHighsOnce());
  const notesByModel = new WeakMap<ResolvedModel, readonly string[]>();
  const solve = options.solveIn === "process" ? solveInProcess : solveInWorker;
  return {
    solverName: name,
    prepare(body: unknown): Prepared {
      const prepared = prepareModelBody(body);
      if (!prepared.ok) return prepared;
      notesByModel.set(prepared.model, prepared.notes);
      return { ok: true, model: prepared.model };
    },
    async run(model: ResolvedModel, hooks: RunHooks): Promise<RunResult> {
      for (const note of notesByModel.get(model) ?? []) hooks.log(`[runner] ${note}`);
      hooks.progress({ phase: "build", pct: 0 });
      const started = performance.now();
      const { lp, index } = buildLp(model);
      const buildMs = performance.now() - started;
      hooks.log(
        `[runner] built the LP in ${buildMs.toFixed(0)} ms: ${lp.numCols} variables, ` +
          `${lp.numRows} constraints, ${lp.matrix.values.length} nonzeros, ` +
          `${model.timestamps.length} timesteps`,
      );
      hooks.progress({ phase: "build", pct: 100 });
      hooks.progress({ phase: "solve", pct: 0 });
      const outcome = await solve(lp, model.solver, { onLog: hooks.log, signal: hooks.signal });
      hooks.progress({ phase: "solve", pct: 100 });
      hooks.log(
        `[runner] solve ended: ${outcome.termination} (${outcome.status}) in ` +
          `${outcome.solveMs.toFixed(0)} ms`,
      );
      return readResults(model, index, outcome, { buildMs });
    },
  };
}
