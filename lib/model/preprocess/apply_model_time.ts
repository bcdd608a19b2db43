/**
 * `parameters.time` (Calliope's `model.time`) applied to a resolved model: its time-varying
 * data through the masks and the time function (lib/model/time/apply_time_config.ts), then put
 * back on the new timeline, with the cluster map and whether storage is carried between the
 * clustered days (`storage_inter_cluster`, Calliope's default true).
 */
import type { ModelConfig } from "../model_config.ts";
import { ModelValidationError } from "../model_problem.ts";
import type { ClusteringContext } from "../time/apply_clustering.ts";
import { applyTimeConfig } from "../time/apply_time_config.ts";
import { clusterSeriesFrom } from "../time/cluster_series.ts";
import { timeDataOf, withTimeData } from "../time/model_time_data.ts";
import type { ResolvedModel } from "./resolved_model.ts";
import { normalizeTimestamp } from "./time_window.ts";

/** `model` after `config.parameters.time` (unchanged without it); bad settings throw. */
export function applyModelTime(model: ResolvedModel, config: ModelConfig): ResolvedModel {
  const time = config.parameters.time;
  if (time === undefined) return model;
  if (config.parameters.time_resolution_h !== undefined) {
    throw new ModelValidationError([{
      path: "parameters.time",
      message: "give either time_resolution_h or time (resample with its resolution), not both",
    }]);
  }
  const seed = config.parameters.random_seed;
  // file= clustering reads the model's series; its stamps normalised as the timeline's are.
  const tables = config.timeSeries.map((t) => ({
    ...t,
    timestamps: t.timestamps.map((stamp) => normalizeTimestamp(stamp) ?? stamp),
  }));
  const context: ClusteringContext = {
    ...(seed === undefined ? {} : { seed }),
    clusterSeries: clusterSeriesFrom(tables),
  };
  const outcome = applyTimeConfig(timeDataOf(model), time, context);
  if (!outcome.ok) throw new ModelValidationError([...outcome.problems]);
  const clustered = withTimeData(model, outcome.result);
  if (!("function" in time) || time.function !== "apply_clustering") return clustered;
  if (outcome.result.clusters === undefined) return clustered;
  return {
    ...clustered,
    storageInterCluster: time.function_options.storage_inter_cluster ?? true,
  };
}
