/**
 * Calliope 0.6 `objective.py`.
 *
 * minmax_cost_optimization: minimise (or, with `objective_options.sense: maximize`, maximise)
 * Σ_k weight_k Σ cost, plus bigM·Σ w_τ·(unmet_demand − unused_supply) when minimising, minus it
 * when maximising (the slacks always cost). The cost part is added by costs.ts; this adds the
 * penalty on the feasibility slacks.
 *
 * check_feasibility: the constant 1 (Calliope's `obj_rule` returns 1), minimised; the solver
 * stops at any feasible point.
 */
import type { ResolvedModel } from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";

/** Adds the unmet-demand / unused-supply penalty to the objective, against its sense. */
export function addObjectivePenalty(ctx: BuildContext): void {
  const { model, b, index, T } = ctx;
  if (!model.ensureFeasibility || model.objective === "feasibility") return;
  const bigM = objectiveSense(model) === "maximize" ? -model.bigM : model.bigM;
  for (const [lc, base] of index.unmetDemand) {
    const unused = index.unusedSupply.get(lc)!;
    for (let t = 0; t < T; t++) {
      b.addCost(base + t, bigM * model.weights[t]!);
      b.addCost(unused + t, -bigM * model.weights[t]!);
    }
  }
}

/** The LP's sense: Calliope's `objective_options.sense`; a feasibility check minimises. */
export function objectiveSense(model: ResolvedModel): "minimize" | "maximize" {
  return model.objective === "feasibility" ? "minimize" : model.objectiveSense ?? "minimize";
}

/** The objective's constant term: 1 for check_feasibility (as Calliope's), else 0. */
export function objectiveOffset(model: ResolvedModel): number {
  return model.objective === "feasibility" ? 1 : 0;
}
