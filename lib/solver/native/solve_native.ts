/**
 * Solves a LinearProgram with a command-line solver: the LP file is written to a temporary
 * directory, the solver runs there as a child process in its own process group (its log
 * relayed line by line, an abort kills the group), and its solution file is read back into the
 * same SolveOutcome the built-in HiGHS gives: the objective recomputed as c·x + offset (solvers
 * disagree on the LP file's constant, so none is written), values by column, duals by row with
 * HiGHS's sign (d objective / d bound, which cbc, clp and glpsol share) and a ranged row's two
 * halves added back together.
 */
import type { LinearProgram } from "../../lp/linear_program.ts";
import { fileRowIndex, type LpFileLayout, writeLpFile } from "../../lp/write_lp.ts";
import type { SolveHooks, SolveOptions, SolveOutcome } from "../solve_types.ts";
import type { CommandLineSolver } from "../solver_names.ts";
import { findNativeSolver } from "./find_native_solvers.ts";
import type { NativeSolution, NativeValues } from "./native_solution.ts";
import { type FoundSolver, NATIVE_SOLVERS } from "./native_solvers.ts";
import { runSolverProcess } from "./run_solver_process.ts";
import { cbcMipReport } from "./cbc_mip_report.ts";
import { solutionPath, solverInvocation } from "./solver_invocation.ts";
import { solveDirPrefix } from "./orphan_solve_dirs.ts";

/** Where and how a native solve runs. */
export interface NativeSolveSettings {
  /** Parent of the solve's temporary directory (default: the system's). */
  readonly tmpDir?: string;
  /** Milliseconds between SIGTERM and SIGKILL on abort (default 300). */
  readonly graceMs?: number;
  /** Called with the solver's pid once it started (tests check it is gone after a cancel). */
  readonly onStart?: (pid: number) => void;
  /**
   * Milliseconds a solver may run past its time limit before the runner stops it (default: 10 s
   * plus a tenth of the limit, for writing its solution). clp ignores its limit in the barrier.
   */
  readonly overrunMs?: number;
}

/** Log lines kept for reading the status and for error messages. */
const LOG_TAIL = 2000;

function emptyOutcome(
  solver: string,
  termination: SolveOutcome["termination"],
  status: string,
  solveMs: number,
  message?: string,
): SolveOutcome {
  return {
    termination,
    status,
    objective: null,
    colValue: new Float64Array(0),
    rowDual: new Float64Array(0),
    iterations: 0,
    solveMs,
    peakHeapBytes: 0,
    solver,
    ...(message === undefined ? {} : { message }),
  };
}

/** Column values by column index (by the file's identifiers, or by position). */
function byColumn(values: NativeValues, layout: LpFileLayout, numCols: number): Float64Array {
  const out = new Float64Array(numCols);
  if (values instanceof Float64Array) {
    out.set(values.subarray(0, Math.min(values.length, numCols)));
    return out;
  }
  for (const [name, value] of values) {
    const j = layout.colNames.indexOf(name);
    if (j >= 0) out[j] = value;
  }
  return out;
}

/** Row duals by LP row: each written row's dual added to its LP row (ranged halves summed). */
function byRow(values: NativeValues, layout: LpFileLayout, lp: LinearProgram): Float64Array {
  const out = new Float64Array(lp.numRows);
  if (values instanceof Float64Array) {
    const { fileRows } = layout;
    for (let r = 0; r < Math.min(fileRows.length, values.length); r++) {
      out[fileRows[r]!]! += values[r]!;
    }
    return out;
  }
  for (const [name, value] of values) {
    const i = fileRowIndex(layout, lp, name);
    if (i >= 0) out[i]! += value;
  }
  return out;
}

/**
 * The last iteration count a log states: cbc/clp "... - 12 iterations", glpsol's progress
 * lines "*    12: obj = ...", or 0.
 */
