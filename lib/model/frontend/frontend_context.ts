/**
 * What the readers of the frontend's model form share: the notes they leave (decisions a user
 * should see) and the problems they find (each a 400 entry by JSON path of the submitted body).
 */
import type { ModelProblem } from "../model_problem.ts";

/** Notes and problems collected while reading one frontend model. */
export interface FrontendReadContext {
  readonly notes: string[];
  readonly problems: ModelProblem[];
}

/** A fresh, empty context. */
export function newFrontendContext(): FrontendReadContext {
  return { notes: [], problems: [] };
}
