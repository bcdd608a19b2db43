/**
 * The cluster of every timestep of a clustered timeline, masked days included: a day a mask kept
 * has cluster −1 on its timesteps in the ClusterMap and its own cluster (a cluster of one day)
 * among the datesteps, so its timesteps take that one. Storage and the rebuilt timeline then
 * treat a kept day like any representative day.
 */
import { type ClusterMap, DAY_MS } from "./time_data.ts";
import { timestampMs } from "../preprocess/time_window.ts";

/** Per timestep (`2005-01-01T00:00:00` stamps): its cluster, a kept day's own one included. */
export function timestepClusters(map: ClusterMap, timestamps: readonly string[]): number[] {
  const dayIndex = new Map(map.datesteps.map((ms, d) => [ms, d]));
  return timestamps.map((stamp, t) => {
    const c = map.timestepCluster[t]!;
    if (c >= 0) return c;
    const ms = timestampMs(stamp);
    const d = dayIndex.get(Math.floor(ms / DAY_MS) * DAY_MS);
    if (d === undefined) throw new RangeError(`timestep ${stamp} has no cluster and no day`);
    return map.datestepCluster[d]!;
  });
}
