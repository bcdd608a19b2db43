/**
 * `runBody` on the calling thread, out of a runner's own `prepare` and `run`: for runners that
 * solve in-process (notebooks, the CLI, `solveIn: "process"`) and for test doubles. The parse,
 * the checks and the build block this thread while they run; the service's HiGHS runner does
 * them in a Worker instead (run_body_in_worker.ts).
 */
import { encodeResult, interruptedResult } from "./encode_result.ts";
import { refuseModel } from "./model_refusal.ts";
import type { BodyRun, ModelRunner, RunHooks } from "./model_runner.ts";
import { parseModelBytes } from "./parse_model_bytes.ts";

/** Parses, prepares and runs `body` with `runner`'s own steps. */
export async function runBodyHere(
  runner: Pick<ModelRunner, "prepare" | "run">,
  body: Uint8Array,
  hooks: RunHooks,
): Promise<BodyRun> {
  if (hooks.signal.aborted) return { ok: true, result: interruptedResult() };
  const parsed = parseModelBytes(body);
  if (!parsed.ok) return { ok: false, ...refuseModel(parsed.problems) };
  const prepared = runner.prepare(parsed.value);
  if (!prepared.ok) return { ok: false, ...refuseModel(prepared.problems) };
  return { ok: true, result: encodeResult(await runner.run(prepared.model, hooks)) };
}
