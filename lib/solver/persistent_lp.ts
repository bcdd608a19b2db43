/**
 * One HiGHS model kept across a sequence of solves of LPs of one shape (operate mode's windows):
 * the first LP is passed whole; each later one of the same size is applied as changes only
 * (column costs and bounds, row bounds, the matrix coefficients that differ), so HiGHS keeps the
 * model and starts from the previous basis. An LP of another size replaces the model (built
 * anew). Behind an interface so that it can later live inside a job's Worker.
 */
import type { LinearProgram } from "../lp/linear_program.ts";
import { columnWise, rowWise } from "../lp/sparse_matrix.ts";
import { type Highs, solverName } from "./highs_loader.ts";
import type { SolveHooks, SolveOptions, SolveOutcome } from "./solve_types.ts";
import { modelStatusText, terminationOf } from "./termination.ts";
import { highsModelData, infoNumber } from "./highs_model_data.ts";
import { LineRelay, watchSolve } from "./highs_callbacks.ts";

/** How a solve reached HiGHS. */
export interface PersistentSolveStats {
  /** "built": the model was passed whole; "updated": only changes were applied. */
  readonly mode: "built" | "updated";
  /** Time to pass the model or apply the changes (ms). */
  readonly loadMs: number;
  readonly changedCosts: number;
  readonly changedColBounds: number;
  readonly changedRowBounds: number;
  readonly changedCoefficients: number;
}

/** A solver that keeps its model between solves. */
export interface PersistentLpSolver {
  solve(
    lp: LinearProgram,
    options: SolveOptions,
    hooks: SolveHooks,
    /**
     * What identifies the LP's rows and columns apart from their data (e.g. names without
     * timestamps): a different shape is built anew even at the same size.
     */
    shape?: string,
  ): Promise<{ outcome: SolveOutcome; stats: PersistentSolveStats }>;
  /** Frees the model. */
  dispose(): void;
}

type Model = ReturnType<Highs["createModel"]>;

/** The in-process PersistentLpSolver on `highs`. */
export function createPersistentLpSolver(highs: Highs): PersistentLpSolver {
  let model: Model | undefined;
  let loaded: LinearProgram | undefined;
  let loadedShape: string | undefined;
  let relay = new LineRelay(undefined);
  let stop: () => boolean = () => false;

  const create = (lp: LinearProgram): Model => {
    model?.dispose();
    const m = highs.createModel(highsModelData(highs, lp));
    m.options.set({ output_flag: true, log_to_console: false });
    // Registered once per model; each solve sets the relay and the stop check it reads.
    watchSolve(highs, m, (message) => relay.push(message), () => stop());
    return m;
  };

  return {
    solve(lp, options, hooks, shape) {
      if (lp.integrality?.some((v) => v !== 0)) {
        return Promise.reject(new Error("The persistent solver takes linear programs only"));
      }
      relay = new LineRelay(hooks.onLog);
      stop = () => hooks.signal?.aborted === true;
      const started = performance.now();
      let stats: Omit<PersistentSolveStats, "loadMs">;
      if (
        model && loaded && loaded.numCols === lp.numCols && loaded.numRows === lp.numRows &&
        loadedShape === shape
      ) {
        stats = { mode: "updated", ...applyChanges(highs, model, loaded, lp) };
      } else {
        model = create(lp);
        stats = {
          mode: "built",
          changedCosts: 0,
          changedColBounds: 0,
          changedRowBounds: 0,
          changedCoefficients: 0,
        };
      }
      loaded = lp;
      loadedShape = shape;
      const loadMs = performance.now() - started;
      model.options.set("solver", options.method ?? "choose");
      if (options.timeLimitS !== undefined) model.options.set("time_limit", options.timeLimitS);
      const runStarted = performance.now();
      const solver = solverName(highs);
      if (stop()) {
        return Promise.resolve({
          outcome: {
            termination: "interrupted",
            status: modelStatusText(highs.constants.modelStatus.interrupted),
            objective: null,
            colValue: new Float64Array(0),
            rowDual: new Float64Array(0),
            iterations: 0,
            solveMs: 0,
            peakHeapBytes: highs.memoryBytes,
            solver,
          },
          stats: { ...stats, loadMs },
        });
      }
      const { modelStatus } = model.run();
      relay.flush();
      const solveMs = performance.now() - runStarted;
      const termination = terminationOf(modelStatus);
      const optimal = termination === "optimal";
      const solution = optimal ? model.getSolution() : undefined;
      const outcome: SolveOutcome = {
        termination,
        status: modelStatusText(modelStatus),
        objective: optimal ? model.getObjectiveValue() : null,
        colValue: solution?.colValue ?? new Float64Array(0),
        rowDual: solution?.rowDual ?? new Float64Array(0),
        iterations: infoNumber(model, "simplex_iteration_count") +
          infoNumber(model, "ipm_iteration_count"),
        solveMs,
        peakHeapBytes: highs.memoryBytes,
        solver,
      };
      return Promise.resolve({ outcome, stats: { ...stats, loadMs } });
    },
    dispose() {
      model?.dispose();
      model = undefined;
      loaded = undefined;
      loadedShape = undefined;
    },
  };
}

