/**
 * Calliope 0.6.10's `resample` (`calliope/time/funcs.py`) on a `TimeData`: bins of a fixed
 * length from midnight of the first resampled timestep's day (pandas `origin=start_day`),
 * labelled by their left edge, empty bins dropped; `resource` and Δτ are summed, every other
 * series averaged, and so are the weights (Calliope averages `timestep_weights` like any other
 * series, so a resampled step stands for one step of its summed length: weight 1 stays 1).
 *
 * With `subset` (the timesteps no mask picked) only those are resampled; the rest are kept as
 * they are and the two are merged in time order (Calliope's `_combine_datasets`).
 */
import type { ResampleBins } from "../preprocess/time_window.ts";
import { resampleValues } from "../preprocess/time_window.ts";
import { fixedFrequencyMs, frequencyMessage } from "./pandas_frequency.ts";
import { DAY_MS, type TimeData, type TimeOutcome } from "./time_data.ts";

const PATH = "parameters.time.function_options.resolution";

/** `data` resampled to `resolution` (`2H`, `30min`, `1D` ...), only `subset` when given. */
export function resample(
  data: TimeData,
  resolution: string,
  subset?: readonly number[],
): TimeOutcome {
  const width = fixedFrequencyMs(resolution);
  if (width === undefined) {
    return {
      ok: false,
      problems: [{ path: PATH, message: frequencyMessage("resolution", resolution) }],
    };
  }
  return { ok: true, result: { data: resampleBy(data, width, subset), warnings: [] } };
}

/** `data` resampled to bins of `width` ms; only `subset` (ascending indices) when given. */
export function resampleBy(
  data: TimeData,
  width: number,
  subset?: readonly number[],
): TimeData {
  const chosen = subset ?? data.timestamps.map((_, i) => i);
  if (chosen.length === 0) return data;
  const times = data.timestamps;
  const inSubset = new Set(chosen);
  const kept = times.map((_, i) => i).filter((i) => !inSubset.has(i));

  const origin = Math.floor(times[chosen[0]!]! / DAY_MS) * DAY_MS;
  const members: number[][] = [];
  const edges: number[] = [];
  let current = NaN;
  for (const i of chosen) {
    const bin = Math.floor((times[i]! - origin) / width);
    if (bin !== current) {
      current = bin;
      members.push([]);
      edges.push(origin + bin * width);
    }
    members.at(-1)!.push(i);
  }
  // A bin is labelled by its left edge, unless a kept timestep sits between that edge and the
  // bin's first member (Calliope would then give two steps one timestamp): then by that member.
  const keptTimes = kept.map((i) => times[i]!);
  const labels = edges.map((edge, b) => {
    const first = times[members[b]![0]!]!;
    return keptTimes.some((t) => t >= edge && t < first) ? first : edge;
  });
  const bins: ResampleBins = {
    members,
    labels,
    resolution: members.map((m) => m.reduce((sum, i) => sum + data.resolution[i]!, 0)),
  };

  // The merged timeline: bins and kept timesteps in time order.
  type Step = { time: number; bin: number } | { time: number; keep: number };
  const steps: Step[] = [
    ...labels.map((time, bin) => ({ time, bin })),
    ...kept.map((keep) => ({ time: times[keep]!, keep })),
  ].sort((a, b) => a.time - b.time);
  const merge = (values: readonly number[], how: "sum" | "mean"): number[] => {
    const binned = resampleValues(values, bins, how);
    return steps.map((s) => ("bin" in s ? binned[s.bin]! : values[s.keep]!));
  };
  return {
    timestamps: steps.map((s) => s.time),
    resolution: merge(data.resolution, "sum"),
    weights: merge(data.weights, "mean"),
    variables: data.variables.map((v) => ({
      ...v,
      values: merge(v.values, v.variable === "resource" ? "sum" : "mean"),
    })),
  };
}
