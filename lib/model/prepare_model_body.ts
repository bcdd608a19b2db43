/**
 * Either model form in, one resolved model out: the frontend's own JSON is first read into a
 * ModelConfig (its notes kept for the run log), then validated and pre-processed like any other.
 */
import { isFrontendModel, readFrontendModel } from "./frontend/frontend_model.ts";
import type { ModelProblem } from "./model_problem.ts";
import type { ResolvedModel } from "./preprocess/resolved_model.ts";
import { prepareModel } from "./preprocess/resolve_model.ts";

/** Accepted (with notes on how a frontend body was read) or refused with every problem. */
export type PreparedBody =
  | { readonly ok: true; readonly model: ResolvedModel; readonly notes: readonly string[] }
  | { readonly ok: false; readonly problems: readonly ModelProblem[] };

/** Validates and pre-processes a request body in either form; never throws for bad input. */
export function prepareModelBody(body: unknown): PreparedBody {
  let notes: readonly string[] = [];
  let config: unknown = body;
  if (isFrontendModel(body)) {
    const read = readFrontendModel(body);
    if (!read.ok) return read;
    config = read.config;
    notes = read.notes;
  }
  const prepared = prepareModel(config);
  return prepared.ok ? { ...prepared, notes } : prepared;
}
