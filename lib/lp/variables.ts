/**
 * Calliope 0.6 decision variables (`backend/pyomo/variables.py`) as LP columns. The cost
 * variables are not columns: costs are substituted into the objective (see costs.ts).
 */
import { interCluster } from "./cluster_storage.ts";
import type { BuildContext } from "./build_context.ts";
import { conCarriers, ltc, prodCarriers, stepName } from "./build_context.ts";

const INF = Infinity;

function timeColumns(ctx: BuildContext, family: string, key: string, lo: number, hi: number) {
  const { b, T } = ctx;
  const base = b.numCols;
  for (let t = 0; t < T; t++) b.addColumn(stepName(ctx, family, key, t), lo, hi);
  return base;
}

/** Adds every variable of section 3 of the notes and records it in the index. */
export function addVariables(ctx: BuildContext): void {
  const { model, b, index } = ctx;
  for (const lt of model.locTechs) {
    index.energyCap.set(lt.id, b.addColumn(`energy_cap[${lt.id}]`, 0, INF));
    for (const c of prodCarriers(lt)) {
      const key = ltc(lt, c);
      index.carrierProd.set(key, timeColumns(ctx, "carrier_prod", key, 0, INF));
    }
    for (const c of conCarriers(lt)) {
      const key = ltc(lt, c);
      index.carrierCon.set(key, timeColumns(ctx, "carrier_con", key, -INF, 0));
    }
    const exportCarrier = lt.constraints.export_carrier;
    if (
      lt.sets.export && exportCarrier !== undefined && index.carrierProd.has(ltc(lt, exportCarrier))
    ) {
      const key = ltc(lt, exportCarrier);
      index.carrierExport.set(key, timeColumns(ctx, "carrier_export", key, 0, INF));
    }
    if (lt.sets.store) {
      index.storageCap.set(lt.id, b.addColumn(`storage_cap[${lt.id}]`, 0, INF));
      // Between clustered days the level within a day is relative to the day's start: free.
      const floor = interCluster(ctx) ? -INF : 0;
      index.storage.set(lt.id, timeColumns(ctx, "storage", lt.id, floor, INF));
    }
    if (lt.type === "supply_plus") {
      index.resourceCap.set(lt.id, b.addColumn(`resource_cap[${lt.id}]`, 0, INF));
      index.resourceCon.set(lt.id, timeColumns(ctx, "resource_con", lt.id, 0, INF));
    }
    if (lt.sets.area) {
      index.resourceArea.set(lt.id, b.addColumn(`resource_area[${lt.id}]`, 0, INF));
    }
  }
  if (model.ensureFeasibility) {
    for (const lc of locCarriers(ctx)) {
      index.unmetDemand.set(lc, timeColumns(ctx, "unmet_demand", lc, 0, INF));
      index.unusedSupply.set(lc, timeColumns(ctx, "unused_supply", lc, -INF, 0));
    }
  }
}

/** Calliope's `loc_carriers`: every `loc::carrier` some loc_tech produces or consumes. */
export function locCarriers(ctx: BuildContext): string[] {
  const out = new Set<string>();
  for (const lt of ctx.model.locTechs) {
    for (const c of prodCarriers(lt)) out.add(`${lt.location}::${c}`);
    for (const c of conCarriers(lt)) out.add(`${lt.location}::${c}`);
  }
  return [...out];
}
