/**
 * A job's whole run in a Worker of its own (body_run_worker.ts; one kept warm from an earlier
 * run where there is one, warm_workers.ts): the raw body goes in
 * (transferred, not copied), the log, the progress and at the end the encoded result or the
 * model's problems come out. The service's thread only relays messages, so parsing a 60 MB body
 * or building an LP of millions of variables never stalls its event loop. An abort terminates
 * the Worker at once, whatever phase it is in: the service keeps nothing of a cancelled run, so
 * there is nothing for a graceful stop to save, and terminating frees the CPU and the memory.
 */
import { interruptedResult } from "./encode_result.ts";
import type { BodyRunMessage, BodyRunRequest } from "./body_run_worker.ts";
import type { BodyRun, RunHooks } from "./model_runner.ts";
import { WarmWorkers } from "./warm_workers.ts";
import { ownBufferView } from "../concurrency/own_buffer_view.ts";

/** This process's job Workers between runs. */
export const warmRunWorkers = new WarmWorkers(new URL("./body_run_worker.ts", import.meta.url));

/**
 * Runs `body` (UTF-8 JSON of either model form) in a Worker of its own. Resolves with the result or
 * the problems; rejects with an Error when the Worker fails; resolves with an `interrupted`
 * result as soon as `hooks.signal` aborts. `solver` is the solver of the run over the model's
 * own choice (`RUNNER_SOLVER`). The bytes of `body` are moved to the Worker when
 * `body` spans its whole buffer (the caller must not use them afterwards).
 */
export function runBodyInWorker(
  body: Uint8Array,
  hooks: RunHooks,
  solver?: string,
): Promise<BodyRun> {
  const { signal } = hooks;
  if (signal.aborted) return Promise.resolve({ ok: true, result: interruptedResult() });
  return new Promise<BodyRun>((resolve, reject) => {
    const worker = warmRunWorkers.take();
    let settled = false;
    /** Process groups of the command-line solvers the Worker started. */
    const solverGroups = new Set<number>();
    /** `heapBytes`: a run that ended cleanly hands its Worker back with its HiGHS heap. */
    const finish = (settle: () => void, heapBytes?: number) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      if (heapBytes === undefined) worker.terminate();
      else warmRunWorkers.give(worker, heapBytes);
      settle();
    };
    function onAbort() {
      // Terminating the Worker would leave its solver process running: that is ended first.
      for (const pid of solverGroups) killProcessGroup(pid);
      finish(() => resolve({ ok: true, result: interruptedResult() }));
    }
    const failed = (message: string) => finish(() => reject(new Error(`Run failed: ${message}`)));

    worker.onmessage = (event: MessageEvent<BodyRunMessage>) => {
      if (settled) return;
      const message = event.data;
      switch (message.type) {
        case "log":
          hooks.log(message.line);
          break;
        case "spawn":
          solverGroups.add(message.pid);
          hooks.onSpawn?.(message.pid);
          break;
        case "progress":
          hooks.progress({ phase: message.phase, pct: message.pct });
          break;
        case "invalid":
          finish(
            () => resolve({ ok: false, problems: message.problems, total: message.total }),
            message.heapBytes,
          );
          break;
        case "result":
          // A solve that ended in error may have left HiGHS broken (an abort): not kept.
          finish(
            () => resolve({ ok: true, result: message.result }),
            message.result.termination === "error" ? undefined : message.heapBytes,
          );
          break;
        case "error":
          failed(message.message);
          break;
      }
    };
    worker.onerror = (event: ErrorEvent) => {
      // Handled here: unhandled, a Worker's error would also be raised in this thread.
      event.preventDefault();
      failed(event.message);
    };
    worker.onmessageerror = () => failed("a message of the run's Worker could not be read");
    signal.addEventListener("abort", onAbort, { once: true });

    // Moved when the view is its whole buffer; otherwise the view's bytes are copied once.
    const owned = ownBufferView(body);
    const request: BodyRunRequest = { body: owned, ...(solver === undefined ? {} : { solver }) };
    try {
      worker.postMessage(request, [owned.buffer as ArrayBuffer]);
    } catch (error) {
      failed(error instanceof Error ? error.message : String(error));
    }
  });
}

/** Ends a process group at once; one that has ended already is no error. */
function killProcessGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
