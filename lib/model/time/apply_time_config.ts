/**
 * Calliope 0.6.10's `apply_time_clustering` (`calliope/preprocess/time.py`): the masks first,
 * each picking timesteps to keep at full resolution (weight 1, as they were), then the time
 * function (resample, apply_clustering or drop) on the timesteps no mask picked.
 */
import type { ModelProblem } from "../model_problem.ts";
import {
  applyClustering,
  type ClusteringContext,
  type ClusteringOptions,
} from "./apply_clustering.ts";
import { drop, dropTimesteps } from "./drop_timesteps.ts";
import { extreme, extremeDiff, type MaskOutcome, zero } from "./masks.ts";
import { resample } from "./resample_time.ts";
import type { MaskConfig, TimeConfig } from "./time_config_schema.ts";
import type { TimeData, TimeOutcome } from "./time_data.ts";

const PATH = "parameters.time";

/** `data` after the masks and the function of `config` (a parsed `parameters.time`). */
export function applyTimeConfig(
  data: TimeData,
  config: TimeConfig,
  context?: ClusteringContext,
): TimeOutcome {
  const problems: ModelProblem[] = [];
  const picked = new Set<number>();
  config.masks?.forEach((mask, i) => {
    const got = applyMask(data, mask, `${PATH}.masks[${i}].options`);
    if (!got.ok) problems.push(...got.problems);
    else got.indices.forEach((k) => picked.add(k));
  });
  if (problems.length > 0) return { ok: false, problems };
  // Calliope hands the function the timesteps no mask picked, or None without masks.
  const masked = config.masks !== undefined && config.masks.length > 0;
  const rest = masked ? data.timestamps.map((_, i) => i).filter((i) => !picked.has(i)) : undefined;

  switch (config.function) {
    case undefined:
    case null:
      return { ok: true, result: { data, warnings: [] } };
    case "resample":
      return resample(data, config.function_options.resolution, rest);
    case "apply_clustering":
      return applyClustering(data, clusteringOptions(config.function_options), context, rest);
    case "drop": {
      const timesteps = config.function_options?.timesteps;
      if (timesteps !== undefined && masked) {
        return refuse(
          `${PATH}.function_options.timesteps`,
          "drop with masks drops every timestep the masks did not pick: give masks or " +
            "timesteps, not both (Calliope cannot take both)",
        );
      }
      if (timesteps !== undefined) return drop(data, timesteps);
      if (!masked) {
        return refuse(
          `${PATH}.function_options.timesteps`,
          "drop needs the timesteps to drop, or masks picking the timesteps to keep",
        );
      }
      if (rest!.length === data.timestamps.length) {
        return refuse(`${PATH}.masks`, "the masks picked no timestep: drop would leave none");
      }
      return { ok: true, result: { data: dropTimesteps(data, rest!), warnings: [] } };
    }
  }
}

function applyMask(data: TimeData, mask: MaskConfig, path: string): MaskOutcome {
  switch (mask.function) {
    case "zero":
      return zero(data, mask.options, path);
    case "extreme":
      return extreme(data, mask.options, path);
    case "extreme_diff":
      return extremeDiff(data, mask.options, path);
  }
}

function refuse(path: string, message: string): TimeOutcome {
  return { ok: false, problems: [{ path, message }] };
}

function asList(names: string | readonly string[]): readonly string[] {
  return typeof names === "string" ? [names] : names;
}

/** The parsed options without the keys left out (the clustering takes no `undefined`s). */
function clusteringOptions(
  o: Extract<TimeConfig, { function: "apply_clustering" }>["function_options"],
): ClusteringOptions {
  return {
    clustering_func: o.clustering_func,
    how: o.how,
    ...(o.k === undefined ? {} : { k: o.k }),
    ...(o.normalize === undefined ? {} : { normalize: o.normalize }),
    ...(o.scale_clusters === undefined ? {} : { scale_clusters: o.scale_clusters }),
    ...(o.storage_inter_cluster === undefined
      ? {}
      : { storage_inter_cluster: o.storage_inter_cluster }),
    ...(o.variables === undefined ? {} : { variables: asList(o.variables) }),
    ...(o.tech === undefined ? {} : { tech: asList(o.tech) }),
  };
}
