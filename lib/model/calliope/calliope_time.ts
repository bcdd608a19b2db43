/**
 * A Calliope 0.6 model's `model.time` and `model.random_seed` into the ModelConfig: plain
 * resampling (`function: resample` alone) becomes `time_resolution_h`, resampled while the series
 * are read; anything else (masks, apply_clustering, drop, resample beside masks) is kept in
 * Calliope's shape as `parameters.time`, checked by its schema, each problem at its
 * `model.time...` path.
 */
import { type AttrDict, getKey, isAttrDict } from "./calliope_yaml.ts";
import { checkedSection } from "./calliope_checked_section.ts";
import type { ReportProblem as Report } from "../model_problem.ts";
import { timeConfigSchema } from "../time/time_config_schema.ts";

export function convertTime(
  config: AttrDict,
  params: Record<string, unknown>,
  problem: Report,
): void {
  const seed = getKey(config, "model.random_seed");
  if (seed !== undefined && seed !== null) {
    if (typeof seed !== "number" || !Number.isInteger(seed)) {
      problem("model.random_seed", "random_seed is an integer");
    } else params["random_seed"] = seed;
  }
  const time = getKey(config, "model.time");
  if (time === undefined || time === null) return;
  if (!isAttrDict(time)) {
    problem("model.time", "model.time maps function, function_options and masks");
    return;
  }
  const plainResample = time["function"] === "resample" &&
    Object.keys(time).every((k) => k === "function" || k === "function_options");
  if (!plainResample) {
    const json = checkedSection(time, timeConfigSchema, "model.time", problem);
    if (json !== undefined) params["time"] = json;
    return;
  }
  const options = time["function_options"];
  if (options !== undefined && options !== null && !isAttrDict(options)) {
    problem("model.time.function_options", "function_options maps option names to values");
    return;
  }
  // Calliope's resample(data, timesteps, resolution) takes no other option (it raises a
  // TypeError for `how`: it sums resource and timestep_resolution and averages the rest, as
  // our resampler does), so any other key is refused, never dropped.
  for (const key of Object.keys(options ?? {})) {
    if (key === "resolution") continue;
    problem(
      `model.time.function_options.${key}`,
      `resample option "${key}" is not accepted: Calliope's resample takes only resolution ` +
        "(it sums resource and averages every other series)",
    );
  }
  const freq = getKey(time, "function_options.resolution");
  const hours = typeof freq === "string" ? resolutionHours(freq) : undefined;
  if (hours === undefined || !(hours > 0)) {
    problem("model.time.function_options.resolution", `cannot read resolution "${freq}"`);
  } else params["time_resolution_h"] = hours;
}

/** Hours of a pandas frequency such as `6H`, `30min`, `15T`, `1D`. */
export function resolutionHours(freq: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)?\s*(H|h|T|min|D|d)\s*$/.exec(freq);
  if (!m) return undefined;
  const n = m[1] === undefined ? 1 : Number(m[1]);
  const unit = m[2];
  if (unit === "H" || unit === "h") return n;
  if (unit === "D" || unit === "d") return n * 24;
  return n / 60;
}
