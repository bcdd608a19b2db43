/**
 * A run's result made ready to keep and to send: its summary for the `done` event and the full
 * result as UTF-8 JSON. Done where the result is read (in the run's Worker for the service), so
 * that the bytes can be transferred and served as they are.
 */
import type { EncodedRunResult, RunResult } from "./model_runner.ts";
import { summarizeResult } from "./result_summary.ts";

/** The result with its summary and its JSON bytes. */
export function encodeResult(result: RunResult): EncodedRunResult {
  return {
    success: result.success,
    termination: result.termination,
    termination_condition: result.termination_condition,
    objective: result.objective,
    summary: summarizeResult(result),
    json: new TextEncoder().encode(JSON.stringify(result)),
  };
}

/** The result of a run stopped before it had one (cancelled; nothing of it is kept). */
export function interruptedResult(): EncodedRunResult {
  return encodeResult({
    success: false,
    termination: "interrupted",
    termination_condition: "interrupted",
    objective: null,
  });
}

/** The full result parsed back (tests, the CLI). */
export function decodeResult(encoded: EncodedRunResult): RunResult {
  return JSON.parse(new TextDecoder().decode(encoded.json)) as RunResult;
}
