/**
 * Calliope 0.6.10's time masks (`calliope/time/masks.py`): each picks the timesteps to keep at
 * full resolution while the time function (resample, clustering) handles the rest.
 *
 * A mask reads one variable (`resource` by default) of one tech: the mean, per timestep, of the
 * tech's series of that variable over its locations (and cost classes), as Calliope averages
 * every dimension but time. `extreme` and `extreme_diff` first divide each tech's series by
 * their largest absolute value and take the absolute value (Calliope's `normalized_copy`).
 */
import type { ModelProblem } from "../model_problem.ts";
import { fixedFrequencyMs, frequencyMessage } from "./pandas_frequency.ts";
import { DAY_MS, type TimeData, type TimeVariable } from "./time_data.ts";

/** The timesteps a mask picked (ascending indices into `timestamps`), or its problems. */
export type MaskOutcome =
  | { readonly ok: true; readonly indices: readonly number[] }
  | { readonly ok: false; readonly problems: readonly ModelProblem[] };

/** Which series a mask reads besides its tech (Calliope's `var` and `**kwargs` dimensions). */
export interface MaskSelection {
  /** Calliope's data variable, default `resource`. */
  readonly var?: string | undefined;
  /** Only these locations of the tech (Calliope's `locs=` keyword). */
  readonly locs?: string | readonly string[] | undefined;
  /** Cost variables only: only these cost classes (Calliope's `costs=` keyword). */
  readonly costs?: string | readonly string[] | undefined;
}

/** Options of {@link zero}. */
export interface ZeroOptions extends MaskSelection {
  readonly tech: string;
}

/** Options shared by {@link extreme} and {@link extremeDiff}, with Calliope's defaults. */
export interface ExtremeSettings extends MaskSelection {
  /** `max` (default) or `min`. */
  readonly how?: "max" | "min" | undefined;
  /** Length of each period, default `1D`. */
  readonly length?: string | undefined;
  /** How many periods, default 1 (per group with `groupby_length`). */
  readonly n?: number | undefined;
  /** Look for `n` periods within each group of this length (`1D`..., `W`, `M`). */
  readonly groupby_length?: string | undefined;
  /** Extra time either side of each period, or `calendar_week`. */
  readonly padding?: string | undefined;
  /** Normalise before comparing, default true. */
  readonly normalize?: boolean | undefined;
}

/** Options of {@link extreme}. */
export interface ExtremeOptions extends ExtremeSettings {
  readonly tech: string;
}

/** Options of {@link extremeDiff}. */
export interface ExtremeDiffOptions extends ExtremeSettings {
  readonly tech0: string;
  readonly tech1: string;
}

const DEFAULT_PATH = "parameters.time.masks[0].options";

/** Timesteps where the tech's mean `var` is exactly zero (Calliope's `zero`). */
export function zero(data: TimeData, options: ZeroOptions, path = DEFAULT_PATH): MaskOutcome {
  const problems: ModelProblem[] = [];
  const s = techMean(data, options, options.tech, "tech", false, path, problems);
  if (s === undefined) return { ok: false, problems };
  const indices: number[] = [];
  s.forEach((v, i) => {
    if (v === 0) indices.push(i);
  });
  return { ok: true, indices };
}

/**
 * The `n` periods of `length` where the tech's mean `var` is largest (`how: max`) or smallest,
 * with their padding (Calliope's `extreme`).
 */
export function extreme(
  data: TimeData,
  options: ExtremeOptions,
  path = DEFAULT_PATH,
): MaskOutcome {
  const problems: ModelProblem[] = [];
  const normalize = options.normalize ?? true;
  const s = techMean(data, options, options.tech, "tech", normalize, path, problems);
  if (s === undefined) return { ok: false, problems };
  return extremePeriods(data.timestamps, s, options, path);
}

/** As {@link extreme}, on the difference `tech0 − tech1` (Calliope's `extreme_diff`). */
export function extremeDiff(
  data: TimeData,
  options: ExtremeDiffOptions,
  path = DEFAULT_PATH,
): MaskOutcome {
  const problems: ModelProblem[] = [];
  const normalize = options.normalize ?? true;
  const s0 = techMean(data, options, options.tech0, "tech0", normalize, path, problems);
  const s1 = techMean(data, options, options.tech1, "tech1", normalize, path, problems);
  if (s0 === undefined || s1 === undefined) return { ok: false, problems };
  return extremePeriods(data.timestamps, s0.map((v, i) => v - s1[i]!), options, path);
}

/** `loc::tech` -> [loc, tech] (a link end keeps its `:remote` in the tech). */
function splitLocTech(locTech: string): [string, string] {
  const at = locTech.indexOf("::");
  return [locTech.slice(0, at), locTech.slice(at + 2)];
}

