/**
 * One representative day per cluster (Calliope 0.6 `map_clusters_to_data`): with `how: mean`
 * the cluster's mean day, dated by its middle member (`x.index[int(len(x) / 2)]`); with
 * `how: closest` the real day nearest that mean by mean squared error over every series
 * (unnormalised), clusters that share a closest day becoming one.
 */
import type { ClusteringDays } from "./clustering_days.ts";
import { dayMatrix } from "./day_matrix.ts";
import type { TimeVariable } from "./time_data.ts";

/** A cluster's representative day. */
export interface RepresentativeDay {
  /** UTC ms of the midnight of the day that labels it. */
  readonly date: number;
  /** How many days it stands for. */
  readonly size: number;
  /** Per variable (in the input's order), its values over the day. */
  readonly values: readonly (readonly number[])[];
}

/** Representative days, indexed by cluster id (0..k-1), and each day's cluster. */
export interface RepresentativeDays {
  readonly days: readonly RepresentativeDay[];
  /** Per clustering day, its cluster (changed when clusters merge). */
  readonly labels: readonly number[];
  readonly warnings: readonly string[];
}

/**
 * The representative days of the clusters `labels` (per day of `days`, ids 0..k-1 all used).
 * Merged clusters keep the smallest id among them, and ids are then closed up in order.
 */
export function representativeDays(
  variables: readonly TimeVariable[],
  days: ClusteringDays,
  labels: readonly number[],
  how: "mean" | "closest",
): RepresentativeDays {
  const k = Math.max(...labels) + 1;
  const members: number[][] = Array.from({ length: k }, () => []);
  labels.forEach((c, d) => members[c]!.push(d));
  const means = members.map((m) => meanDay(variables, days, m));
  if (how === "mean") {
    return {
      days: members.map((m, c) => ({
        date: days.dates[m[Math.floor(m.length / 2)]!]!,
        size: m.length,
        values: means[c]!,
      })),
      labels,
      warnings: [],
    };
  }
  const lookup = dayMatrix(variables, days.steps);
  const chosen = means.map((mean) => closestRow(lookup, mean.flatMap((v) => v.map(zeroNaN))));
  // Clusters sharing a day become the one of smallest id; ids are then renumbered in order.
  const firstWithDay = new Map<number, number>();
  chosen.forEach((day, c) => {
    if (!firstWithDay.has(day)) firstWithDay.set(day, c);
  });
  const kept = [...firstWithDay.values()].sort((a, b) => a - b);
  const newId = new Map(kept.map((c, i) => [c, i]));
  const merged = labels.map((c) => newId.get(firstWithDay.get(chosen[c]!)!)!);
  const sizes = kept.map((_, i) => merged.filter((c) => c === i).length);
  const warnings = kept.length < k
    ? [
      `Creating ${k - kept.length} fewer clusters as some clusters share the same closest day`,
    ]
    : [];
  return {
    days: kept.map((c, i) => {
      const day = chosen[c]!;
      return {
        date: days.dates[day]!,
        size: sizes[i]!,
        values: variables.map((v) => days.steps[day]!.map((t) => v.values[t]!)),
      };
    }),
    labels: merged,
    warnings,
  };
}

/** Per variable, the mean over the days `members` of each timestep of the day (NaN skipped). */
function meanDay(
  variables: readonly TimeVariable[],
  days: ClusteringDays,
  members: readonly number[],
): number[][] {
  return variables.map((v) =>
    days.offsets.map((_, p) => {
      let sum = 0;
      let n = 0;
      for (const d of members) {
        const x = v.values[days.steps[d]![p]!]!;
        if (!Number.isNaN(x)) {
          sum += x;
          n++;
        }
      }
      return n === 0 ? Number.NaN : sum / n;
    })
  );
}

/** The index of the row of `rows` of least mean squared error to `target` (the first on ties). */
function closestRow(rows: readonly (readonly number[])[], target: readonly number[]): number {
  let best = 0;
  let bestError = Infinity;
  rows.forEach((row, i) => {
    const error = row.reduce((s, x, j) => s + (x - target[j]!) ** 2, 0) / row.length;
    if (error < bestError) {
      best = i;
      bestError = error;
    }
  });
  return best;
}

function zeroNaN(x: number): number {
  return Number.isNaN(x) ? 0 : x;
}
