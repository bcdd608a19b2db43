/**
 * Storage when the days are clustered (Calliope 0.6 `energy_balance.py`, `dispatch.py`,
 * `lookup_clusters`; Kotzur et al. 2018, doi:10.1016/j.apenergy.2018.01.023).
 *
 * Every representative day is a date of the clustered timeline. Without `storage_inter_cluster`
 * the level is cyclic within each day: the first timestep of a day follows its last. With it the
 * level within a day starts at 0 and may go negative (`storage` is free), and the level carried
 * through the chronology of the original days is `storage_inter_cluster[d]` (≥ 0):
 *
 *   SIC[d] = (1 − loss)^24 · SIC[d−1] + storage[last timestep of cluster(d−1)]
 *   storage[τ] ≤ intra_max[cluster(τ)],  storage[τ] ≥ intra_min[cluster(τ)]
 *   SIC[d] + intra_max[cluster(d)] ≤ storage_cap,  (1 − loss)^24 · SIC[d] + intra_min[cluster(d)] ≥ 0
 *
 * (in place of storage ≤ storage_cap). The first day follows the last when storage is cyclic;
 * otherwise SIC[0] = storage_initial · storage_cap. Calliope writes storage_initial there
 * without the capacity (its storage_initial is a fraction everywhere else): we multiply.
 */
import { at, type ResolvedLocTech } from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";
import { stepName } from "./build_context.ts";
import { timestepClusters } from "../model/time/timestep_clusters.ts";

const INF = Infinity;

/** Per timestep: the first and last timestep of its calendar day in the clustered timeline. */
export interface DayBounds {
  readonly first: readonly boolean[];
  /** For a day's first timestep: that day's last timestep (else −1). */
  readonly lastOfDay: readonly number[];
}

/** Calliope's `lookup_cluster_first_timestep` / `lookup_cluster_last_timestep`. */
export function dayBounds(timestamps: readonly string[]): DayBounds {
  const first = timestamps.map((ts, t) =>
    t === 0 || timestamps[t - 1]!.slice(0, 10) !== ts.slice(0, 10)
  );
  const lastOfDay = timestamps.map(() => -1);
  let start = 0;
  for (let t = 1; t <= timestamps.length; t++) {
    if (t === timestamps.length || first[t]) {
      lastOfDay[start] = t - 1;
      start = t;
    }
  }
  return { first, lastOfDay };
}

/** Whether the LP keeps storage between clusters (clustered, and storage_inter_cluster on). */
export function interCluster(ctx: BuildContext): boolean {
  return ctx.model.clusters !== undefined && ctx.model.storageInterCluster === true;
}

/**
 * The timestep whose level `t` follows, and whether there is none (inter-cluster storage starts
 * each day at 0). Only for clustered models; `t` is not the first non-cyclic step.
 */
export function clusteredPrevious(
  ctx: BuildContext,
  bounds: DayBounds,
  t: number,
): number | "zero" {
  if (!bounds.first[t]) return t - 1;
  return interCluster(ctx) ? "zero" : bounds.lastOfDay[t]!;
}

/** Per cluster id: its representative day's last timestep in the clustered timeline. */
function lastTimestepOfCluster(
  ctx: BuildContext,
  bounds: DayBounds,
  clusterOf: readonly number[],
): Map<number, number> {
  const out = new Map<number, number>();
  for (let t = 0; t < ctx.T; t++) {
    const c = clusterOf[t]!;
    if (bounds.first[t] && !out.has(c)) out.set(c, bounds.lastOfDay[t]!);
  }
  return out;
}

/**
 * The inter-cluster columns and rows of one storing loc_tech (replacing storage_max), and its
 * storage_initial row when storage is cyclic.
 */
export function addInterClusterStorage(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { model, b, index, T } = ctx;
  const clusters = model.clusters!;
  const bounds = dayBounds(model.timestamps);
  // A day a mask kept is a cluster of its own (timestep_clusters.ts).
  const clusterOf = timestepClusters(clusters, model.timestamps);
  const lastOf = lastTimestepOfCluster(ctx, bounds, clusterOf);
  const store = index.storage.get(lt.id)!;
  const scap = index.storageCap.get(lt.id)!;
  const days = clusters.datesteps.map((ms) => new Date(ms).toISOString().slice(0, 10));
  const D = days.length;
  const sic = b.numCols;
  for (let d = 0; d < D; d++) b.addColumn(`storage_inter_cluster[${lt.id},${days[d]}]`, 0, INF);
  index.storageInterCluster.set(lt.id, sic);
  const intraMax = new Map<number, number>();
  const intraMin = new Map<number, number>();
  for (const c of [...new Set(clusterOf)].sort((a, b) => a - b)) {
    intraMax.set(c, b.addColumn(`storage_intra_cluster_max[${lt.id},${c}]`, -INF, INF));
    intraMin.set(c, b.addColumn(`storage_intra_cluster_min[${lt.id},${c}]`, -INF, INF));
  }
  for (let t = 0; t < T; t++) {
    const c = clusterOf[t]!;
    b.addRow(stepName(ctx, "storage_intra_max", lt.id, t), -INF, 0, [store + t, intraMax.get(c)!], [
      1,
      -1,
    ]);
    b.addRow(stepName(ctx, "storage_intra_min", lt.id, t), 0, INF, [store + t, intraMin.get(c)!], [
      1,
      -1,
    ]);
  }
  // The day's loss over 24 h, at the step it is carried from (storage_loss may be a series).
  const dayLoss = (step: number) => Math.pow(1 - at(lt.constraints.storage_loss, step), 24);
  for (let d = 0; d < D; d++) {
    const c = clusters.datestepCluster[d]!;
    const last = lastOf.get(c)!;
    b.addRow(`storage_inter_max[${lt.id},${days[d]}]`, -INF, 0, [sic + d, intraMax.get(c)!, scap], [
      1,
      1,
      -1,
    ]);
    b.addRow(`storage_inter_min[${lt.id},${days[d]}]`, 0, INF, [sic + d, intraMin.get(c)!], [
      dayLoss(last),
      1,
    ]);
    const row = `balance_storage_inter_cluster[${lt.id},${days[d]}]`;
    if (d === 0 && !model.cyclicStorage) {
      b.addRow(row, 0, 0, [sic, scap], [1, -(lt.constraints.storage_initial ?? 0)]);
      continue;
    }
    const prev = d === 0 ? D - 1 : d - 1;
    const prevLast = lastOf.get(clusters.datestepCluster[prev]!)!;
    b.addRow(row, 0, 0, [sic + d, sic + prev, store + prevLast], [1, -dayLoss(prevLast), -1]);
  }
  const initial = lt.constraints.storage_initial;
  if (model.cyclicStorage && initial !== undefined && D > 0) {
    const lastDayStep = lastOf.get(clusters.datestepCluster[D - 1]!)!;
    b.addRow(`storage_initial[${lt.id}]`, 0, 0, [sic + D - 1, scap], [
      dayLoss(lastDayStep),
      -initial,
    ]);
  }
}
