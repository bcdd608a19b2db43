/**
 * A profile's values as the time-stamped points OpenTech-DB's frontend plots,
 * `points: [{ timestamp, value }]`, beside the spec's `values`.
 *
 * The time of step k is `start + k × resolution`, except that a year of 8760 hourly steps
 * standing for a leap year has no 29 February (the catalogue's profiles drop it, as their notes
 * say): when the span from `start` to `end` holds exactly 24 h per 29 February more than the
 * steps, the steps of those days are skipped. A profile without `start` has no times to give:
 * its points are empty, and `points_note` says why (its `values` are still served).
 */
import { z } from "zod";
import type { ServedProfile } from "../served/served_profile.ts";
import { RESOLUTION_PATTERN } from "../../profiles/profile_schema.ts";

/** One time-stamped value. */
export const profilePointSchema = z.object({
  timestamp: z.string().describe("Start of the step, UTC (ISO 8601)"),
  value: z.number(),
});

/** One time-stamped value. */
export type ProfilePoint = z.infer<typeof profilePointSchema>;

/** The members a profile's data answer carries for the frontend. */
export const profilePointsShape = {
  points: z.array(profilePointSchema).describe(
    "OpenTech-DB frontend: the values with the start time of their step; empty when the " +
      "profile has no `start`",
  ),
  points_note: z.string().nullable().describe("Why `points` is empty, or null"),
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Milliseconds of a step length such as `1h` or `15min`; undefined when not one. */
export function stepMs(resolution: string): number | undefined {
  const match = RESOLUTION_PATTERN.exec(resolution);
  if (!match) return undefined;
  const size = Number(match[1]);
  return match[2] === "h" ? size * HOUR_MS : size * 60_000;
}

/** Start times (ms) of the 29 Februaries from `from` to `to`. */
function leapDays(from: number, to: number): number[] {
  const days: number[] = [];
  const first = new Date(from).getUTCFullYear();
  const last = new Date(to).getUTCFullYear();
  for (let year = first; year <= last; year++) {
    const day = Date.UTC(year, 1, 29);
    if (new Date(day).getUTCMonth() === 1 && day >= from && day <= to) days.push(day);
  }
  return days;
}

/** The start time of every step, ms; undefined when the profile has no start or step length. */
export function stepTimes(
  profile: Pick<ServedProfile, "start" | "end" | "resolution" | "n_timesteps">,
): number[] | undefined {
  const step = stepMs(profile.resolution);
  if (profile.start === null || step === undefined) return undefined;
  const start = Date.parse(profile.start);
  const n = profile.n_timesteps;
  const end = profile.end === null ? undefined : Date.parse(profile.end);
  let skipped: number[] = [];
  if (end !== undefined && step <= DAY_MS && DAY_MS % step === 0) {
    const spanned = Math.round((end - start) / step) + 1;
    const days = leapDays(start, end);
    if (spanned !== n && spanned - n === days.length * (DAY_MS / step)) skipped = days;
  }
  const times: number[] = [];
  let t = start;
  while (times.length < n) {
    if (skipped.some((day) => t >= day && t < day + DAY_MS)) {
      t += step;
      continue;
    }
    times.push(t);
    t += step;
  }
  return times;
}

/** The profile with `points` (and `points_note`) beside its `values`. */
export function withProfilePoints<T extends ServedProfile>(
  profile: T,
): T & { points: ProfilePoint[]; points_note: string | null } {
  const times = stepTimes(profile);
  if (!times) {
    return {
      ...profile,
      points: [],
      points_note: `The profile has no start time (or no step length "${profile.resolution}"): ` +
        "its values have no time stamps",
    };
  }
  return {
    ...profile,
    points: profile.values.map((value, k) => ({
      timestamp: new Date(times[k]!).toISOString().replace(".000Z", "Z"),
      value,
    })),
    points_note: null,
  };
}