function asList(value: string | readonly string[] | undefined): readonly string[] | undefined {
  return typeof value === "string" ? [value] : value;
}

/** Per timestep: the mean of the tech's selected series, normalised per tech when asked. */
function techMean(
  data: TimeData,
  options: MaskSelection,
  tech: string,
  techKey: string,
  normalize: boolean,
  path: string,
  problems: ModelProblem[],
): number[] | undefined {
  const variable = options.var ?? "resource";
  const ofVar = data.variables.filter((v) => v.variable === variable);
  if (ofVar.length === 0) {
    const names = [...new Set(data.variables.map((v) => v.variable))].sort();
    problems.push({
      path: `${path}.var`,
      message: `the model has no time series of "${variable}" (its time series are of: ${
        names.join(", ") || "nothing"
      })`,
    });
    return undefined;
  }
  const ofTech = ofVar.filter((v) => splitLocTech(v.locTech)[1] === tech);
  if (ofTech.length === 0) {
    const techs = [...new Set(ofVar.map((v) => splitLocTech(v.locTech)[1]))].sort();
    problems.push({
      path: `${path}.${techKey}`,
      message: `tech "${tech}" has no time series of "${variable}" (techs that have one: ${
        techs.join(", ")
      })`,
    });
    return undefined;
  }
  // Calliope normalises the whole variable per tech before it subsets locations.
  let scale = 1;
  if (normalize) {
    let max = 0;
    for (const v of ofTech) for (const x of v.values) max = Math.max(max, Math.abs(x));
    scale = max; // all zero: Calliope's 0/0 is NaN; we keep zeros
  }
  let chosen: readonly TimeVariable[] = ofTech;
  const locs = asList(options.locs);
  if (locs !== undefined) {
    const have = new Set(ofTech.map((v) => splitLocTech(v.locTech)[0]));
    const missing = locs.filter((l) => !have.has(l));
    if (missing.length > 0) {
      problems.push({
        path: `${path}.locs`,
        message: `tech "${tech}" has no time series of "${variable}" at ${
          missing.join(", ")
        } (it has at: ${[...have].sort().join(", ")})`,
      });
      return undefined;
    }
    chosen = chosen.filter((v) => locs.includes(splitLocTech(v.locTech)[0]));
  }
  const costs = asList(options.costs);
  if (costs !== undefined) {
    if (!variable.startsWith("cost_")) {
      problems.push({
        path: `${path}.costs`,
        message: `"${variable}" has no cost classes to choose from (only cost_* variables do)`,
      });
      return undefined;
    }
    const have = new Set(chosen.map((v) => v.costClass ?? ""));
    const missing = costs.filter((c) => !have.has(c));
    if (missing.length > 0) {
      problems.push({
        path: `${path}.costs`,
        message: `tech "${tech}" has no "${variable}" series of cost class ${missing.join(", ")}`,
      });
      return undefined;
    }
    chosen = chosen.filter((v) => costs.includes(v.costClass ?? ""));
  }
  const out = new Array<number>(data.timestamps.length).fill(0);
  for (const v of chosen) {
    v.values.forEach((x, i) => {
      out[i] = out[i]! + (normalize ? (scale === 0 ? 0 : Math.abs(x / scale)) : x);
    });
  }
  return out.map((x) => x / chosen.length);
}

/** A key per timestep for `groupby_length`: fixed lengths from the first day, weeks, months. */
function groupKey(text: string, first: number): ((t: number) => number) | undefined {
  const t = text.trim();
  if (/^1?(M|MS|ME)$/.test(t)) {
    return (ms) => {
      const d = new Date(ms);
      return d.getUTCFullYear() * 12 + d.getUTCMonth();
    };
  }
  // pandas `W` is `W-SUN`: weeks Monday to Sunday (1970-01-01, day 0, was a Thursday).
  if (/^1?W(-SUN)?$/.test(t)) return (ms) => Math.floor((Math.floor(ms / DAY_MS) + 3) / 7);
  const width = fixedFrequencyMs(t);
  if (width === undefined) return undefined;
  const origin = Math.floor(first / DAY_MS) * DAY_MS;
  return (ms) => Math.floor((ms - origin) / width);
}

