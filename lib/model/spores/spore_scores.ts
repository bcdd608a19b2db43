/**
 * Calliope 0.6.10's default SPORES scoring (`_cap_loc_score_default`): a loc::tech scores 100
 * when it has more energy capacity than it is forced to have (energy_cap_equals, else
 * energy_cap_min, else 0) by over 1e-3, else 0. Scores add up over the spores, starting from the
 * model's own `energy_cap` cost of the score class.
 */
import type { ResolvedLocTech, ResolvedModel } from "../preprocess/resolved_model.ts";

/** Score per loc::tech id. */
export type SporeScores = ReadonlyMap<string, number>;

const SCORE = 100;
const THRESHOLD = 1e-3;

/**
 * The loc::techs scored: those with investment costs (`loc_techs_investment_cost`) that have the
 * score class. Calliope drops the ones without it from its starting scores (dropna), so they never
 * get a score either.
 */
function scored(model: ResolvedModel, scoreClass: string): ResolvedLocTech[] {
  return model.locTechs.filter((lt) =>
    lt.sets.investmentCost && lt.costs[scoreClass] !== undefined
  );
}

/** The starting scores: each scored loc::tech's own `energy_cap` cost of the score class. */
export function initialSporeScores(model: ResolvedModel, scoreClass: string): SporeScores {
  return new Map(scored(model, scoreClass).map((lt) => [lt.id, lt.costs[scoreClass]!.energy_cap]));
}

/** This solve's scores, from its `energy_cap` table (loc::tech -> capacity). */
export function sporeScores(
  model: ResolvedModel,
  scoreClass: string,
  energyCap: Readonly<Record<string, number>>,
): SporeScores {
  const out = new Map<string, number>();
  for (const lt of scored(model, scoreClass)) {
    const c = lt.constraints;
    const forced = c.energy_cap_equals ?? c.energy_cap_min;
    out.set(lt.id, (energyCap[lt.id] ?? 0) - forced > THRESHOLD ? SCORE : 0);
  }
  return out;
}

/** `a + b` per loc::tech (the ids of `a`). */
export function addSporeScores(a: SporeScores, b: SporeScores): SporeScores {
  return new Map([...a].map(([id, v]) => [id, v + (b.get(id) ?? 0)]));
}
