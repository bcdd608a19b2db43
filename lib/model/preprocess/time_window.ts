/**
 * The modelled timeline: timestamps parsed and written as `YYYY-MM-DDTHH:MM:SS`, `subset_time`
 * with pandas partial-string semantics, Δτ per step, and Calliope 0.6's `resample`
 * (`calliope/time/funcs.py`: pandas bins from midnight of the first day; `resource` and the
 * step length are summed, every other time-varying value averaged; empty bins dropped).
 *
 * Times are local and zone-less; they are handled as UTC milliseconds purely for arithmetic.
 */

const HOUR_MS = 3_600_000;

const STAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

/** `2005-01-01 00:00`, `2005-01-01T00:00:00`, `2005-01-01` -> `2005-01-01T00:00:00`. */
export function normalizeTimestamp(text: string): string | undefined {
  const m = STAMP.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", s = "00"] = m;
  const ms = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s);
  const out = formatMs(ms);
  // Reject impossible dates (2005-02-30) instead of letting Date roll them over.
  return out === `${y}-${mo}-${d}T${h}:${mi}:${s}` ? out : undefined;
}

/** Milliseconds of a normalised timestamp. */
export function timestampMs(normalized: string): number {
  return Date.parse(`${normalized}Z`);
}

/** A normalised timestamp from milliseconds. */
export function formatMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Start (inclusive) and end (exclusive) of the period a partial date string names. */
export function partialPeriod(text: string): { start: number; end: number } | undefined {
  const m =
    /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:[ T](\d{1,2})(?::(\d{1,2})(?::(\d{1,2}))?)?)?)?)?$/
      .exec(text.trim());
  if (!m) return undefined;
  const parts = m.slice(1).map((p) => (p === undefined ? undefined : Number(p)));
  const [y, mo, d, h, mi, s] = parts as (number | undefined)[];
  const fields = [y!, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0] as const;
  const start = Date.UTC(...fields);
  const check = new Date(start);
  if (
    check.getUTCFullYear() !== y || (mo !== undefined && check.getUTCMonth() !== mo - 1) ||
    (d !== undefined && check.getUTCDate() !== d) || (h !== undefined && h > 23) ||
    (mi !== undefined && mi > 59) || (s !== undefined && s > 59)
  ) return undefined;
  const level = parts.filter((p) => p !== undefined).length; // 1 = year ... 6 = second
  const next = [...fields] as number[];
  next[level - 1] = next[level - 1]! + 1;
  const end = Date.UTC(next[0]!, next[1]!, next[2]!, next[3]!, next[4]!, next[5]!);
  return { start, end };
}

/** The outcome of `subsetIndices`: indices kept, or why none can be. */
export type SubsetResult = { ok: true; indices: number[] } | { ok: false; message: string };

/**
 * Indices of `times` (ms, ascending) inside `subset_time`: one partial date (that whole period)
 * or an inclusive [start, end] pair (end includes its whole period, as pandas slicing does).
 */
export function subsetIndices(
  times: readonly number[],
  subset: string | readonly [string, string],
): SubsetResult {
  let start: number;
  let end: number;
  if (typeof subset === "string") {
    const p = partialPeriod(subset);
    if (!p) return { ok: false, message: `"${subset}" is not a date such as 2005-01-01` };
    ({ start, end } = p);
  } else {
    const a = partialPeriod(subset[0]);
    const b = partialPeriod(subset[1]);
    if (!a || !b) {
      return { ok: false, message: `[${subset.join(", ")}] is not a pair of dates` };
    }
    start = a.start;
    end = b.end;
    // Calliope refuses a range reaching outside the data's days (process_timeseries_data).
    const day = (ms: number) => Math.floor(ms / (24 * HOUR_MS));
    if (times.length > 0 && (day(a.start) < day(times[0]!) || day(b.start) > day(times.at(-1)!))) {
      return {
        ok: false,
        message: `subset_time range [${subset.join(", ")}] is outside the time series range [${
          formatMs(times[0]!).slice(0, 10)
        }, ${formatMs(times.at(-1)!).slice(0, 10)}]`,
      };
    }
  }
  const indices: number[] = [];
  times.forEach((t, i) => {
    if (t >= start && t < end) indices.push(i);
  });
  if (indices.length === 0) {
    return { ok: false, message: "subset_time selects no timestep of the time series" };
  }
  return { ok: true, indices };
}

/** Δτ in hours: t[τ+1] − t[τ], the last step copying the penultimate (1 h for a single step). */
export function stepResolutions(times: readonly number[]): number[] {
  if (times.length < 2) return times.map(() => 1);
  const out = times.slice(1).map((t, i) => (t - times[i]!) / HOUR_MS);
  out.push(out.at(-1)!);
  return out;
}

/** Resampling bins: member indices, the bin's label time and its summed Δτ. */
export interface ResampleBins {
  readonly members: readonly (readonly number[])[];
  readonly labels: readonly number[];
  readonly resolution: readonly number[];
}

/**
 * Bins of `hours` length from midnight of the first timestep's day (pandas `origin=start_day`),
 * labelled by their left edge; bins holding no timestep are dropped.
 */
export function resampleBins(
  times: readonly number[],
  resolution: readonly number[],
  hours: number,
): ResampleBins {
  const width = hours * HOUR_MS;
  const origin = Math.floor(times[0]! / (24 * HOUR_MS)) * 24 * HOUR_MS;
  const members: number[][] = [];
  const labels: number[] = [];
  const res: number[] = [];
  let current = NaN;
  times.forEach((t, i) => {
    const bin = Math.floor((t - origin) / width);
    if (bin !== current) {
      current = bin;
      members.push([]);
      labels.push(origin + bin * width);
      res.push(0);
    }
    members.at(-1)!.push(i);
    res[res.length - 1] = res.at(-1)! + resolution[i]!;
  });
  return { members, labels, resolution: res };
}

/** One series resampled: summed (resource) or averaged (every other value). */
export function resampleValues(
  values: readonly number[],
  bins: ResampleBins,
  how: "sum" | "mean",
): number[] {
  return bins.members.map((m) => {
    let s = 0;
    for (const i of m) s += values[i]!;
    return how === "sum" ? s : s / m.length;
  });
}