function logIterations(log: readonly string[]): number {
  for (let i = log.length - 1; i >= 0; i--) {
    const m = /(\d+) iterations/.exec(log[i]!) ?? /^\s*[*+]?\s*(\d+): obj =/.exec(log[i]!);
    if (m) return Number(m[1]);
  }
  return 0;
}

/**
 * Solves `lp` with the command-line solver `solver` (a found one, or its name, looked up on
 * PATH). Never throws for a solver failure (termination "error" with the reason); an invalid
 * time limit or gap throws RangeError as the built-in solver does.
 */
export async function solveNative(
  solver: FoundSolver | CommandLineSolver,
  lp: LinearProgram,
  options: SolveOptions = {},
  hooks: SolveHooks = {},
  settings: NativeSolveSettings = {},
): Promise<SolveOutcome> {
  const { timeLimitS, mipRelGap, threads } = options;
  if (timeLimitS !== undefined && !(timeLimitS >= 0)) {
    throw new RangeError(
      `Solver time limit must be a non-negative number of seconds, got ${timeLimitS}`,
    );
  }
  if (mipRelGap !== undefined && !(mipRelGap >= 0)) {
    throw new RangeError(`MIP relative gap must be a non-negative number, got ${mipRelGap}`);
  }
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) {
    throw new RangeError(`Threads must be a positive integer, got ${threads}`);
  }
  const found = typeof solver === "string" ? await findNativeSolver(solver) : solver;
  const name = typeof solver === "string" ? solver : solver.name;
  const spec = NATIVE_SOLVERS[name];
  if (found === undefined) {
    return emptyOutcome(
      `${spec.label} (native)`,
      "error",
      "Not installed",
      0,
      `The solver ${name} (${spec.binary}) is not installed on this machine`,
    );
  }
  const description = found.description;
  const mip = lp.integrality?.some((v) => v !== 0) === true;
  if (mip && !spec.mip) {
    return emptyOutcome(
      description,
      "error",
      "Not a MIP solver",
      0,
      `${spec.label} solves linear programs only; this model has integer variables (use cbc, ` +
        `glpk or highs)`,
    );
  }
  if (hooks.signal?.aborted) return emptyOutcome(description, "interrupted", "Interrupted", 0);

  const started = performance.now();
  const dir = await Deno.makeTempDir({
    prefix: solveDirPrefix(name),
    ...(settings.tmpDir === undefined ? {} : { dir: settings.tmpDir }),
  });
  try {
    const files = {
      lp: `${dir}/model.lp`,
      solution: `${dir}/model.sol`,
      options: `${dir}/options.txt`,
    };
    let layout: LpFileLayout;
    try {
      layout = await writeLpFile(lp, files.lp, {
        objectiveConstant: false,
        indexedNames: true,
        // glpsol numbers columns by first appearance: list all in the objective, in order.
        allColumnsInObjective: name === "glpk",
      }, hooks.signal);
    } catch (error) {
      if (hooks.signal?.aborted) {
        return emptyOutcome(description, "interrupted", "Interrupted", performance.now() - started);
      }
      return emptyOutcome(
        description,
        "error",
        "LP file not written",
        performance.now() - started,
        `Cannot write the LP file in ${dir}: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    const writeMs = performance.now() - started;
    hooks.onLog?.(
      `[native] wrote the LP file (${lp.numRows} rows, ${lp.numCols} columns) in ` +
        `${Math.round(writeMs)} ms; running ${found.path}`,
    );
    const call = solverInvocation(name, files, options, mip, layout.fileRows.length);
    for (const [path, text] of call.extraFiles) await Deno.writeTextFile(path, text);
    const log: string[] = [];
    const runStarted = performance.now();
    const overrun = limitGuard(timeLimitS, settings.overrunMs);
    const signal = hooks.signal === undefined
      ? overrun.signal
      : AbortSignal.any([hooks.signal, overrun.signal]);
    let end;
    try {
      end = await runSolverProcess(found.path, {
        args: call.args,
        cwd: dir,
        onLine: (line) => {
          log.push(line);
          if (log.length > 2 * LOG_TAIL) log.splice(0, log.length - LOG_TAIL);
          hooks.onLog?.(line);
        },
        signal,
        ...(settings.graceMs === undefined ? {} : { graceMs: settings.graceMs }),
        ...(settings.onStart === undefined ? {} : { onStart: settings.onStart }),
      });
    } catch (error) {
      return emptyOutcome(
        description,
        "error",
        "Solver error",
        performance.now() - runStarted,
        `Could not run ${found.path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      overrun.clear();
    }
    const solveMs = performance.now() - runStarted;
    if (end.interrupted && !hooks.signal?.aborted && overrun.signal.aborted) {
      hooks.onLog?.(
        `[native] ${spec.label} did not stop at its time limit of ${timeLimitS} s; ` +
          `stopped after ${(solveMs / 1000).toFixed(1)} s`,
      );
      return emptyOutcome(description, "time_limit", "Time limit (stopped by the runner)", solveMs);
    }
    if (end.interrupted) return emptyOutcome(description, "interrupted", "Interrupted", solveMs);

    let text: string | undefined;
    try {
      text = await Deno.readTextFile(solutionPath(name, files));
    } catch {
      text = undefined;
    }
    let solution: NativeSolution;
    try {
      solution = call.read(text, log);
    } catch (error) {
      solution = {
        termination: "error",
        status: "Unreadable solution",
        message: `Cannot read ${name}'s solution file: ${
          error instanceof Error ? error.message : String(error)
        }`,
      };
    }
    if (solution.termination === "error" && solution.message === undefined) {
      solution = {
        ...solution,
        message: `${spec.label} ended with "${solution.status}" (exit code ${end.code}); ` +
          `its last output: ${log.slice(-5).join(" | ")}`,
      };
    }
    if (name === "cbc" && mip && solution.mipGap === undefined) {
      solution = { ...solution, ...cbcMipReport(log, lp.offset, lp.sense) };
    }
    return toOutcome(solution, lp, layout, mip, spec.duals, description, solveMs, log);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** An AbortSignal that fires once a solve has overrun its time limit (never without one). */
function limitGuard(
  timeLimitS: number | undefined,
  overrunMs: number | undefined,
): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  if (timeLimitS === undefined || !Number.isFinite(timeLimitS)) {
    return { signal: controller.signal, clear: () => {} };
  }
  const allowMs = timeLimitS * 1000 + (overrunMs ?? 10_000 + timeLimitS * 100);
  const timer = setTimeout(() => controller.abort(), Math.min(allowMs, 2 ** 31 - 1));
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

function toOutcome(
  solution: NativeSolution,
  lp: LinearProgram,
  layout: LpFileLayout,
  mip: boolean,
  duals: boolean,
  solver: string,
  solveMs: number,
  log: readonly string[],
): SolveOutcome {
  const base = emptyOutcome(
    solver,
    solution.termination,
    solution.status,
    solveMs,
    solution.message,
  );
  const mipReport = {
    ...(mip && solution.mipGap !== undefined ? { mipGap: solution.mipGap } : {}),
    ...(mip && solution.mipDualBound !== undefined ? { mipDualBound: solution.mipDualBound } : {}),
  };
  const iterations = solution.iterations ?? logIterations(log);
  if (solution.colValues === undefined) return { ...base, iterations, ...mipReport };
  const colValue = byColumn(solution.colValues, layout, lp.numCols);
  let objective = lp.offset;
  for (let j = 0; j < lp.numCols; j++) objective += lp.colCost[j]! * colValue[j]!;
  const rowDual = !mip && duals && solution.rowDuals !== undefined
    ? byRow(solution.rowDuals, layout, lp)
    : new Float64Array(0);
  return { ...base, objective, colValue, rowDual, iterations, ...mipReport };
}
