/**
 * Worker entry for one job of the service (spawned by run_body_in_worker.ts): the job's raw
 * JSON body in, and everything that costs time done here, off the service's event loop: parse,
 * validate and pre-process (`prepareModelBody`), build the LP, solve it on this Worker's own
 * HiGHS, read the result back and encode it as JSON bytes, which are transferred, not copied.
 * Log lines and progress are posted as they happen. A cancel terminates the Worker. A Worker
 * takes one request after another (warm_workers.ts keeps it between runs): nothing of a run stays
 * but HiGHS, whose heap size each final message reports.
 */
/// <reference lib="deno.worker" />
import { prepareModelBody } from "../model/prepare_model_body.ts";
import { loadHighsOnce } from "../solver/highs_loader.ts";
import { solveLp } from "../solver/solve_lp.ts";
import { encodeResult } from "./encode_result.ts";
import { refuseModel } from "./model_refusal.ts";
import type { EncodedRunResult, ModelRefusal, RunHooks, RunProgress } from "./model_runner.ts";
import { parseModelBytes } from "./parse_model_bytes.ts";
import { solveModel } from "./solve_model.ts";

/** What the parent sends: the body's bytes (transferred). */
export interface BodyRunRequest {
  readonly body: Uint8Array;
  /** The solver over the model's own choice (the operator's `RUNNER_SOLVER`). */
  readonly solver?: string;
}

/** What the Worker posts back; `invalid`, `result` and `error` end the run. */
export type BodyRunMessage =
  | { readonly type: "log"; readonly line: string }
  | { readonly type: "spawn"; readonly pid: number }
  | ({ readonly type: "progress" } & RunProgress)
  | ({ readonly type: "invalid"; readonly heapBytes: number } & ModelRefusal)
  | { readonly type: "result"; readonly result: EncodedRunResult; readonly heapBytes: number }
  | { readonly type: "error"; readonly message: string };

function post(message: BodyRunMessage, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

function checkRequest(data: unknown): BodyRunRequest {
  const request = data as Partial<BodyRunRequest> | null;
  if (typeof request !== "object" || request === null || !(request.body instanceof Uint8Array)) {
    throw new TypeError("Run worker: the message is not a run request {body: Uint8Array}");
  }
  return request as BodyRunRequest;
}

self.onmessage = (event: MessageEvent<unknown>) => {
  // Thrown synchronously on purpose: the parent receives it as the Worker's error event.
  const request = checkRequest(event.data);
  run(request).catch((error: unknown) => {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  });
};

/** HiGHS's heap now: 0 while it still compiles, Infinity when it failed to load (not reusable). */
let heapBytes = () => 0;

async function run(request: BodyRunRequest): Promise<void> {
  // HiGHS compiles while the body is parsed and checked; a failed load shows at the solve.
  const highs = loadHighsOnce();
  highs.then((h) => heapBytes = () => h.memoryBytes, () => heapBytes = () => Infinity);
  const hooks: RunHooks = {
    log: (line) => post({ type: "log", line }),
    progress: (progress) => post({ type: "progress", ...progress }),
    // Never aborted: a cancel terminates this Worker, whatever it is doing, and first kills
    // the process group of any command-line solver it started (told here).
    signal: new AbortController().signal,
    onSpawn: (pid) => post({ type: "spawn", pid }),
  };
  hooks.progress({ phase: "build", pct: 0 });
  const started = performance.now();
  const parsed = parseModelBytes(request.body);
  if (!parsed.ok) {
    return post({ type: "invalid", ...refuseModel(parsed.problems), heapBytes: heapBytes() });
  }
  const prepared = prepareModelBody(parsed.value);
  if (!prepared.ok) {
    return post({ type: "invalid", ...refuseModel(prepared.problems), heapBytes: heapBytes() });
  }
  const model = prepared.model;
  hooks.log(
    `[runner] read and checked the model in ${(performance.now() - started).toFixed(0)} ms: ` +
      `${request.body.length} bytes, ${model.locTechs.length} loc::techs, ` +
      `${model.timestamps.length} timesteps`,
  );
  const result = await solveModel(
    model,
    hooks,
    async (lp, options, solveHooks) =>
      solveLp(await highs, lp, options, solveHooks.onLog ? { onLog: solveHooks.onLog } : {}),
    prepared.notes,
    request.solver === undefined ? {} : { solver: { name: request.solver } },
  );
  const encoded = encodeResult(result);
  post({ type: "result", result: encoded, heapBytes: heapBytes() }, [encoded.json.buffer]);
}
