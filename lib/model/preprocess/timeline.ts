/**
 * The model's timesteps and its time-varying values: finds every series reference of the
 * loc::techs, checks each names an existing series and column, that the series used share
 * their timestamps, cuts `subset_time`, resamples to `time_resolution_h`, and then turns any
 * value (number, infinity or reference) into a `Series` on that timeline.
 */
import type { ModelConfig, TimeSeries } from "../model_config.ts";
import type { ModelProblem } from "../model_problem.ts";
import type { Series } from "./resolved_model.ts";
import type { RawSettings } from "./loc_tech_settings.ts";
import { findSeries, isSeriesReference, parseSeriesReference } from "./series_reference.ts";
import {
  formatMs,
  normalizeTimestamp,
  type ResampleBins,
  resampleBins,
  resampleValues,
  stepResolutions,
  subsetIndices,
  timestampMs,
} from "./time_window.ts";
import { toNumber } from "./quantity.ts";
import { didYouMean } from "../key_suggestions.ts";

/** The modelled timeline and a way to put values on it. */
export interface Timeline {
  readonly timestamps: readonly string[];
  /** Δτ in hours. */
  readonly resolution: readonly number[];
  /**
   * `value` on the timeline: `resource` values are summed when resampling, others averaged
   * (Calliope's `resample`). Constants stay constants unless resampling sums them.
   */
  value(value: unknown, kind: "resource" | "other", location: string, path: string): Series;
}

/** What the timeline needs to know of a loc::tech. */
export interface SeriesUser {
  readonly id: string;
  readonly location: string;
  readonly settings: RawSettings;
}

const SERIES_CONSTRAINTS = [
  "energy_eff",
  "energy_ramping",
  "parasitic_eff",
  "resource",
  "resource_eff",
  "storage_loss",
];
const SERIES_COSTS = ["export", "om_con", "om_prod"];

