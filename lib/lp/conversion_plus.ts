/**
 * Calliope 0.6 `constraints/conversion_plus.py`: several input and output carriers in tiers.
 * The primary tiers balance through energy_eff; each secondary tier is tied by carrier ratios
 * to the primary tier on its side (out_2 to the primary *output*); capacity limits the primary
 * output tier only. A carrier with ratio 0 is fixed at zero.
 */
import { at, type CarrierTier, type ResolvedLocTech } from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";
import { ltc, stepName } from "./build_context.ts";
import { hasUnits } from "./milp.ts";

const INF = Infinity;

function ratio(lt: ResolvedLocTech, tier: CarrierTier, carrier: string): number {
  return lt.constraints.carrier_ratios[tier]?.[carrier] ?? 1;
}

/** Columns (first timestep) and ratios of one tier; ratio-0 carriers are fixed at 0. */
function tierTerms(
  ctx: BuildContext,
  lt: ResolvedLocTech,
  tier: CarrierTier,
): { bases: number[]; ratios: number[] } {
  const isOut = tier.startsWith("out");
  const map = isOut ? ctx.index.carrierProd : ctx.index.carrierCon;
  const bases: number[] = [];
  const ratios: number[] = [];
  for (const c of lt.carriers[tier]) {
    const base = map.get(ltc(lt, c));
    if (base === undefined) continue;
    const r = ratio(lt, tier, c);
    if (r === 0) {
      for (let t = 0; t < ctx.T; t++) ctx.b.setBounds(base + t, 0, 0);
      continue;
    }
    bases.push(base);
    ratios.push(r);
  }
  return { bases, ratios };
}

/** Adds every conversion_plus family. */
export function addConversionPlus(ctx: BuildContext): void {
  const { model, b, index, T } = ctx;
  const dt = model.resolution;
  for (const lt of model.locTechs) {
    if (lt.type !== "conversion_plus") continue;
    const cap = index.energyCap.get(lt.id)!;
    const out = tierTerms(ctx, lt, "out");
    const inp = tierTerms(ctx, lt, "in");
    // Capacity counts every primary-tier output carrier, whatever its ratio.
    const outAll = lt.carriers.out
      .map((c) => index.carrierProd.get(ltc(lt, c)))
      .filter((x): x is number => x !== undefined);
    for (let t = 0; t < T; t++) {
      // primary: Σ prod_out/r_out = −eff·Σ con_in·r_in
      const eff = at(lt.constraints.energy_eff, t);
      b.beginRow(stepName(ctx, "balance_conversion_plus_primary", lt.id, t), 0, 0);
      out.bases.forEach((base, k) => b.term(base + t, 1 / out.ratios[k]!));
      inp.bases.forEach((base, k) => b.term(base + t, eff * inp.ratios[k]!));
      // With integer units, production is bounded per operating unit instead (milp.ts).
      if (hasUnits(lt)) continue;
      b.beginRow(stepName(ctx, "carrier_production_max_conversion_plus", lt.id, t), -INF, 0);
      for (const base of outAll) b.term(base + t, 1);
      b.term(cap, -dt[t]!);
      const minUse = lt.constraints.energy_cap_min_use;
      if (minUse) {
        b.beginRow(stepName(ctx, "carrier_production_min_conversion_plus", lt.id, t), 0, INF);
        for (const base of outAll) b.term(base + t, 1);
        b.term(cap, -dt[t]! * minUse);
      }
    }
    for (const tier of ["in_2", "in_3", "out_2", "out_3"] as const) {
      if (lt.carriers[tier].length === 0) continue;
      const primary = tier.startsWith("out") ? out : inp;
      const second = tierTerms(ctx, lt, tier);
      if (second.bases.length === 0) continue;
      for (let t = 0; t < T; t++) {
        b.beginRow(stepName(ctx, `balance_conversion_plus_${tier}`, lt.id, t), 0, 0);
        primary.bases.forEach((base, k) => b.term(base + t, 1 / primary.ratios[k]!));
        second.bases.forEach((base, k) => b.term(base + t, -1 / second.ratios[k]!));
      }
    }
  }
}
