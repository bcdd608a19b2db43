/**
 * Pure statistics of a profile's values for analysts and the API: mean, minimum, maximum,
 * full-load hours, the duration curve, monthly means and one week's slice.
 *
 * Calendar: catalogue profiles drop 29 February, so steps are placed on a 365-day year. The
 * first step sits at `start`; step i sits i steps later in that calendar, and the months are
 * those of a non-leap year (March begins after 59 days, whatever the year).
 */
import { RESOLUTION_PATTERN } from "./profile_schema.ts";

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
const MINUTES_PER_DAY = 1440;
const DAYS_PER_YEAR = 365;

/** First day of each month (0-based day of a 365-day year). */
const MONTH_START_DAY = DAYS_IN_MONTH.map((_, m) =>
  DAYS_IN_MONTH.slice(0, m).reduce((a, b) => a + b, 0)
);

function nonEmpty(values: readonly number[], what: string): void {
  if (values.length === 0) throw new RangeError(`Cannot take the ${what} of no values`);
}

/** Arithmetic mean of the values, in their unit. */
export function mean(values: readonly number[]): number {
  nonEmpty(values, "mean");
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Smallest value, in the values' unit. */
export function min(values: readonly number[]): number {
  nonEmpty(values, "minimum");
  let m = Infinity;
  for (const v of values) if (v < m) m = v;
  return m;
}

/** Largest value, in the values' unit. */
export function max(values: readonly number[]): number {
  nonEmpty(values, "maximum");
  let m = -Infinity;
  for (const v of values) if (v > m) m = v;
  return m;
}

/**
 * Full-load hours of a capacity-factor series, h: the sum of the per-unit values times the step
 * length. A year of 1h steps at a constant 0.5 gives 4380 h.
 */
export function fullLoadHours(values: readonly number[], step_minutes = 60): number {
  let sum = 0;
  for (const v of values) sum += v;
  return (sum * step_minutes) / 60;
}

/** The duration curve: the values sorted from highest to lowest (a new array). */
export function durationCurve(values: readonly number[]): number[] {
  return [...values].sort((a, b) => b - a);
}

/** Step length in minutes of a resolution such as `1h` or `15min`. */
export function resolutionMinutes(resolution: string): number {
  const match = RESOLUTION_PATTERN.exec(resolution);
  if (!match) throw new SyntaxError(`"${resolution}" is not a resolution such as 1h or 15min`);
  return Number(match[1]) * (match[2] === "h" ? 60 : 1);
}

/** Minutes from 1 January 00:00 of a 365-day year to `start` (UTC, not on 29 February). */
function minuteOfYear(start: string): number {
  const t = new Date(start);
  if (Number.isNaN(t.getTime())) throw new SyntaxError(`"${start}" is not a timestamp`);
  const month = t.getUTCMonth();
  const day = t.getUTCDate();
  if (month === 1 && day === 29) {
    throw new RangeError(`${start} is 29 February, which a 365-day year does not have`);
  }
  const dayOfYear = (MONTH_START_DAY[month] ?? 0) + day - 1;
  return dayOfYear * MINUTES_PER_DAY + t.getUTCHours() * 60 + t.getUTCMinutes();
}

/** The mean of one calendar month and the number of steps it averages. */
export interface MonthlyMean {
  /** 1 = January ... 12 = December. */
  month: number;
  /** Mean in the values' unit; null when no step falls in the month. */
  mean: number | null;
  steps: number;
}

/**
 * Monthly means on a 365-day year (29 February dropped): step i lies `i × step_minutes` after
 * `start`. Steps past 31 December continue in January. Always 12 entries, January first.
 */
export function monthlyMeans(
  values: readonly number[],
  start: string,
  step_minutes = 60,
): MonthlyMean[] {
  const sums = new Array<number>(12).fill(0);
  const counts = new Array<number>(12).fill(0);
  const first = minuteOfYear(start);
  let month = 0;
  values.forEach((v, i) => {
    const day = Math.floor((first + i * step_minutes) / MINUTES_PER_DAY) % DAYS_PER_YEAR;
    // Months only move forward between steps, so the search starts at the previous month.
    if ((MONTH_START_DAY[month] ?? 0) > day) month = 0;
    while (month < 11 && (MONTH_START_DAY[month + 1] ?? DAYS_PER_YEAR) <= day) month++;
    sums[month] = (sums[month] ?? 0) + v;
    counts[month] = (counts[month] ?? 0) + 1;
  });
  return sums.map((sum, m) => {
    const steps = counts[m] ?? 0;
    return { month: m + 1, mean: steps > 0 ? sum / steps : null, steps };
  });
}

/**
 * One week of values: `week` 0 is the first 7 days from the first step, 1 the next, and so on.
 * The last week of a year is shorter (8760 h = 52 weeks and 24 h).
 */
export function weekSlice(values: readonly number[], week: number, step_minutes = 60): number[] {
  const per_week = (7 * MINUTES_PER_DAY) / step_minutes;
  if (!Number.isInteger(per_week)) {
    throw new RangeError(`a week is not a whole number of ${step_minutes}-minute steps`);
  }
  const weeks = Math.ceil(values.length / per_week);
  if (!Number.isInteger(week) || week < 0 || week >= weeks) {
    throw new RangeError(`week must be an integer from 0 to ${weeks - 1}, got ${week}`);
  }
  return values.slice(week * per_week, (week + 1) * per_week);
}

/** Summary statistics of a profile; full-load hours only for capacity factors. */
export interface ProfileStatistics {
  mean: number;
  min: number;
  max: number;
  /** h; null unless the profile is a capacity factor. */
  full_load_hours: number | null;
}

/** Mean, minimum, maximum and (for `capacity_factor`) full-load hours of a profile. */
export function profileStatistics(
  profile: { type: string; resolution: string; values: readonly number[] },
): ProfileStatistics {
  const { values } = profile;
  return {
    mean: mean(values),
    min: min(values),
    max: max(values),
    full_load_hours: profile.type === "capacity_factor"
      ? fullLoadHours(values, resolutionMinutes(profile.resolution))
      : null,
  };
}

/** Population standard deviation of the values (divides by n, as numpy's `std`), in their unit. */
export function standardDeviation(values: readonly number[]): number {
  const m = mean(values);
  let sum = 0;
  for (const v of values) sum += (v - m) ** 2;
  return Math.sqrt(sum / values.length);
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of the values, interpolated linearly between the order statistics
 * around rank `q × (n - 1)`: numpy's default method `linear` (Hyndman and Fan's definition 7).
 * `quantile([1, 2, 3, 4], 0.1)` is 1.3. Pass `sorted` when the values are sorted already.
 */
export function quantile(values: readonly number[], q: number, sorted = false): number {
  nonEmpty(values, "quantile");
  if (!(q >= 0 && q <= 1)) throw new RangeError(`q must lie in [0, 1], got ${q}`);
  const s = sorted ? values : [...values].sort((a, b) => a - b);
  const rank = q * (s.length - 1);
  const lo = Math.floor(rank);
  const below = s[lo]!;
  const above = s[Math.min(lo + 1, s.length - 1)]!;
  return below + (above - below) * (rank - lo);
}
