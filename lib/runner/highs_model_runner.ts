/**
 * The runner's domain pipeline on HiGHS: a body is validated and pre-processed (`prepare`), then
 * `run` builds the linear program, solves it in a Worker (or in this thread) and reads the
 * result back; `runBody` does all of it, parse included, in one Worker per call (the service),
 * or on this thread with `solveIn: "process"`. Infeasible or unbounded is a result; a fault
 * rejects.
 */
import { prepareModelBody } from "../model/prepare_model_body.ts";
import type { ResolvedModel } from "../model/preprocess/resolved_model.ts";
import { loadHighsOnce, solverName } from "../solver/highs_loader.ts";
import { solveInProcess } from "../solver/solve_in_process.ts";
import { solveInWorker } from "../solver/solve_in_worker.ts";
import type {
  BodyRun,
  ModelRunner,
  Prepared,
  RunHooks,
  RunOptions,
  RunResult,
} from "./model_runner.ts";
import { runBodyHere } from "./run_body_here.ts";
import { runBodyInWorker } from "./run_body_in_worker.ts";
import { solveModel } from "./solve_model.ts";

/** Where the work runs: Workers (the service), or this thread (notebooks, CLI). */
export interface HighsModelRunnerOptions {
  readonly solveIn?: "worker" | "process";
  /**
   * The solver of every run, over the one its model names (the operator's `RUNNER_SOLVER`);
   * absent: each model's own choice, else the built-in HiGHS.
   */
  readonly solver?: string;
}

/** The ModelRunner the service, the CLI and the notebooks use (loads HiGHS once to name it). */
export async function createHighsModelRunner(
  options: HighsModelRunnerOptions = {},
): Promise<ModelRunner> {
  const name = solverName(await loadHighsOnce());
  const notesByModel = new WeakMap<ResolvedModel, readonly string[]>();
  const inProcess = options.solveIn === "process";
  const forcedSolver = options.solver;
  const solve = inProcess ? solveInProcess : solveInWorker;
  const runner: ModelRunner = {
    solverName: name,
    prepare(body: unknown): Prepared {
      const prepared = prepareModelBody(body);
      if (!prepared.ok) return prepared;
      notesByModel.set(prepared.model, prepared.notes);
      return { ok: true, model: prepared.model };
    },
    run(model: ResolvedModel, hooks: RunHooks, options: RunOptions = {}): Promise<RunResult> {
      hooks.progress({ phase: "build", pct: 0 });
      const forced = forcedSolver === undefined
        ? options
        : { ...options, solver: { ...options.solver, name: forcedSolver } };
      return solveModel(model, hooks, solve, notesByModel.get(model), forced);
    },
    runBody(body: Uint8Array, hooks: RunHooks): Promise<BodyRun> {
      return inProcess
        ? runBodyHere(runner, body, hooks)
        : runBodyInWorker(body, hooks, forcedSolver);
    },
  };
  return runner;
}
