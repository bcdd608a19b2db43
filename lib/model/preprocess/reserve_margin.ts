/**
 * `parameters.reserve_margin` checked against the model's carriers. Calliope 0.6 silently
 * skips a carrier no technology has; we refuse it, since a typo would drop the constraint. A
 * carrier without demand is kept: Calliope still builds its (then vacuous) row.
 */
import type { ModelProblem } from "../model_problem.ts";
import type { TechCarriers } from "./carriers.ts";

/** A problem for each reserve margin whose carrier no technology produces or consumes. */
export function reserveMarginProblems(
  margins: Readonly<Record<string, number>> | undefined,
  techs: Iterable<TechCarriers>,
): ModelProblem[] {
  if (margins === undefined) return [];
  const known = new Set<string>();
  for (const t of techs) {
    for (const list of Object.values(t.tiers)) for (const c of list) known.add(c);
  }
  return Object.keys(margins).filter((c) => !known.has(c)).map((c) => ({
    path: `parameters.reserve_margin.${c}`,
    message: `no technology of the model has carrier "${c}"`,
  }));
}