/** Builds the timeline; pushes problems and returns undefined when it cannot. */
export function buildTimeline(
  config: ModelConfig,
  users: readonly SeriesUser[],
  problems: ModelProblem[],
): Timeline | undefined {
  const before = problems.length;
  // Series usually share their timestamps: each distinct stamp is parsed once.
  const stamps = new Map<string, string | undefined>();
  const normalized = config.timeSeries.map((s, i) => checkSeries(s, i, problems, stamps));
  const used = new Map<number, string>(); // series index -> first reference using it
  let resourceIsSeries = false;
  const visit = (value: unknown, location: string, path: string, key: string) => {
    if (!isSeriesReference(value)) return;
    const ref = parseSeriesReference(value);
    if (!ref) {
      problems.push({ path, message: `"${value}" is not a reference like file=ID.csv:column` });
      return;
    }
    const found = findSeries(config.timeSeries, ref.file);
    if (!found) {
      problems.push({
        path,
        message: `time series "${bareId(ref.file)}" referenced by "${value}" does not exist${
          didYouMean(bareId(ref.file), config.timeSeries.map((s) => bareId(s.id)))
        }`,
      });
      return;
    }
    const column = ref.column ?? location;
    if (!Object.hasOwn(found.entry.columns, column)) {
      problems.push({
        path,
        message:
          `time series "${found.entry.id}" has no column "${column}" (referenced by "${value}"${
            ref.column === undefined ? `, column named after location ${location}` : ""
          })${didYouMean(column, Object.keys(found.entry.columns))}`,
      });
      return;
    }
    if (!used.has(found.index)) used.set(found.index, value);
    if (key === "resource") resourceIsSeries = true;
  };
  for (const u of users) {
    for (const key of SERIES_CONSTRAINTS) {
      visit(u.settings.constraints[key], u.location, u.settings.constraintPaths[key] ?? "", key);
    }
    for (const [cls, values] of Object.entries(u.settings.costs)) {
      for (const key of SERIES_COSTS) {
        visit(values[key], u.location, u.settings.costPaths[cls]?.[key] ?? "", key);
      }
    }
  }
  if (problems.length > before) return undefined;
  if (used.size === 0) {
    problems.push({
      path: "timeSeries",
      message: "the model needs at least one time series (a file= or ts: reference in a " +
        "constraint or cost) to define its timesteps",
    });
    return undefined;
  }
  // Each series is cut to subset_time first, and only then must the series agree (Calliope's
  // process_timeseries_data): a day-long series may serve a model cut to that day.
  const [first, ...others] = [...used.keys()].sort((a, b) => a - b);
  const subset = config.parameters.subset_time;
  const cutBySeries = new Map<number, number[]>();
  const stampMs = new Map<string, number>();
  for (const i of [first!, ...others]) {
    const seriesMs = normalized[i]!.map((stamp) => {
      let ms = stampMs.get(stamp);
      if (ms === undefined) stampMs.set(stamp, ms = timestampMs(stamp));
      return ms;
    });
    if (subset === undefined) {
      cutBySeries.set(i, seriesMs.map((_, k) => k));
      continue;
    }
    const r = subsetIndices(seriesMs, subset);
    if (!r.ok) {
      problems.push({
        path: "parameters.subset_time",
        message: i === first
          ? r.message
          : `${r.message} (time series "${config.timeSeries[i]!.id}")`,
      });
      return undefined;
    }
    cutBySeries.set(i, r.indices);
  }
  const times = normalized[first!]!;
  const indices = cutBySeries.get(first!)!;
  for (const i of others) {
    const t = normalized[i]!;
    const cut = cutBySeries.get(i)!;
    if (cut.length !== indices.length || cut.some((k, n) => t[k] !== times[indices[n]!])) {
      problems.push({
        path: `timeSeries[${i}].timestamps`,
        message: `time series "${config.timeSeries[i]!.id}" has other timestamps than "${
          config.timeSeries[first!]!.id
        }"${subset === undefined ? "" : " within subset_time"}; every series used must share them`,
      });
    }
  }
  if (problems.length > before) return undefined;

  const ms = times.map(timestampMs);
  const kept = indices.map((i) => ms[i]!);
  const stepHours = stepResolutions(kept);
  const hours = config.parameters.time_resolution_h;
  const bins: ResampleBins | undefined = hours === undefined
    ? undefined
    : resampleBins(kept, stepHours, hours);
  const counts = bins?.members.map((m) => m.length);
  const uniformCount = counts !== undefined && counts.every((n) => n === counts[0]);

  const value = (v: unknown, kind: "resource" | "other", location: string, path: string) => {
    if (isSeriesReference(v)) {
      const ref = parseSeriesReference(v)!;
      const found = findSeries(config.timeSeries, ref.file);
      const column = found?.entry.columns[ref.column ?? location];
      if (!column) {
        problems.push({ path, message: `time series reference "${v}" cannot be resolved` });
        return 0;
      }
      const own = cutBySeries.get(found!.index) ?? indices;
      const cut = own.map((i) => column[i]!);
      return bins ? resampleValues(cut, bins, kind === "resource" ? "sum" : "mean") : cut;
    }
    const n = toNumber(v) ?? 0;
    // A resource given as a number sits in the same (time-indexed) variable as the series
    // resources once any resource is a series, so resampling sums it too (Calliope quirk).
    if (bins && kind === "resource" && resourceIsSeries && counts) {
      return uniformCount ? n * counts[0]! : counts.map((c) => n * c);
    }
    return n;
  };

  return {
    timestamps: bins ? bins.labels.map(formatMs) : kept.map(formatMs),
    resolution: bins ? [...bins.resolution] : stepHours,
    value,
  };
}

function bareId(id: string): string {
  return id.toLowerCase().endsWith(".csv") ? id.slice(0, -4) : id;
}

/** Normalised timestamps of one series; pushes problems for bad stamps, order or lengths. */
function checkSeries(
  s: TimeSeries,
  i: number,
  problems: ModelProblem[],
  stamps: Map<string, string | undefined>,
): string[] {
  const out: string[] = [];
  for (let k = 0; k < s.timestamps.length; k++) {
    const raw = s.timestamps[k]!;
    let n = stamps.get(raw);
    if (n === undefined && !stamps.has(raw)) stamps.set(raw, n = normalizeTimestamp(raw));
    if (n === undefined) {
      problems.push({
        path: `timeSeries[${i}].timestamps[${k}]`,
        message: `"${s.timestamps[k]}" is not a timestamp like 2005-01-01 00:00:00`,
      });
      return out;
    }
    if (out.length > 0 && n <= out.at(-1)!) {
      problems.push({
        path: `timeSeries[${i}].timestamps[${k}]`,
        message: `timestamps must ascend: ${n} follows ${out.at(-1)}`,
      });
      return out;
    }
    out.push(n);
  }
  for (const [name, values] of Object.entries(s.columns)) {
    if (values.length !== s.timestamps.length) {
      problems.push({
        path: `timeSeries[${i}].columns.${name}`,
        message: `${values.length} values for ${s.timestamps.length} timestamps`,
      });
    }
  }
  return out;
}
