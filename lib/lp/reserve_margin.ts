/**
 * Calliope 0.6 `constraints/policy.py` `reserve_margin_constraint`: per carrier with a
 * `model.reserve_margin`, the energy capacity of every supply, supply_plus, conversion and
 * conversion_plus loc_tech producing the carrier (any output tier) covers the demand of the
 * timestep of peak demand, as power, plus the margin:
 *
 *   Σ energy_cap ≥ −Σ carrier_con[demand, t*] / Δτ(t*) · (1 + margin)
 */
import type { ResolvedLocTech, ResolvedModel } from "../model/preprocess/resolved_model.ts";
import { at } from "../model/preprocess/resolved_model.ts";
import { type BuildContext, conCarriers, ltc } from "./build_context.ts";

const SUPPLY_CONVERSION = new Set(["supply", "supply_plus", "conversion", "conversion_plus"]);

/**
 * Calliope's `max_demand_timesteps` for `carrier`: the timestep where the summed `resource` of
 * demand loc_techs with a finite resource consuming the carrier is most negative (positive sums
 * count as 0; the first on ties, so timestep 0 for a carrier without demand). The raw resource
 * is used, not resource × resource_scale, as Calliope does.
 */
export function maxDemandTimestep(model: ResolvedModel, carrier: string): number {
  const demands = model.locTechs.filter((lt) =>
    lt.type === "demand" && lt.sets.finiteResource && conCarriers(lt).includes(carrier)
  );
  let best = 0;
  let bestValue = Infinity;
  for (let t = 0; t < model.timestamps.length; t++) {
    let sum = 0;
    for (const lt of demands) sum += at(lt.constraints.resource, t);
    const value = Math.min(sum, 0);
    if (value < bestValue) {
      best = t;
      bestValue = value;
    }
  }
  return best;
}

/** Calliope's `loc_tech_carriers_supply_conversion_all` membership for `carrier`. */
function suppliesCarrier(lt: ResolvedLocTech, carrier: string): boolean {
  if (!SUPPLY_CONVERSION.has(lt.type)) return false;
  const { out, out_2, out_3 } = lt.carriers;
  return out.includes(carrier) || out_2.includes(carrier) || out_3.includes(carrier);
}

/** Adds one `reserve_margin_constraint[carrier]` row per carrier with a reserve margin. */
export function addReserveMargin(ctx: BuildContext): void {
  const { model, b, index } = ctx;
  for (const [carrier, margin] of Object.entries(model.reserveMargin ?? {})) {
    const t = maxDemandTimestep(model, carrier);
    const demandCoef = (1 + margin) / model.resolution[t]!;
    const cols: number[] = [];
    const vals: number[] = [];
    for (const lt of model.locTechs) {
      if (suppliesCarrier(lt, carrier)) {
        cols.push(index.energyCap.get(lt.id)!);
        vals.push(1);
      } else if (lt.type === "demand") {
        const con = index.carrierCon.get(ltc(lt, carrier));
        if (con === undefined) continue;
        cols.push(con + t);
        vals.push(demandCoef);
      }
    }
    // Calliope cannot build a row without terms either (no supply and no demand): none.
    if (cols.length === 0) continue;
    b.addRow(`reserve_margin_constraint[${carrier}]`, 0, Infinity, cols, vals);
  }
}
