/**
 * Calliope 0.6 `objective.py` (minmax_cost_optimization): minimise Σ_k weight_k Σ cost plus
 * bigM·Σ w_τ·(unmet_demand − unused_supply). The cost part is added by costs.ts; this adds the
 * penalty on the feasibility slacks.
 */
import type { BuildContext } from "./build_context.ts";

/** Adds the unmet-demand / unused-supply penalty to the objective. */
export function addObjectivePenalty(ctx: BuildContext): void {
  const { model, b, index, T } = ctx;
  if (!model.ensureFeasibility) return;
  for (const [lc, base] of index.unmetDemand) {
    const unused = index.unusedSupply.get(lc)!;
    for (let t = 0; t < T; t++) {
      b.addCost(base + t, model.bigM * model.weights[t]!);
      b.addCost(unused + t, -model.bigM * model.weights[t]!);
    }
  }
}
