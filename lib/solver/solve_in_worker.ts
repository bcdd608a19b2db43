/**
 * Solving in a Worker per solve, so the caller's event loop stays free and a solve can be stopped
 * at once: the abort sets a shared flag that HiGHS's interrupt callbacks read at every
 * iteration, and if no outcome follows within a grace period the Worker is terminated.
 */
import type { LinearProgram } from "../lp/linear_program.ts";
import { conflictNames, type LpArrays } from "./solve_lp.ts";
import type { SolveHooks, SolveOptions, SolveOutcome } from "./solve_types.ts";
import type { SolveRequest, WorkerMessage } from "./solver_worker.ts";
import { ownBufferView } from "../concurrency/own_buffer_view.ts";

/** Settings of the Worker mechanics, for the service and for tests. */
export interface WorkerSolveSettings {
  /** Milliseconds after an abort before the Worker is terminated; default 500. */
  readonly graceMs?: number;
  /** Test-only: the Worker ignores the stop flag, so the terminate fallback is what stops it. */
  readonly ignoreStopFlag?: boolean;
}

const DEFAULT_GRACE_MS = 500;

/** The status text of a solve stopped by terminating its Worker. */
export const TERMINATED_STATUS = "Interrupted by user (worker terminated)";

/**
 * Solves `lp` with HiGHS in a new Worker, relaying each log line to `hooks.onLog`. Aborting
 * `hooks.signal` resolves with termination "interrupted" within the grace period plus the time
 * HiGHS takes to reach its next checkpoint. A Worker that fails (bad request, crash) rejects
 * with an Error carrying its message. The Worker is always terminated at the end.
 */
export function solveInWorker(
  lp: LinearProgram,
  options: SolveOptions = {},
  hooks: SolveHooks = {},
  settings: WorkerSolveSettings = {},
): Promise<SolveOutcome> {
  const { signal, onLog } = hooks;
  const graceMs = settings.graceMs ?? DEFAULT_GRACE_MS;
  const started = performance.now();
  let solver = "HiGHS (wasm)";
  const interrupted = (status: string): SolveOutcome => ({
    termination: "interrupted",
    status,
    objective: null,
    colValue: new Float64Array(0),
    rowDual: new Float64Array(0),
    iterations: 0,
    solveMs: performance.now() - started,
    peakHeapBytes: 0,
    solver,
  });
  if (signal?.aborted === true) return Promise.resolve(interrupted("Interrupted by user"));

  return new Promise<SolveOutcome>((resolve, reject) => {
    const worker = new Worker(new URL("./solver_worker.ts", import.meta.url), { type: "module" });
    const stopFlag = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;

    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(graceTimer);
      signal?.removeEventListener("abort", onAbort);
      worker.terminate();
      settle();
    };
    function onAbort() {
      Atomics.store(new Int32Array(stopFlag), 0, 1);
      // HiGHS polls the flag at every simplex and IPM checkpoint; a phase without checkpoints
      // (presolve, crossover, a long factorisation) is cut short by terminating the Worker.
      graceTimer = setTimeout(() => finish(() => resolve(interrupted(TERMINATED_STATUS))), graceMs);
    }

    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.type === "log") {
        if (!settled) onLog?.(message.line);
      } else if (message.type === "ready") {
        solver = message.solver;
      } else if (message.type === "error") {
        finish(() => reject(new Error(`Solver worker failed: ${message.message}`)));
      } else {
        const { outcome, conflictRows } = message;
        const result: SolveOutcome = conflictRows.length > 0
          ? { ...outcome, conflicts: conflictNames(conflictRows, lp.rowNames) }
          : outcome;
        finish(() => resolve(result));
      }
    };
    worker.onerror = (event: ErrorEvent) => {
      // Handled here: unhandled, a Worker's error would also be raised in this thread.
      event.preventDefault();
      finish(() => reject(new Error(`Solver worker failed: ${event.message}`)));
    };
    worker.onmessageerror = () => {
      finish(() => reject(new Error("Solver worker failed: a message could not be deserialised")));
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    // Names stay here (conflicts are named on return); the typed arrays are copied by the
    // structured clone, and the caller keeps its LP intact; a view of part of a buffer
    // (LpBuilder's) goes as a copy of just its part. (Whatever else a caller passed goes as it
    // is: the Worker checks the request.)
    const own = <A extends Float64Array | Int32Array | Uint8Array>(a: A): A =>
      ArrayBuffer.isView(a) ? ownBufferView(a) : a;
    const { matrix } = lp;
    const arrays: LpArrays = {
      numCols: lp.numCols,
      numRows: lp.numRows,
      colCost: own(lp.colCost),
      colLower: own(lp.colLower),
      colUpper: own(lp.colUpper),
      rowLower: own(lp.rowLower),
      rowUpper: own(lp.rowUpper),
      matrix: {
        ...matrix,
        starts: own(matrix.starts),
        indices: own(matrix.indices),
        values: own(matrix.values),
      },
      offset: lp.offset,
      ...(lp.sense === undefined ? {} : { sense: lp.sense }),
      ...(lp.integrality === undefined ? {} : { integrality: own(lp.integrality) }),
    };
    const request: SolveRequest = {
      lp: arrays,
      options,
      stopFlag,
      ...(settings.ignoreStopFlag === true ? { ignoreStopFlag: true } : {}),
    };
    try {
      worker.postMessage(request);
    } catch (error) {
      finish(() => reject(error instanceof Error ? error : new Error(String(error))));
    }
  });
}
