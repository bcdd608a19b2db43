/**
 * The synchronous core of a solve: one LinearProgram on one HiGHS instance, with the log relayed
 * line by line and a stop check polled from HiGHS's interrupt callbacks. Used in a Worker
 * (solver_worker.ts) and in-process (solve_in_process.ts).
 */
import type { LinearProgram } from "../lp/linear_program.ts";
import type { LpNameList } from "../lp/lp_name_list.ts";
import { type Highs, solverName } from "./highs_loader.ts";
import type { SolveHooks, SolveOptions, SolveOutcome } from "./solve_types.ts";
import { modelStatusText, terminationOf } from "./termination.ts";
import { highsModelData, infoNumber } from "./highs_model_data.ts";
import { LineRelay, watchSolve } from "./highs_callbacks.ts";

/** Hooks of the core: the caller's hooks plus a stop check polled during the solve. */
export type SolveLpHooks = SolveHooks & {
  /** Polled at every simplex and interior-point checkpoint; true interrupts the solve. */
  readonly shouldStop?: () => boolean;
};

/** The numeric part of a LinearProgram: what a Worker needs (names stay with the caller). */
export type LpArrays = Omit<LinearProgram, "colNames" | "rowNames">;

/** A solve's outcome before conflicts are named: the IIS as row indices. */
export interface SolveLpResult {
  readonly outcome: SolveOutcome;
  /** Rows of the irreducible infeasible subsystem HiGHS found (empty if none or not run). */
  readonly conflictRows: Int32Array;
}

/** At most this many conflicting rows are named in an outcome. */
export const MAX_CONFLICTS = 50;

/**
 * Seconds the IIS search may take. It runs after infeasibility is proved and repeats LP solves
 * on sub-models, so on a large model it could take longer than the solve itself.
 */
const IIS_TIME_LIMIT_S = 10;

/** Positive info codes for `primal_solution_status` / `dual_solution_status`: feasible. */
const SOLUTION_FEASIBLE = 2;

/**
 * Solves `lp` on `highs` synchronously and names the rows of any infeasible subsystem. The
 * model is always disposed. HiGHS failures become termination "error" with the message; an
 * invalid time limit throws RangeError.
 */
export function solveLp(
  highs: Highs,
  lp: LinearProgram,
  options: SolveOptions,
  hooks: SolveLpHooks = {},
): SolveOutcome {
  const { outcome, conflictRows } = solveLpArrays(highs, lp, options, hooks);
  if (conflictRows.length === 0) return outcome;
  return { ...outcome, conflicts: conflictNames(conflictRows, lp.rowNames) };
}

/** The names of the first MAX_CONFLICTS conflicting rows (`row <i>` for a row without a name). */
export function conflictNames(rows: Int32Array, rowNames: LpNameList): string[] {
  return Array.from(rows.subarray(0, MAX_CONFLICTS), (row) => rowNames.at(row) ?? `row ${row}`);
}

