/**
 * Operate mode's rolling horizon (Calliope 0.6.10 `run_operate`) over a model prepared by
 * `prepareOperate`: each window is solved over its horizon on one persistent HiGHS model
 * (updated between windows of the same length, built anew for a shorter one), the level of each
 * store at the end of a window's kept part becomes the next window's `storage_initial`, and the
 * kept steps of every window are joined into one solution of the whole-period LP, read back as
 * one RunResult over the whole timeline.
 */
import { buildLp } from "../../lp/build_lp.ts";
import type { LinearProgram } from "../../lp/linear_program.ts";
import { type LpNameList, nameArray } from "../../lp/lp_name_list.ts";
import { readResults } from "../../results/read_results.ts";
import type { RunResult } from "../../results/run_result.ts";
import type { RunHooks } from "../../runner/model_runner.ts";
import type { PersistentLpSolver, PersistentSolveStats } from "../../solver/persistent_lp.ts";
import type { SolveOutcome, Termination } from "../../solver/solve_types.ts";
import { at, type ResolvedModel } from "../preprocess/resolved_model.ts";
import { operateOptionProblems, type OperateOptions } from "./operate_options.ts";
import { operateWindows } from "./operate_windows.ts";
import { windowModel } from "./window_model.ts";

/** What one window cost (for the log, the result's `operate.windows` and benchmarks). */
export interface WindowStats extends PersistentSolveStats {
  readonly start: number;
  readonly keep: number;
  readonly horizon: number;
  /** Building this window's LP arrays in TypeScript (ms). */
  readonly buildMs: number;
  readonly solveMs: number;
  readonly iterations: number;
  readonly termination: Termination;
}

/**
 * Runs `model` (from `prepareOperate`) in operate mode on `solver`. Throws on options Calliope
 * refuses or when no window fits. The result's `operate` member lists each window's stats.
 */
export async function runOperate(
  model: ResolvedModel,
  options: OperateOptions,
  hooks: RunHooks,
  solver: PersistentLpSolver,
): Promise<RunResult> {
  const problems = operateOptionProblems(options);
  if (problems.length > 0) throw new Error(problems.join("; "));
  const window = options.window!;
  const windows = operateWindows(model.resolution, window, options.horizon!);
  if (windows.length === 0) {
    throw new Error(
      "Not enough timesteps or incorrect timestep resolution to run in operational mode with " +
        `an optimisation window of ${window}`,
    );
  }
  for (const warning of model.warnings ?? []) hooks.log(`[runner] warning: ${warning}`);
  hooks.progress({ phase: "build", pct: 0 });
  const buildStarted = performance.now();
  const full = buildLp(model);
  const fullBuildMs = performance.now() - buildStarted;
  const colPos = new Map(nameArray(full.lp.colNames).map((n, j) => [n, j]));
  const rowPos = new Map(nameArray(full.lp.rowNames).map((n, i) => [n, i]));
  const joined = new Float64Array(full.lp.numCols);
  const seen = new Uint8Array(full.lp.numCols);
  const duals = new Float64Array(full.lp.numRows);
  hooks.progress({ phase: "build", pct: 100 });
  hooks.progress({ phase: "solve", pct: 0 });

  const storageInitial = new Map<string, number>();
  for (const lt of model.locTechs) {
    if (lt.sets.store) storageInitial.set(lt.id, lt.constraints.storage_initial ?? 0);
  }
  const stats: WindowStats[] = [];
  let last: SolveOutcome | undefined;
  let termination: Termination = "optimal";
  let status = "Optimal";
  for (const [k, w] of windows.entries()) {
    if (hooks.signal.aborted) {
      termination = "interrupted";
      status = "Interrupted by user";
      break;
    }
    hooks.log(
      `[runner] window ${k + 1} of ${windows.length}: timesteps ${w.start}..${w.keepEnd - 1}` +
        ` kept, solved over ${w.solveEnd - w.start}`,
    );
    const built = performance.now();
    const part = windowModel(model, w.start, w.solveEnd, storageInitial);
    const { lp, index } = buildLp(part);
    const buildMs = performance.now() - built;
    const { outcome, stats: s } = await solver.solve(
      lp,
      model.solver,
      {
        onLog: hooks.log,
        signal: hooks.signal,
        ...(hooks.onSpawn === undefined ? {} : { onSpawn: hooks.onSpawn }),
      },
      shapeOf(lp, part.timestamps),
    );
    last = outcome;
    stats.push({
      ...s,
      start: w.start,
      keep: w.keepEnd - w.start,
      horizon: w.solveEnd - w.start,
      buildMs,
      solveMs: outcome.solveMs,
      iterations: outcome.iterations,
      termination: outcome.termination,
    });
    hooks.log(
      `[runner] window ${k + 1} of ${windows.length}: ${outcome.termination}, ${s.mode} ` +
        `(${s.loadMs.toFixed(1)} ms), solved in ${outcome.solveMs.toFixed(0)} ms`,
    );
    if (outcome.termination !== "optimal") {
      termination = outcome.termination;
      status = outcome.status;
      break;
    }
    const kept = new Set(part.timestamps.slice(0, w.keepEnd - w.start));
    const inWindow = new Set(part.timestamps);
    copyKept(lp.colNames, outcome.colValue, kept, inWindow, colPos, joined, seen);
    copyKept(lp.rowNames, outcome.rowDual, kept, inWindow, rowPos, duals, undefined);
    for (const lt of model.locTechs) {
      if (!lt.sets.store) continue;
      const level = outcome.colValue[index.storage.get(lt.id)! + (w.keepEnd - w.start - 1)]!;
      const capCol = index.storageCap.get(lt.id);
      const cap = capCol === undefined ? 0 : outcome.colValue[capCol]!;
      // The level decays over the last kept step as in the whole-period LP (Calliope carries it
      // undecayed, dropping one step of loss per window boundary: then a shorter window could
      // cost less than the whole period). Negative levels (solver noise) are clipped as Calliope.
      const end = w.keepEnd - 1;
      const decay = Math.pow(1 - at(lt.constraints.storage_loss, end), model.resolution[end]!);
      storageInitial.set(lt.id, cap > 0 ? Math.max(0, level) * decay / cap : 0);
    }
    hooks.progress({ phase: "solve", pct: (100 * (k + 1)) / windows.length });
  }

  const complete = termination === "optimal";
  const outcome: SolveOutcome = {
    termination,
    status,
    objective: complete ? objectiveOf(full.lp, joined) : null,
    colValue: complete ? joined : new Float64Array(0),
    rowDual: complete && last?.rowDual.length ? duals : new Float64Array(0),
    iterations: stats.reduce((a, s) => a + s.iterations, 0),
    solveMs: stats.reduce((a, s) => a + s.solveMs, 0),
    peakHeapBytes: last?.peakHeapBytes ?? 0,
    solver: last?.solver ?? "",
  };
  const result = readResults(model, full.index, outcome, { buildMs: fullBuildMs });
  return {
    ...result,
    operate: { window, horizon: options.horizon, windows: stats },
  };
}

