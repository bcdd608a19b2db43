/**
 * Levelised cost and capacity factor as Calliope 0.6 `postprocess/results.py` defines them,
 * from solved totals. A technology's key is the part of its loc_tech id after `loc::`, so a
 * link end keeps `:remote` (`ac_transmission:region2`), as Calliope's `split_loc_techs` does.
 *
 * - levelised cost, systemwide (`tech::carrier`): Σ_l cost(l::t) / Σ_{l,τ} w_τ·carrier_prod;
 *   by location (`loc::tech::carrier`): cost(l::t) / Σ_τ w_τ·carrier_prod(l::t::c).
 * - total levelised cost (`carrier`): Σ of every cost / Σ w_τ·carrier_prod of supply,
 *   supply_plus, conversion and conversion_plus technologies.
 * - capacity factor, systemwide: Σ_{l,τ} w_τ·prod / (Σ_l energy_cap · Σ_τ Δτ·w_τ); by location
 *   the same for one loc_tech (Calliope 0.6.10 reports that one per timestep; here it is the
 *   period's value). Zero capacity gives 0.
 * Ratios with a zero denominator are left out (Calliope gives inf or NaN there).
 */
import type { ResolvedLocTech, ResolvedModel } from "../model/preprocess/resolved_model.ts";

/** Per loc_tech_carrier: Σ_τ w_τ·carrier_prod (the weighted production of the period). */
export type WeightedProduction = ReadonlyMap<
  string,
  { lt: ResolvedLocTech; carrier: string; sum: number }
>;

/** `{class: {"tech::carrier" | "loc::tech::carrier": cost per unit produced}}`. */
export function levelisedCost(
  costs: Readonly<Record<string, Readonly<Record<string, number>>>>,
  production: WeightedProduction,
): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [cls, byLt] of Object.entries(costs)) {
    const table: Record<string, number> = {};
    const techCost = new Map<string, number>();
    for (const [id, v] of Object.entries(byLt)) {
      const t = techOf(id);
      techCost.set(t, (techCost.get(t) ?? 0) + v);
    }
    const techProd = new Map<string, number>();
    for (const [key, p] of production) {
      const tk = `${techOf(p.lt.id)}::${p.carrier}`;
      techProd.set(tk, (techProd.get(tk) ?? 0) + p.sum);
      const c = byLt[p.lt.id] ?? 0;
      if (p.sum !== 0) table[key] = c / p.sum;
    }
    for (const [tk, sum] of techProd) {
      const c = techCost.get(tk.slice(0, tk.lastIndexOf("::"))) ?? 0;
      if (sum !== 0) table[tk] = c / sum;
    }
    out[cls] = table;
  }
  return out;
}

const SUPPLY_LIKE = new Set(["supply", "supply_plus", "conversion", "conversion_plus"]);

/** `{class: {carrier: Σ cost / Σ w·prod of supply and conversion techs}}`. */
export function totalLevelisedCost(
  costs: Readonly<Record<string, Readonly<Record<string, number>>>>,
  production: WeightedProduction,
): Record<string, Record<string, number>> {
  const supplied = new Map<string, number>();
  for (const p of production.values()) {
    if (!SUPPLY_LIKE.has(p.lt.type)) continue;
    supplied.set(p.carrier, (supplied.get(p.carrier) ?? 0) + p.sum);
  }
  const out: Record<string, Record<string, number>> = {};
  for (const [cls, byLt] of Object.entries(costs)) {
    let total = 0;
    for (const v of Object.values(byLt)) total += v;
    const table: Record<string, number> = {};
    for (const [carrier, sum] of supplied) if (sum !== 0) table[carrier] = total / sum;
    out[cls] = table;
  }
  return out;
}

/** `{"tech::carrier" | "loc::tech::carrier": capacity factor}`. */
export function capacityFactor(
  model: ResolvedModel,
  energyCap: Readonly<Record<string, number>>,
  production: WeightedProduction,
): Record<string, number> {
  let hours = 0;
  for (let t = 0; t < model.timestamps.length; t++) {
    hours += model.resolution[t]! * model.weights[t]!;
  }
  const out: Record<string, number> = {};
  const techProd = new Map<string, number>();
  const techCap = new Map<string, number>();
  for (const lt of model.locTechs) {
    const t = techOf(lt.id);
    techCap.set(t, (techCap.get(t) ?? 0) + (energyCap[lt.id] ?? 0));
  }
  for (const [key, p] of production) {
    const cap = energyCap[p.lt.id] ?? 0;
    out[key] = cap > 0 && hours > 0 ? p.sum / (cap * hours) : 0;
    const tk = `${techOf(p.lt.id)}::${p.carrier}`;
    techProd.set(tk, (techProd.get(tk) ?? 0) + p.sum);
  }
  for (const [tk, sum] of techProd) {
    const cap = techCap.get(tk.slice(0, tk.lastIndexOf("::"))) ?? 0;
    out[tk] = cap > 0 && hours > 0 ? sum / (cap * hours) : 0;
  }
  return out;
}

/** The technology part of a loc_tech id (`loc::tech[:remote]` -> `tech[:remote]`). */
export function techOf(locTechId: string): string {
  const i = locTechId.indexOf("::");
  return i < 0 ? locTechId : locTechId.slice(i + 2);
}