/** solveLp without names: the conflicts come back as row indices. */
export function solveLpArrays(
  highs: Highs,
  lp: LpArrays,
  options: SolveOptions,
  hooks: SolveLpHooks = {},
): SolveLpResult {
  const timeLimitS = options.timeLimitS;
  if (timeLimitS !== undefined && !(timeLimitS >= 0)) {
    throw new RangeError(
      `Solver time limit must be a non-negative number of seconds, got ${timeLimitS}`,
    );
  }
  const solver = solverName(highs);
  const stop = () => hooks.shouldStop?.() === true || hooks.signal?.aborted === true;
  const noSolution = {
    objective: null,
    colValue: new Float64Array(0),
    rowDual: new Float64Array(0),
    iterations: 0,
    solver,
  };
  if (stop()) {
    const outcome: SolveOutcome = {
      ...noSolution,
      termination: "interrupted",
      status: modelStatusText(highs.constants.modelStatus.interrupted),
      solveMs: 0,
      peakHeapBytes: highs.memoryBytes,
    };
    return { outcome, conflictRows: new Int32Array(0) };
  }

  const relay = new LineRelay(hooks.onLog);
  const started = performance.now();
  let model: ReturnType<Highs["createModel"]> | undefined;
  const isMip = lp.integrality !== undefined && lp.integrality.some((v) => v !== 0);
  try {
    model = highs.createModel(highsModelData(highs, lp));
    // Logs go to the callback only: output_flag is the master switch, the console sink is off.
    model.options.set({
      output_flag: true,
      log_to_console: false,
      solver: options.method ?? "choose",
    });
    if (timeLimitS !== undefined) model.options.set("time_limit", timeLimitS);
    const mipRelGap = options.mipRelGap;
    if (mipRelGap !== undefined) {
      if (!(mipRelGap >= 0)) {
        throw new RangeError(`MIP relative gap must be a non-negative number, got ${mipRelGap}`);
      }
      model.options.set("mip_rel_gap", mipRelGap);
    }
    // The default IIS strategy returns nothing when presolve proves infeasibility; row priority
    // (from an elastic LP, then made irreducible) names the rows.
    model.options.set("iis_strategy", highs.constants.iis.strategyRowPriority);
    // On the raw instance, so that the stop check and the log also cover the IIS search's solves.
    watchSolve(highs, model, (message) => relay.push(message), stop, isMip);

    const runStarted = performance.now();
    const { modelStatus } = model.run();
    const solveMs = performance.now() - runStarted;
    const termination = terminationOf(modelStatus);
    const iterations = ["simplex_iteration_count", "ipm_iteration_count", "pdlp_iteration_count"]
      .reduce((sum, name) => sum + infoNumber(model!, name), 0);

    let objective: number | null = null;
    let colValue: Float64Array = noSolution.colValue;
    let rowDual: Float64Array = noSolution.rowDual;
    const hasPrimal = termination === "optimal" ||
      ((termination === "time_limit" || termination === "iteration_limit" ||
        termination === "interrupted") &&
        infoNumber(model, "primal_solution_status") === SOLUTION_FEASIBLE);
    if (hasPrimal) {
      const solution = model.getSolution();
      objective = model.getObjectiveValue();
      colValue = solution.colValue;
      // A MIP has no row duals (HiGHS reports those of its final LP, which mean nothing here).
      if (!isMip && infoNumber(model, "dual_solution_status") === SOLUTION_FEASIBLE) {
        rowDual = solution.rowDual;
      }
    }

    let conflictRows: Int32Array = new Int32Array(0);
    if (termination === "infeasible" && !stop()) {
      conflictRows = findConflicts(model, timeLimitS);
    }
    const outcome: SolveOutcome = {
      termination,
      status: modelStatusText(modelStatus),
      objective,
      colValue,
      rowDual,
      iterations,
      solveMs,
      // Wasm memory only grows, so its size after the solve is the peak of this realm (of this
      // solve in a fresh Worker; the high-water mark of all solves so far in-process).
      peakHeapBytes: highs.memoryBytes,
      solver,
      ...(isMip ? mipReport(model) : {}),
    };
    return { outcome, conflictRows };
  } catch (error) {
    const outcome: SolveOutcome = {
      ...noSolution,
      termination: "error",
      status: modelStatusText(highs.constants.modelStatus.solveError),
      solveMs: performance.now() - started,
      peakHeapBytes: highs.memoryBytes,
      message: error instanceof Error ? error.message : String(error),
    };
    return { outcome, conflictRows: new Int32Array(0) };
  } finally {
    relay.flush();
    model?.dispose();
  }
}

/** The rows of an infeasible subsystem, or none when the search fails or runs out of time. */
function findConflicts(
  model: ReturnType<Highs["createModel"]>,
  timeLimitS: number | undefined,
): Int32Array {
  try {
    // time_limit counts from the last clock reset: give the search its own budget.
    model.zeroAllClocks();
    model.options.set("time_limit", Math.min(IIS_TIME_LIMIT_S, timeLimitS ?? Infinity));
    return model.getIis().rowIndex;
  } catch {
    // The IIS is a diagnosis on top of a result that stands without it.
    return new Int32Array(0);
  }
}

/** A MIP's final gap and bound, when HiGHS reports finite ones. */
function mipReport(
  model: ReturnType<Highs["createModel"]>,
): { mipGap?: number; mipDualBound?: number } {
  const read = (name: string): number | undefined => {
    try {
      const value = Number(model.info.get(name));
      return Number.isFinite(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const gap = read("mip_gap");
  const bound = read("mip_dual_bound");
  return {
    ...(gap === undefined ? {} : { mipGap: gap }),
    ...(bound === undefined ? {} : { mipDualBound: bound }),
  };
}
