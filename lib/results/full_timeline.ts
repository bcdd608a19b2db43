/**
 * The original timeline of a clustered run, rebuilt from its representative days: every original
 * day (datestep) takes the timesteps of its cluster's day, moved to its own date. It is what the
 * frontend's dispatch views and the `reconstructed_*` tables show; the solved values stay on the
 * representative timesteps (as Calliope's results do).
 */
import type { ResolvedModel } from "../model/preprocess/resolved_model.ts";
import { DAY_MS, HOUR_MS } from "../model/time/time_data.ts";
import { formatMs, timestampMs } from "../model/preprocess/time_window.ts";
import { timestepClusters } from "../model/time/timestep_clusters.ts";

/** Every timestep of the original days, and where each comes from. */
export interface FullTimeline {
  readonly timestamps: readonly string[];
  /** Per full timestep: the representative timestep whose values it shows. */
  readonly source: readonly number[];
  /** Per full timestep: its original day (index into the model's `clusters.datesteps`). */
  readonly day: readonly number[];
  /** Per full timestep: hours since its day began. */
  readonly hoursIntoDay: readonly number[];
}

/** The full timeline of a clustered model (undefined when its days were not clustered). */
export function fullTimeline(model: ResolvedModel): FullTimeline | undefined {
  const clusters = model.clusters;
  if (clusters === undefined) return undefined;
  const ms = model.timestamps.map(timestampMs);
  const midnight = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
  // Each cluster's representative day: its timesteps in the clustered timeline.
  const stepsOf = new Map<number, number[]>();
  const dayOfStep = ms.map(midnight);
  const clusterOf = timestepClusters(clusters, model.timestamps);
  for (let t = 0; t < ms.length; t++) {
    const c = clusterOf[t]!;
    const steps = stepsOf.get(c);
    if (steps === undefined) stepsOf.set(c, [t]);
    else if (dayOfStep[steps[0]!] === dayOfStep[t]) steps.push(t);
  }
  const timestamps: string[] = [];
  const source: number[] = [];
  const day: number[] = [];
  const hoursIntoDay: number[] = [];
  clusters.datesteps.forEach((date, d) => {
    for (const t of stepsOf.get(clusters.datestepCluster[d]!) ?? []) {
      const offset = ms[t]! - dayOfStep[t]!;
      timestamps.push(formatMs(date + offset));
      source.push(t);
      day.push(d);
      hoursIntoDay.push(offset / HOUR_MS);
    }
  });
  return { timestamps, source, day, hoursIntoDay };
}

/** A series on the representative timesteps, shown on the full timeline. */
export function expand(series: readonly number[], full: FullTimeline): number[] {
  return full.source.map((t) => series[t]!);
}

/** Each series of `table` expanded. */
export function expandTable(
  table: Readonly<Record<string, readonly number[]>>,
  full: FullTimeline,
): Record<string, number[]> {
  return Object.fromEntries(Object.entries(table).map(([k, s]) => [k, expand(s, full)]));
}
