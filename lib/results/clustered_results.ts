/**
 * The result members of a clustered run: the optimised timesteps (`timesteps`, with Calliope's
 * `timestep_weights` and `timestep_cluster`), the map of original day to cluster (`datesteps`,
 * `datestep_cluster`), the level carried between days (`storage_inter_cluster`, by datestep),
 * and the original timeline rebuilt (`reconstructed`: carrier_prod, carrier_con and the storage
 * level on every original timestep, marked with a note).
 *
 * With storage between clusters the absolute level at hour h of day d is
 * SIC[d]·(1 − loss)^h + storage[τ] (Kotzur et al. 2018): the carried level decays through the
 * day, the level within the day is relative to its start.
 */
import { at, type ResolvedModel } from "../model/preprocess/resolved_model.ts";
import type { LpIndex } from "../lp/lp_index.ts";
import { formatMs } from "../model/preprocess/time_window.ts";
import { expandTable, type FullTimeline } from "./full_timeline.ts";

type SeriesTable = Record<string, number[]>;

export const RECONSTRUCTED_NOTE =
  "Rebuilt from the representative days: each original day shows its cluster's day. The " +
  "optimised values are the columnar members on `timesteps`.";

export function clusteredMembers(
  model: ResolvedModel,
  index: LpIndex,
  x: Float64Array,
  full: FullTimeline,
  carrierProd: SeriesTable,
  carrierCon: SeriesTable,
  storage: SeriesTable,
  z: (v: number) => number,
): Record<string, unknown> {
  const clusters = model.clusters!;
  const D = clusters.datesteps.length;
  const has = x.length > 0;
  const inter: SeriesTable = {};
  if (has) {
    for (const [id, base] of index.storageInterCluster) {
      inter[id] = Array.from({ length: D }, (_, d) => z(x[base + d]!));
    }
  }
  const byId = new Map(model.locTechs.map((lt) => [lt.id, lt]));
  const level: SeriesTable = {};
  for (const [id, s] of Object.entries(storage)) {
    const carried = inter[id];
    const lt = byId.get(id)!;
    level[id] = full.source.map((t, f) => {
      const decay = Math.pow(1 - at(lt.constraints.storage_loss, t), full.hoursIntoDay[f]!);
      return z(s[t]! + (carried === undefined ? 0 : carried[full.day[f]!]! * decay));
    });
  }
  return {
    timesteps: model.timestamps,
    timestep_weights: model.weights,
    timestep_cluster: clusters.timestepCluster,
    datesteps: clusters.datesteps.map((ms) => formatMs(ms).slice(0, 10)),
    datestep_cluster: clusters.datestepCluster,
    ...(index.storageInterCluster.size === 0 ? {} : { storage_inter_cluster: inter }),
    reconstructed: {
      note: RECONSTRUCTED_NOTE,
      carrier_prod: expandTable(carrierProd, full),
      carrier_con: expandTable(carrierCon, full),
      storage: level,
    },
  };
}
