/**
 * Calliope 0.6 `constraints/group.py`: one row per group, family, sense (and carrier or cost
 * class), over the loc::techs the group covers (`resolveGroupConstraints`):
 *
 *   energy_cap      Σ energy_cap (a transmission end counts ½: each link has two ends)
 *   storage_cap     Σ storage_cap;  resource_area  Σ resource_area
 *   carrier_prod    Σ_t carrier_prod of the carrier;  carrier_con  Σ_t carrier_con (≤ 0), so
 *                   `min` means "at least as negative": limit ≥ Σ con, `max`: limit ≤ Σ con
 *   cost, cost_var, cost_investment   Σ of that part of the class's cost
 *
 * compared with the value (≤ max, ≥ min, = equals); and the shares, compared with the value
 * times the same sum over `shareOf` (Σ lhs − value·Σ rhs against 0):
 *
 *   energy_cap_share    Σ energy_cap, of supply/conversion capacity at the members' locations
 *   carrier_prod_share  Σ_t carrier_prod, of supply/conversion production at the group's locs
 *   demand_share        Σ_t carrier_prod, of −Σ_t carrier_con of demand at the group's locs
 *   net_import_share    Σ_t (prod + con) of links leaving the group's locs, of demand as above
 *   *_per_timestep      the same, one row per timestep
 *
 * and demand_share_per_timestep_decision's own columns and rows (demand_share_decision.ts).
 * Must run after `addCosts` (cost rows read the cost expressions it records).
 */
import type { ResolvedGroupConstraint } from "../model/preprocess/group_constraints.ts";
import type { BuildContext } from "./build_context.ts";
import { addDemandShareDecision } from "./demand_share_decision.ts";

const PER_TIMESTEP = new Set(["carrier_prod_share_per_timestep", "demand_share_per_timestep"]);

/** Adds `group_<family>_<sense>_constraint[<group>(,<key>)(,<timestep>)]` rows. */
export function addGroupConstraints(ctx: BuildContext): void {
  const T = ctx.model.timestamps.length;
  for (const g of ctx.model.groupConstraints ?? []) {
    if (g.family === "demand_share_per_timestep_decision") addDemandShareDecision(ctx, g);
    else if (!PER_TIMESTEP.has(g.family)) addRow(ctx, g, undefined);
    else for (let t = 0; t < T; t++) addRow(ctx, g, t);
  }
}

/** One row of `g`: over every timestep, or only timestep `step` (per-timestep families). */
function addRow(ctx: BuildContext, g: ResolvedGroupConstraint, step: number | undefined): void {
  const { model, b, index } = ctx;
  const T = model.timestamps.length;
  const terms = new Map<number, number>();
  // How many terms the share's rhs and the group's own sum contributed (before merging).
  const count = { rhs: 0, lhs: 0 };
  let side: "rhs" | "lhs" = "rhs";
  const add = (col: number | undefined, val: number) => {
    if (col === undefined) return;
    terms.set(col, (terms.get(col) ?? 0) + val);
    count[side]++;
  };
  const addTimesteps = (first: number | undefined, val = 1) => {
    if (first === undefined) return;
    if (step !== undefined) add(first + step, val);
    else for (let t = 0; t < T; t++) add(first + t, val);
  };
  const prod = (id: string) => index.carrierProd.get(`${id}::${g.key}`);
  const con = (id: string) => index.carrierCon.get(`${id}::${g.key}`);
  const share = g.shareOf !== undefined;
  if (share && !Number.isFinite(g.value)) return;
  // Σ lhs − value · Σ rhs; demand is carrier_con ≤ 0, so its rhs is −value · (−Σ con).
  for (const id of g.shareOf ?? []) {
    if (g.family === "energy_cap_share") add(index.energyCap.get(id), -g.value);
    else if (g.family.startsWith("carrier_prod_share")) addTimesteps(prod(id), -g.value);
    else addTimesteps(con(id), g.value);
  }
  side = "lhs";
  for (const id of g.members) {
    switch (g.family) {
      case "energy_cap_share":
        add(index.energyCap.get(id), 1);
        break;
      case "energy_cap":
        add(index.energyCap.get(id), ctx.byId.get(id)?.type === "transmission" ? 0.5 : 1);
        break;
      case "storage_cap":
        add(index.storageCap.get(id), 1);
        break;
      case "resource_area":
        add(index.resourceArea.get(id), 1);
        break;
      case "carrier_prod":
      case "carrier_prod_share":
      case "carrier_prod_share_per_timestep":
      case "demand_share":
      case "demand_share_per_timestep":
        addTimesteps(prod(id));
        break;
      case "net_import_share":
        addTimesteps(prod(id));
        addTimesteps(con(id));
        break;
      case "carrier_con":
        addTimesteps(con(id));
        break;
      default: {
        const cost = index.costs.get(g.key!)?.get(id);
        if (cost === undefined) break;
        const parts = g.family === "cost"
          ? [cost.investment, cost.variable]
          : [g.family === "cost_var" ? cost.variable : cost.investment];
        for (const p of parts) p.cols.forEach((c, k) => add(c, p.vals[k]!));
      }
    }
  }
  // carrier_con is compared the other way round (Calliope's equalizer(limit, lhs, what)).
  const flip = g.family === "carrier_con";
  const rhs = share ? 0 : g.value;
  const lower = g.sense === "max"
    ? (flip ? rhs : -Infinity)
    : g.sense === "min"
    ? (flip ? -Infinity : rhs)
    : rhs;
  const upper = g.sense === "max"
    ? (flip ? Infinity : rhs)
    : g.sense === "min"
    ? (flip ? rhs : Infinity)
    : rhs;
  // With no terms of its own Calliope cannot build the row; it ignores a carrier-based share
  // group with nothing to share; an infinite limit is vacuous.
  if (count.lhs === 0 || (share && g.key !== undefined && count.rhs === 0)) return;
  if (lower === -Infinity && upper === Infinity) return;
  const key = g.key === undefined ? "" : `,${g.key}`;
  const at = step === undefined ? "" : `,${model.timestamps[step]}`;
  b.addRow(
    `group_${g.family}_${g.sense}_constraint[${g.group}${key}${at}]`,
    lower,
    upper,
    [...terms.keys()],
    [...terms.values()],
  );
}
