/**
 * The calendar days that clustering works on (Calliope 0.6 `get_daily_timesteps` with
 * `check_uniformity`): every day must have the same timesteps (the same offsets from midnight
 * and the same Δτ), since a cluster's days are averaged timestep by timestep.
 */
import { DAY_MS, type TimeData } from "./time_data.ts";

/** The days to cluster and their common shape. */
export interface ClusteringDays {
  /** UTC ms of each day's midnight, ascending. */
  readonly dates: readonly number[];
  /** Per day, the indices of its timesteps in the input, in time order. */
  readonly steps: readonly (readonly number[])[];
  /** The timesteps of a day: their offsets from midnight (ms)... */
  readonly offsets: readonly number[];
  /** ...and their Δτ (hours). */
  readonly resolution: readonly number[];
}

/** UTC ms of the midnight of the day of `ms`. */
export function midnightOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `2005-01-01` for a UTC ms. */
export function dateLabel(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnights of the calendar days of `timestamps` (ascending), and each timestep's day. */
export function calendarDays(timestamps: readonly number[]): {
  readonly dates: number[];
  readonly dayOf: number[];
} {
  const dates: number[] = [];
  const dayOf: number[] = [];
  for (const t of timestamps) {
    const m = midnightOf(t);
    if (dates.length === 0 || dates[dates.length - 1]! !== m) dates.push(m);
    dayOf.push(dates.length - 1);
  }
  return { dates, dayOf };
}

/**
 * The days of `data` that hold the timesteps at `subset` (all when undefined), or why they
 * cannot be clustered: every day of `data` must share one shape (Calliope checks the whole
 * timeline, masked days included), and a day is clustered whole or not at all.
 */
export function clusteringDays(
  data: TimeData,
  subset?: readonly number[],
): { readonly ok: true; readonly days: ClusteringDays } | {
  readonly ok: false;
  readonly message: string;
} {
  const { dates, dayOf } = calendarDays(data.timestamps);
  const allSteps: number[][] = dates.map(() => []);
  data.timestamps.forEach((_, i) => allSteps[dayOf[i]!]!.push(i));
  const shape = (steps: readonly number[]) => ({
    offsets: steps.map((i) => data.timestamps[i]! - midnightOf(data.timestamps[i]!)),
    resolution: steps.map((i) => data.resolution[i]!),
  });
  const first = shape(allSteps[0] ?? []);
  const same = (a: readonly number[], b: readonly number[]) =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  for (let d = 1; d < dates.length; d++) {
    const s = shape(allSteps[d]!);
    if (!same(s.offsets, first.offsets) || !same(s.resolution, first.resolution)) {
      return {
        ok: false,
        message: `For clustering, timestep resolution must be uniform: every day needs the ` +
          `timesteps of ${dateLabel(dates[0]!)} (${first.resolution.length} steps of ` +
          `${describe(first.resolution)} h), but ${dateLabel(dates[d]!)} has ` +
          `${s.resolution.length} steps of ${describe(s.resolution)} h`,
      };
    }
  }
  const chosen = new Set(subset ?? data.timestamps.map((_, i) => i));
  const days: number[] = [];
  for (let d = 0; d < dates.length; d++) {
    const inSubset = allSteps[d]!.filter((i) => chosen.has(i)).length;
    if (inSubset === allSteps[d]!.length) days.push(d);
    else if (inSubset > 0) {
      return {
        ok: false,
        message: `clustering takes whole days, but only ${inSubset} of the ` +
          `${allSteps[d]!.length} timesteps of ${dateLabel(dates[d]!)} are left by the masks`,
      };
    }
  }
  if (days.length === 0) {
    return { ok: false, message: "no day is left to cluster (the masks keep every day)" };
  }
  return {
    ok: true,
    days: {
      dates: days.map((d) => dates[d]!),
      steps: days.map((d) => allSteps[d]!),
      offsets: first.offsets,
      resolution: first.resolution,
    },
  };
}

/** `[1, 1]` as "1", `[0.25, 0.5]` as "0.25, 0.5". */
function describe(values: readonly number[]): string {
  const distinct = [...new Set(values)];
  return distinct.length === 1 ? `${distinct[0]}` : values.join(", ");
}
