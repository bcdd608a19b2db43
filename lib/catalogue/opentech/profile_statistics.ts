/**
 * The summary statistics OpenTech-DB's admin panel shows beside a profile submission under
 * review (`stats`: minimum, maximum, mean, standard deviation, 10th and 90th percentile, first
 * and last time stamp).
 *
 * The standard deviation is the population one (divided by n). The percentiles interpolate
 * linearly between the order statistics around rank p × (n - 1), numpy's default `linear`
 * method, which is also how the original backend computes them. Values are given unrounded (the
 * original rounds to 6 decimals; the frontend formats them itself).
 */
import { z } from "zod";
import { max, mean, min, quantile, standardDeviation } from "../../profiles/statistics.ts";
import { isoUtc } from "./utc_timestamp.ts";

/** Summary statistics of a profile's values, in the values' unit. */
export const profileStatisticsSchema = z.object({
  v_min: z.number().describe("Smallest value"),
  v_max: z.number().describe("Largest value"),
  v_mean: z.number().describe("Arithmetic mean"),
  v_std: z.number().describe("Population standard deviation (divided by n)"),
  v_p10: z.number().describe("10th percentile, linear interpolation (numpy's default)"),
  v_p90: z.number().describe("90th percentile, linear interpolation (numpy's default)"),
  first_ts: z.string().nullable().describe("Start of the first step, UTC; null if unknown"),
  last_ts: z.string().nullable().describe("Start of the last step, UTC; null if unknown"),
});

/** Summary statistics of a profile's values. */
export type ProfileReviewStatistics = z.infer<typeof profileStatisticsSchema>;

/**
 * Statistics of the values (at least one; RangeError otherwise) and, when `times` (ms since the
 * epoch, one per value) are given, the first and last time stamp.
 *
 * `profileStatistics([1, 2, 3, 4])` has v_mean 2.5, v_std ≈ 1.118, v_p10 1.3, v_p90 3.7.
 */
export function profileStatistics(
  values: readonly number[],
  times?: readonly number[],
): ProfileReviewStatistics {
  const sorted = [...values].sort((a, b) => a - b);
  const first = times?.[0];
  const last = times?.[times.length - 1];
  return {
    v_min: min(sorted),
    v_max: max(sorted),
    v_mean: mean(values),
    v_std: standardDeviation(values),
    v_p10: quantile(sorted, 0.1, true),
    v_p90: quantile(sorted, 0.9, true),
    first_ts: first === undefined ? null : isoUtc(first),
    last_ts: last === undefined ? null : isoUtc(last),
  };
}
