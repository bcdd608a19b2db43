/**
 * Calliope 0.6's `demand_share_per_timestep_decision` group (`constraints/group.py`, the
 * variable in `variables.py`): the model decides a share s_c ≥ 0 of demand for each of the
 * group's producers c of the carrier, and c then meets that share of the demand at the group's
 * locations in every timestep:
 *
 *   carrier_prod[c,τ] = s_c · −Σ_d required_resource[d,τ]      (main, per c and τ)
 *   Σ_c s_c = share                                             (sum, unless share is inf)
 *
 * required_resource is a demand's resource·resource_scale (negative). With
 * `run.relax_constraint.demand_share_per_timestep_decision_main_constraint` r > 0 the main row
 * becomes two: ≥ (1 − r) and ≤ (1 + r) times the right-hand side. s_c is one column per
 * loc::tech::carrier, shared by every group naming it, as Calliope's variable is.
 */
import { at } from "../model/preprocess/resolved_model.ts";
import { INFINITY_THRESHOLD } from "../model/preprocess/quantity.ts";
import type { ResolvedGroupConstraint } from "../model/preprocess/group_constraints.ts";
import type { BuildContext } from "./build_context.ts";

/** Adds the decision columns of `g` (when new) and its main and sum rows. */
export function addDemandShareDecision(ctx: BuildContext, g: ResolvedGroupConstraint): void {
  const { model, b, index, T, ts, byId } = ctx;
  const producers = g.members.flatMap((id) => {
    const prod = index.carrierProd.get(`${id}::${g.key}`);
    return prod === undefined ? [] : [{ ltc: `${id}::${g.key}`, prod }];
  });
  const demands = (g.shareOf ?? []).flatMap((id) => {
    const lt = byId.get(id);
    return lt !== undefined && index.carrierCon.has(`${id}::${g.key}`) ? [lt] : [];
  });
  // Calliope ignores a group with nothing on either side (and warns).
  if (producers.length === 0 || demands.length === 0) return;
  const required = new Float64Array(T);
  for (const d of demands) {
    for (let t = 0; t < T; t++) {
      required[t]! += at(d.constraints.resource, t) * d.constraints.resource_scale;
    }
  }
  // prod + factor·Σ required·s against 0 (Σ required < 0): = 0, or ≥ 0 (min) and ≤ 0 (max).
  const r = model.demandShareDecisionRelaxation ?? 0;
  const rows: { suffix: string; factor: number; lower: number; upper: number }[] = r === 0
    ? [{ suffix: "", factor: 1, lower: 0, upper: 0 }]
    : [
      { suffix: ",min", factor: 1 - r, lower: 0, upper: Infinity },
      { suffix: ",max", factor: 1 + r, lower: -Infinity, upper: 0 },
    ];
  for (const { ltc, prod } of producers) {
    let share = index.demandShareDecision.get(ltc);
    if (share === undefined) {
      share = b.addColumn(`demand_share_per_timestep_decision[${ltc}]`, 0, Infinity);
      index.demandShareDecision.set(ltc, share);
    }
    for (let t = 0; t < T; t++) {
      // An infinite demand (|x| ≥ 1e15, the models' spelling of infinity) has no share to hold.
      if (!(Math.abs(required[t]!) < INFINITY_THRESHOLD)) continue;
      for (const { suffix, factor, lower, upper } of rows) {
        const name = `group_demand_share_per_timestep_decision_main_constraint[${g.group},${ltc},${
          ts[t]
        }${suffix}]`;
        b.addRow(name, lower, upper, [prod + t, share], [1, factor * required[t]!]);
      }
    }
  }
  if (Number.isFinite(g.value)) {
    const cols = producers.map((p) => index.demandShareDecision.get(p.ltc)!);
    b.addRow(
      `group_demand_share_per_timestep_decision_sum_constraint[${g.group}]`,
      g.value,
      g.value,
      cols,
      cols.map(() => 1),
    );
  }
}
