/**
 * One SPORES solve's model, derived from the first (Calliope updates these three parameters of
 * its built backend model; we derive a new ResolvedModel and build it again): the slack group's
 * `cost_max`, the objective's cost-class weights and the score class's `energy_cap` cost.
 *
 * The score reaches the objective as Calliope's does: times the depreciation (with the spores
 * scenario's `interest_rate: 1`, 2^L/(2^L−1), ≈ 1 for lifetimes of decades), the time weight of
 * the modelled period and ½ at each end of a link.
 */
import type { ResolvedModel } from "../preprocess/resolved_model.ts";
import type { SporeScores } from "./spore_scores.ts";

/** What a spore changes in the model. */
export interface SporeInputs {
  /** The slack group whose `cost_max` rows change. */
  readonly slackGroup: string;
  /** New `cost_max` per cost class of the slack group (classes absent keep theirs). */
  readonly slackCostMax: Readonly<Record<string, number>>;
  readonly objectiveWeights: Readonly<Record<string, number>>;
  readonly scoreClass: string;
  /** `energy_cap` cost of the score class per loc::tech (loc::techs absent keep theirs). */
  readonly scores: SporeScores;
}

/** `base` with the spore's inputs. */
export function sporeModel(base: ResolvedModel, inputs: SporeInputs): ResolvedModel {
  const { scoreClass, scores } = inputs;
  const groupConstraints = base.groupConstraints?.map((g) => {
    if (g.group !== inputs.slackGroup || g.family !== "cost" || g.sense !== "max") return g;
    const value = g.key === undefined ? undefined : inputs.slackCostMax[g.key];
    return value === undefined ? g : { ...g, value };
  });
  const locTechs = base.locTechs.map((lt) => {
    const score = scores.get(lt.id);
    const k = lt.costs[scoreClass];
    if (score === undefined || k === undefined) return lt;
    return { ...lt, costs: { ...lt.costs, [scoreClass]: { ...k, energy_cap: score } } };
  });
  return {
    ...base,
    locTechs,
    objectiveWeights: { ...inputs.objectiveWeights },
    ...(groupConstraints === undefined ? {} : { groupConstraints }),
  };
}

/** The slack group's `cost_max` per cost class in `model` (Calliope's group_cost_max). */
export function slackCostMax(model: ResolvedModel, group: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of model.groupConstraints ?? []) {
    if (g.group === group && g.family === "cost" && g.sense === "max" && g.key !== undefined) {
      out[g.key] = g.value;
    }
  }
  return out;
}
