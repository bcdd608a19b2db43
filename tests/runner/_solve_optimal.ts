/** Solving a model body through the runner's real pipeline, for tests that check its results. */
import assert from "node:assert/strict";
import type { ModelRunner, RunResult } from "../../lib/runner/model_runner.ts";

/**
 * Prepares `body` (either form) with `runner` and solves it, with no log, progress or abort;
 * the model must be accepted (its problems are the failure message) and the run end optimal.
 */
export async function solveOptimal(runner: ModelRunner, body: unknown): Promise<RunResult> {
  const prepared = runner.prepare(body);
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems, null, 2));
  const result = await runner.run(prepared.model, {
    log: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  });
  assert.equal(result.termination, "optimal");
  return result;
}