function extremePeriods(
  times: readonly number[],
  values: readonly number[],
  options: ExtremeSettings,
  path: string,
): MaskOutcome {
  const problems: ModelProblem[] = [];
  const lengthText = options.length ?? "1D";
  const length = fixedFrequencyMs(lengthText);
  if (length === undefined) {
    problems.push({ path: `${path}.length`, message: frequencyMessage("length", lengthText) });
  }
  const n = options.n ?? 1;
  if (!Number.isInteger(n) || n < 1) {
    problems.push({ path: `${path}.n`, message: `n must be a whole number from 1, not ${n}` });
  }
  const week = options.padding === "calendar_week";
  let padding = 0;
  if (options.padding !== undefined && !week) {
    const p = fixedFrequencyMs(options.padding);
    if (p === undefined) {
      problems.push({
        path: `${path}.padding`,
        message: `${frequencyMessage("padding", options.padding)}, or calendar_week`,
      });
    } else padding = p;
  }
  if (week && (n !== 1 || (length !== undefined && length !== DAY_MS))) {
    problems.push({
      path: `${path}.padding`,
      message: "calendar_week padding needs n: 1 and length: 1D (as in Calliope)",
    });
  }
  let groups: number[][] = [times.map((_, i) => i)];
  if (options.groupby_length !== undefined && times.length > 0) {
    const key = groupKey(options.groupby_length, times[0]!);
    if (key === undefined) {
      problems.push({
        path: `${path}.groupby_length`,
        message: `${frequencyMessage("groupby_length", options.groupby_length)}; or W, M`,
      });
    } else {
      groups = [];
      let current = NaN;
      times.forEach((t, i) => {
        const k = key(t);
        if (k !== current) {
          current = k;
          groups.push([]);
        }
        groups.at(-1)!.push(i);
      });
    }
  }
  if (problems.length > 0 || length === undefined) return { ok: false, problems };
  const picked = new Set<number>();
  for (const members of groups) {
    const got = pickPeriods(times, values, members, length, n, options.how ?? "max", padding);
    if (typeof got === "number") {
      problems.push({
        path: `${path}.n`,
        message: `n is ${n}, but the data${
          groups.length > 1 ? " of a group of groupby_length" : ""
        } has only ${got} period(s) of length ${lengthText}`,
      });
      return { ok: false, problems };
    }
    for (const i of got) picked.add(i);
  }
  if (week) return { ok: true, indices: calendarWeeks(times, [...picked].sort((a, b) => a - b)) };
  return { ok: true, indices: [...picked].sort((a, b) => a - b) };
}

/**
 * Among `members` (ascending), the `n` periods of `length` ms, binned from midnight of the first
 * member's day (pandas `Grouper`), whose mean is largest (or smallest; ties go to the earlier
 * period, as `idxmax` does); each with `padding` either side, cut to `members`. Returns the
 * number of periods instead when there are fewer than `n`.
 */
function pickPeriods(
  times: readonly number[],
  values: readonly number[],
  members: readonly number[],
  length: number,
  n: number,
  how: "max" | "min",
  padding: number,
): number[] | number {
  const origin = Math.floor(times[members[0]!]! / DAY_MS) * DAY_MS;
  const periods: { key: number; sum: number; count: number }[] = [];
  for (const i of members) {
    const key = Math.floor((times[i]! - origin) / length);
    if (periods.at(-1)?.key !== key) periods.push({ key, sum: 0, count: 0 });
    const p = periods.at(-1)!;
    p.sum += values[i]!;
    p.count++;
  }
  if (n > periods.length) return periods.length;
  const means = periods.map((p) => p.sum / p.count);
  const left = periods.map((_, k) => k);
  const out: number[] = [];
  for (let pick = 0; pick < n; pick++) {
    let best = 0;
    for (let j = 1; j < left.length; j++) {
      const m = means[left[j]!]!;
      const b = means[left[best]!]!;
      if (how === "max" ? m > b : m < b) best = j;
    }
    const key = periods[left[best]!]!.key;
    left.splice(best, 1);
    // Calliope slices [start − padding, end + padding] and drops the last timestep: for a
    // period inside the data that is the half-open interval kept here.
    const start = origin + key * length - padding;
    const end = origin + (key + 1) * length + padding;
    for (const i of members) if (times[i]! >= start && times[i]! < end) out.push(i);
  }
  return out;
}

/**
 * Calliope's `calendar_week` padding of each picked day: the 6 - weekday days before it and the
 * weekday days after it (Monday = 0), so a week always ends on the day's weekday + 6 mod 7.
 */
function calendarWeeks(times: readonly number[], days: readonly number[]): number[] {
  const byDay = new Map<number, number[]>();
  for (const i of days) {
    const day = Math.floor(times[i]! / DAY_MS);
    byDay.set(day, [...(byDay.get(day) ?? []), i]);
  }
  const out = new Set<number>(days);
  for (const [day, members] of byDay) {
    const weekday = (day + 3) % 7; // day 0, 1970-01-01, was a Thursday
    const from = times[members[0]!]! - (6 - weekday) * DAY_MS;
    const to = times[members.at(-1)!]! + weekday * DAY_MS;
    times.forEach((t, i) => {
      if (t >= from && t <= to) out.add(i);
    });
  }
  return [...out].sort((a, b) => a - b);
}