/**
 * Copies the values of a window's kept timesteps (and its columns without a timestep) into the
 * whole-period vector by name. A column without a timestep takes the largest value any window
 * gave it (fixed capacities are equal everywhere; a free one must cover every window).
 */
function copyKept(
  names: LpNameList,
  values: Float64Array,
  kept: ReadonlySet<string>,
  inWindow: ReadonlySet<string>,
  pos: ReadonlyMap<string, number>,
  into: Float64Array,
  seen: Uint8Array | undefined,
): void {
  if (values.length === 0) return;
  for (const [j, name] of nameArray(names).entries()) {
    const comma = name.lastIndexOf(",");
    const stamp = comma < 0 ? "" : name.slice(comma + 1, -1);
    const timed = inWindow.has(stamp);
    if (timed && !kept.has(stamp)) continue;
    const at = pos.get(name);
    if (at === undefined) continue;
    const v = values[j]!;
    if (timed || seen === undefined) {
      if (timed) into[at] = v;
      continue;
    }
    into[at] = seen[at] ? Math.max(into[at]!, v) : v;
    seen[at] = 1;
  }
}

/** The LP's row and column names with each timestamp replaced by its position in the window. */
function shapeOf(lp: LinearProgram, timestamps: readonly string[]): string {
  const position = new Map(timestamps.map((t, i) => [t, String(i)]));
  const strip = (name: string) => {
    const comma = name.lastIndexOf(",");
    const t = comma < 0 ? undefined : position.get(name.slice(comma + 1, -1));
    return t === undefined ? name : `${name.slice(0, comma)},${t}]`;
  };
  const stripped = (names: LpNameList) => Array.from(names, strip).join("\n");
  return `${stripped(lp.colNames)}\n|\n${stripped(lp.rowNames)}`;
}

function objectiveOf(lp: LinearProgram, x: Float64Array): number {
  let sum = lp.offset;
  for (let j = 0; j < lp.numCols; j++) sum += lp.colCost[j]! * x[j]!;
  return sum;
}