/** Applies what differs between `from` (loaded) and `to` (same size) to `model`. */
function applyChanges(
  highs: Highs,
  model: Model,
  from: LinearProgram,
  to: LinearProgram,
): Omit<PersistentSolveStats, "mode" | "loadMs"> {
  const inf = (v: number) =>
    v === Infinity ? highs.infinity : v === -Infinity ? -highs.infinity : v;
  const costCols: number[] = [];
  for (let j = 0; j < to.numCols; j++) if (from.colCost[j] !== to.colCost[j]) costCols.push(j);
  if (costCols.length > 0) {
    model.changeColsCost(
      { kind: "set", indices: costCols },
      costCols.map((j) => to.colCost[j]!),
    );
  }
  const boundCols: number[] = [];
  for (let j = 0; j < to.numCols; j++) {
    if (from.colLower[j] !== to.colLower[j] || from.colUpper[j] !== to.colUpper[j]) {
      boundCols.push(j);
    }
  }
  if (boundCols.length > 0) {
    model.changeColsBounds(
      { kind: "set", indices: boundCols },
      boundCols.map((j) => inf(to.colLower[j]!)),
      boundCols.map((j) => inf(to.colUpper[j]!)),
    );
  }
  const rows: number[] = [];
  for (let i = 0; i < to.numRows; i++) {
    if (from.rowLower[i] !== to.rowLower[i] || from.rowUpper[i] !== to.rowUpper[i]) rows.push(i);
  }
  if (rows.length > 0) {
    model.changeRowsBounds(
      { kind: "set", indices: rows },
      rows.map((i) => inf(to.rowLower[i]!)),
      rows.map((i) => inf(to.rowUpper[i]!)),
    );
  }
  if (from.offset !== to.offset) model.changeObjectiveOffset(to.offset);
  // Compared line by line (a column of CSC, a row of CSR) in the new LP's compression.
  let coefficients = 0;
  const b = to.matrix;
  const a = b.format === "csr" ? rowWise(from.matrix) : columnWise(from.matrix);
  const set = (line: number, index: number, value: number) =>
    b.format === "csr"
      ? model.changeCoefficient(line, index, value)
      : model.changeCoefficient(index, line, value);
  for (let l = 0; l + 1 < b.starts.length; l++) {
    const sameShape = a.starts[l + 1]! - a.starts[l]! === b.starts[l + 1]! - b.starts[l]!;
    let same = sameShape;
    if (sameShape) {
      for (let k = 0, ka = a.starts[l]!, kb = b.starts[l]!; k < a.starts[l + 1]! - ka; k++) {
        if (a.indices[ka + k] !== b.indices[kb + k] || a.values[ka + k] !== b.values[kb + k]) {
          same = false;
          break;
        }
      }
    }
    if (same) continue;
    // The line differs: set every entry of the new line, remove those it no longer has.
    const next = new Map<number, number>();
    for (let k = b.starts[l]!; k < b.starts[l + 1]!; k++) {
      next.set(b.indices[k]!, (next.get(b.indices[k]!) ?? 0) + b.values[k]!);
    }
    const prev = new Map<number, number>();
    for (let k = a.starts[l]!; k < a.starts[l + 1]!; k++) {
      prev.set(a.indices[k]!, (prev.get(a.indices[k]!) ?? 0) + a.values[k]!);
    }
    for (const [index, value] of next) {
      if (prev.get(index) !== value) {
        set(l, index, value);
        coefficients++;
      }
    }
    for (const index of prev.keys()) {
      if (!next.has(index)) {
        set(l, index, 0);
        coefficients++;
      }
    }
  }
  return {
    changedCosts: costCols.length,
    changedColBounds: boundCols.length,
    changedRowBounds: rows.length,
    changedCoefficients: coefficients,
  };
}
