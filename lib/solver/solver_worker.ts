/**
 * Worker entry for one solve (spawned by solve_in_worker.ts). Receives a SolveRequest, posts
 * every solver log line as it is written, then the outcome; stops when the parent sets the
 * shared flag. A malformed request throws, which the parent sees as the Worker's error event; a
 * failure during the solve is posted as an `error` message.
 */
/// <reference lib="deno.worker" />
import { loadHighsOnce, solverName } from "./highs_loader.ts";
import { type LpArrays, solveLpArrays } from "./solve_lp.ts";
import type { SolveOptions, SolveOutcome } from "./solve_types.ts";

/** What the parent sends: the LP without names, the options, and the stop flag. */
export interface SolveRequest {
  readonly lp: LpArrays;
  readonly options: SolveOptions;
  /** Int32 at index 0: non-zero asks the solve to stop. */
  readonly stopFlag: SharedArrayBuffer;
  /** Test-only: never read the flag, so only `worker.terminate()` can stop the solve. */
  readonly ignoreStopFlag?: boolean;
}

/** What the Worker posts back. */
export type WorkerMessage =
  | { readonly type: "ready"; readonly solver: string }
  | { readonly type: "log"; readonly line: string }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "outcome"; readonly outcome: SolveOutcome; readonly conflictRows: Int32Array };

function post(message: WorkerMessage, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

function checkRequest(data: unknown): SolveRequest {
  const request = data as Partial<SolveRequest> | null;
  if (
    typeof request !== "object" || request === null ||
    typeof request.lp !== "object" || request.lp === null ||
    !(request.lp.colCost instanceof Float64Array) ||
    typeof request.options !== "object" || request.options === null ||
    !(request.stopFlag instanceof SharedArrayBuffer)
  ) {
    throw new TypeError(
      "Solver worker: the message is not a solve request {lp, options, stopFlag}",
    );
  }
  return request as SolveRequest;
}

self.onmessage = (event: MessageEvent<unknown>) => {
  // Thrown synchronously on purpose: the parent receives it as the Worker's error event.
  const request = checkRequest(event.data);
  solve(request).catch((error: unknown) => {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  });
};

async function solve(request: SolveRequest): Promise<void> {
  const flag = new Int32Array(request.stopFlag);
  const highs = await loadHighsOnce();
  post({ type: "ready", solver: solverName(highs) });
  const { outcome, conflictRows } = solveLpArrays(highs, request.lp, request.options, {
    onLog: (line) => post({ type: "log", line }),
    shouldStop: () => request.ignoreStopFlag !== true && Atomics.load(flag, 0) !== 0,
  });
  // Moved, not copied; a Set because two results may be views of one buffer.
  const buffers = new Set([outcome.colValue.buffer, outcome.rowDual.buffer, conflictRows.buffer]);
  post({ type: "outcome", outcome, conflictRows }, [...buffers] as ArrayBuffer[]);
}
