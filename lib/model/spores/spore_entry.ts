/**
 * One solve of a SPORES run as the result keeps it: its number, the inputs it was solved with
 * (Calliope keeps `cost_energy_cap` and `group_cost_max` with each spore), its costs by class and
 * every table of its result.
 */
import type { RunResult } from "../../results/run_result.ts";
import type { SporeInputs } from "./spore_model.ts";

/** The members every spore shares with the first result, left out of each entry. */
const SHARED = new Set([
  "spores",
  "warnings",
  "solver",
  "model_name",
  "timestamps",
  "tech_metadata",
  "tech_parents",
]);

/** One spore: its solve's result tables plus what identifies it. */
export interface SporeEntry {
  readonly spore: number;
  readonly termination: RunResult["termination"];
  readonly objective: number | null;
  /** Σ over loc::techs of the result's `costs`, per cost class. */
  readonly costs_by_class: Readonly<Record<string, number>>;
  /** The objective's cost-class weights of this solve. */
  readonly objective_weights: Readonly<Record<string, number>>;
  /** The slack group's cost_max per class of this solve (Calliope's group_cost_max). */
  readonly slack_cost_max: Readonly<Record<string, number>>;
  /** The score class's energy_cap cost per loc::tech of this solve (Calliope's cost_energy_cap). */
  readonly score_costs: Readonly<Record<string, number>>;
  /** energy_cap, storage_cap, costs, carrier_prod, ... as in a plan result. */
  readonly [table: string]: unknown;
}

/** Σ of `result.costs` per class (`{}` without a solution). */
export function costsByClass(result: RunResult): Record<string, number> {
  const costs = result["costs"] as Record<string, Record<string, number>> | undefined;
  const out: Record<string, number> = {};
  for (const [cls, byLt] of Object.entries(costs ?? {})) {
    out[cls] = Object.values(byLt).reduce((s, v) => s + v, 0);
  }
  return out;
}

/** The entry of spore `spore`, solved with `inputs`. */
export function sporeEntry(spore: number, result: RunResult, inputs: SporeInputs): SporeEntry {
  const tables: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(result)) if (!SHARED.has(k)) tables[k] = v;
  return {
    ...tables,
    spore,
    termination: result.termination,
    objective: result.objective,
    costs_by_class: costsByClass(result),
    objective_weights: { ...inputs.objectiveWeights },
    slack_cost_max: { ...inputs.slackCostMax },
    score_costs: Object.fromEntries(inputs.scores),
  };
}
