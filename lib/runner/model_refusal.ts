/**
 * A refused model as a job keeps it: the first problems by JSON path, how many there were, and
 * the one-line message of the failed job (`Invalid model: <first problems>`). The backend's 400
 * of a model that cannot run is made from the same two functions, in the same words.
 */
import type { ModelProblem } from "../model/model_problem.ts";
import type { ModelRefusal } from "./model_runner.ts";

/** Most problems kept with a refused model (its status and its stream's `error` event). */
export const MAX_LISTED_PROBLEMS = 500;

/** How many problems the message names; the rest are counted. */
export const MAX_NAMED_PROBLEMS = 20;

/** The refusal of a model with these problems (copied to plain `{path, message}` records). */
export function refuseModel(problems: readonly ModelProblem[]): ModelRefusal {
  return {
    problems: problems.slice(0, MAX_LISTED_PROBLEMS).map(({ path, message }) => ({
      path,
      message,
    })),
    total: problems.length,
  };
}

/**
 * `Invalid model: a.b: must be ...; c: unknown key; and 12 more problems`: the first
 * MAX_NAMED_PROBLEMS problems by path, then how many more there were.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const refusal = refuseModel([{ path: "steps", message: "must be an integer" }]);
 * assert.equal(refusalMessage(refusal), "Invalid model: steps: must be an integer");
 * ```
 */
export function refusalMessage(refusal: ModelRefusal, title = "Invalid model"): string {
  const named = refusal.problems.slice(0, MAX_NAMED_PROBLEMS).map((p) =>
    `${p.path || "(model)"}: ${p.message}`
  );
  const more = refusal.total - named.length;
  if (more > 0) named.push(`and ${more} more problems`);
  return `${title}: ${named.join("; ")}`;
}
