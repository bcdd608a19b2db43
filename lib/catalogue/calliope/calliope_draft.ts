/**
 * One Calliope technology while the adapter builds it: its constraints and costs, the keys left
 * out and the notes, with the one rule for setting a key. A figure the catalogue does not give is
 * left out, so Calliope applies its own default, and the report names it.
 */
import type { CalliopeTech } from "./calliope_answer.ts";
import {
  CALLIOPE_ALLOWED,
  type CalliopeConstraintKey,
  type CalliopeCostKey,
  type CalliopeParent,
} from "./calliope_keys.ts";

/** Whether the catalogue gives a figure. */
export function given(value: number | null | undefined): value is number {
  return value !== null && value !== undefined;
}

/** Costs of one cost class by Calliope 0.6 key. */
export type CalliopeCosts = Partial<Record<CalliopeCostKey, number>>;

/** The technology being built. */
export interface CalliopeDraft {
  readonly parent: CalliopeParent;
  /** The keys Calliope 0.6 allows for the parent. */
  readonly allowed: (typeof CALLIOPE_ALLOWED)[CalliopeParent];
  /** The cost class `costs` go under. */
  readonly costClass: string;
  readonly constraints: CalliopeTech["constraints"];
  readonly costs: CalliopeCosts;
  /** Costs of the fuel's CO2 cost class. */
  readonly co2Costs: CalliopeCosts;
  /** Keys left out because the catalogue has no figure (Calliope's default applies). */
  readonly omitted: string[];
  readonly notes: string[];
  /** Serves a constraint the parent allows, else notes it; a missing figure goes to `omitted`. */
  setConstraint(key: CalliopeConstraintKey, value: number | null | undefined): void;
  /** Serves a cost; a missing figure goes to `omitted`. */
  setCost(key: CalliopeCostKey, value: number | null | undefined): void;
}

/** An empty technology of `parent` whose cost class holds only its interest rate. */
export function calliopeDraft(
  parent: CalliopeParent,
  costClass: string,
  interestRate: number,
): CalliopeDraft {
  const allowed = CALLIOPE_ALLOWED[parent];
  const constraints: CalliopeTech["constraints"] = {};
  const costs: CalliopeCosts = { interest_rate: interestRate };
  const omitted: string[] = [];
  const notes: string[] = [];
  return {
    parent,
    allowed,
    costClass,
    constraints,
    costs,
    co2Costs: {},
    omitted,
    notes,
    setConstraint(key, value) {
      if (!allowed.constraints.includes(key)) {
        if (given(value)) {
          notes.push(`constraints.${key} left out: Calliope 0.6 ${parent} has none`);
        }
      } else if (given(value)) (constraints as Record<string, number>)[key] = value;
      else omitted.push(`constraints.${key}`);
    },
    setCost(key, value) {
      if (given(value)) costs[key] = value;
      else omitted.push(`costs.${costClass}.${key}`);
    },
  };
}
