/**
 * The run of one prepared model, in Calliope's phases: build the LP, solve it, read the result
 * back, with the run's log and progress on the way. The same steps wherever they run: on the
 * caller's thread (CLI, notebooks), or inside a job's Worker (the service); only `solve` differs.
 */
import { buildLp } from "../lp/build_lp.ts";
import type { LinearProgram } from "../lp/linear_program.ts";
import { readResults } from "../results/read_results.ts";
import type { ResolvedModel } from "../model/preprocess/resolved_model.ts";
import type { SolveHooks, SolveOptions, SolveOutcome } from "../solver/solve_types.ts";
import type { RunHooks, RunOptions, RunResult } from "./model_runner.ts";
import { runSpores } from "../model/spores/run_spores.ts";
import { runOperate } from "../model/operate/run_operate.ts";
import { prepareOperate } from "../model/operate/prepare_operate.ts";
import { planCapacities } from "../model/operate/plan_capacities.ts";
import { ModelValidationError } from "../model/model_problem.ts";
import { createPersistentLpSolver } from "../solver/persistent_lp.ts";
import { loadHighsOnce } from "../solver/highs_loader.ts";
import { chooseSolver, type SolverChoice } from "./solver_choice.ts";
import { chosenSolve } from "./chosen_solve.ts";
import { createNativePersistentSolver } from "../solver/native/native_persistent_solver.ts";

/** Solves one LP (in a Worker, in-process, or on a Worker's own HiGHS). */
export type SolveLp = (
  lp: LinearProgram,
  options: SolveOptions,
  hooks: SolveHooks,
) => Promise<SolveOutcome>;

/**
 * Builds, solves and reads back `model` (its solver settings under `options.solver`); the notes
 * of how its body was read go to the log first. The caller reports the start of the build phase
 * (`build` 0) itself. A SPORES model is a sequence of such solves (lib/model/spores/), its
 * progress the share of spores done.
 */
export async function solveModel(
  prepared: ResolvedModel,
  hooks: RunHooks,
  solve: SolveLp,
  notes: readonly string[] = [],
  options: RunOptions = {},
): Promise<RunResult> {
  const asked = options.solver === undefined
    ? prepared
    : { ...prepared, solver: { ...prepared.solver, ...options.solver } };
  for (const note of notes) hooks.log(`[runner] ${note}`);
  const choice = await chooseSolver(asked.solver.name);
  // The choice's warnings are the model's: logged with them, and in the result's `warnings`.
  const model = choice.warnings.length === 0
    ? asked
    : { ...asked, warnings: [...(asked.warnings ?? []), ...choice.warnings] };
  const chosen = chosenSolve(choice, solve, hooks.log);
  const result = await solveChosen(model, hooks, chosen.solve, options, choice);
  return chosen.warnings.length === 0
    ? result
    : { ...result, warnings: [...readWarnings(result), ...chosen.warnings] };
}

/** The result's `warnings` so far. */
function readWarnings(result: RunResult): string[] {
  const warnings = result["warnings"];
  return Array.isArray(warnings) ? warnings.filter((w) => typeof w === "string") : [];
}

/** The run on the chosen solver: operate's windows, SPORES' solves, or one solve. */
async function solveChosen(
  model: ResolvedModel,
  hooks: RunHooks,
  solve: SolveLp,
  options: RunOptions,
  choice: SolverChoice,
): Promise<RunResult> {
  if (model.operate !== undefined) return await solveOperate(model, hooks, solve, options, choice);
  for (const warning of model.warnings ?? []) hooks.log(`[runner] warning: ${warning}`);
  const spores = model.spores;
  if (spores === undefined) return await solveOnce(model, hooks, solve, options, true);
  const solves = spores.spores_number + 1;
  let done = 0;
  const quiet: RunHooks = { ...hooks, progress: () => {} };
  return await runSpores(model, spores, async (m) => {
    const r = await solveOnce(m, quiet, solve, options, false);
    hooks.progress({ phase: "solve", pct: Math.round((++done / solves) * 100) });
    return r;
  }, { log: (line) => hooks.log(`[runner] ${line}`), signal: hooks.signal });
}

/** One build, solve and read-back. */
async function solveOnce(
  model: ResolvedModel,
  hooks: RunHooks,
  solve: SolveLp,
  options: RunOptions,
  reportPhases: boolean,
): Promise<RunResult> {
  const started = performance.now();
  const { lp, index } = buildLp(model);
  const buildMs = performance.now() - started;
  hooks.log(
    `[runner] built the LP in ${buildMs.toFixed(0)} ms: ${lp.numCols} variables, ` +
      `${lp.numRows} constraints, ${lp.matrix.values.length} nonzeros, ` +
      `${model.timestamps.length} timesteps`,
  );
  await options.onLp?.(lp);
  if (reportPhases) {
    hooks.progress({ phase: "build", pct: 100 });
    hooks.progress({ phase: "solve", pct: 0 });
  }
  const outcome = await solve(lp, model.solver, {
    onLog: hooks.log,
    signal: hooks.signal,
    ...(hooks.onSpawn === undefined ? {} : { onSpawn: hooks.onSpawn }),
  });
  if (reportPhases) hooks.progress({ phase: "solve", pct: 100 });
  hooks.log(
    `[runner] solve ended: ${outcome.termination} (${outcome.status}) in ` +
      `${outcome.solveMs.toFixed(0)} ms`,
  );
  return readResults(model, index, outcome, { buildMs });
}

/**
 * Operate mode: the windows on one HiGHS model, updated between them, on this realm's HiGHS
 * (the job's Worker in the service); runOperate logs the warnings. With `use_cap_results` the
 * model is solved in plan mode first and its capacities fixed.
 */
async function solveOperate(
  model: ResolvedModel,
  hooks: RunHooks,
  solve: SolveLp,
  options: RunOptions,
  choice: SolverChoice,
): Promise<RunResult> {
  const operate = model.operate!;
  let fixed = model;
  if (operate.use_cap_results) {
    hooks.log("[runner] use_cap_results: solving in plan mode for the capacities");
    const { operate: _, ...plan } = model;
    const planned = await solveOnce(plan, { ...hooks, progress: () => {} }, solve, options, false);
    if (!planned.success) return planned;
    const prepared = prepareOperate(model, operate, planCapacities(planned));
    if (!prepared.ok) {
      throw new ModelValidationError(prepared.problems.map((message) => ({
        path: "parameters.operation.use_cap_results",
        message,
      })));
    }
    fixed = prepared.model;
  }
  const solver = choice.solver.kind === "command_line"
    ? createNativePersistentSolver(
      choice.solver.found,
      hooks.onSpawn === undefined ? {} : { onStart: hooks.onSpawn },
    )
    : createPersistentLpSolver(await loadHighsOnce());
  try {
    return await runOperate(fixed, operate, hooks, solver);
  } finally {
    solver.dispose();
  }
}
