/**
 * The model's time-varying data as Calliope 0.6's time functions see it (`calliope/time/`): one
 * timeline (timestamps, resolution Δτ, weights w_τ) and one series per (variable, loc::tech), the
 * variable being Calliope's name (`resource`, `energy_eff`, `cost_om_con` ...). Constants are not
 * here: as in Calliope, only data given as time series is clustered, masked or resampled.
 *
 * The time functions (clustering, masks, resampling) take a `TimeData` and return a new one;
 * lib/model/time/model_time_data.ts moves it out of and back into a ResolvedModel.
 */
import type { ModelProblem } from "../model_problem.ts";

/** One time-varying parameter of one loc::tech. */
export interface TimeVariable {
  /** Calliope's data variable: `resource`, `energy_eff`, ..., costs as `cost_<key>`. */
  readonly variable: string;
  /** `loc::tech` (a link end: `loc::tech:remote`). */
  readonly locTech: string;
  /** Costs only: the cost class. */
  readonly costClass?: string;
  /** One value per timestep. */
  readonly values: readonly number[];
}

/** A timeline and the series on it. */
export interface TimeData {
  /** Start of each timestep, UTC milliseconds (the model's local times read as UTC), ascending. */
  readonly timestamps: readonly number[];
  /** Δτ in hours. */
  readonly resolution: readonly number[];
  /** w_τ: how many real timesteps each stands for (1 before clustering). */
  readonly weights: readonly number[];
  readonly variables: readonly TimeVariable[];
}

/**
 * What clustering adds (Calliope's `timestep_cluster`, `lookup_datestep_cluster`): the cluster of
 * each timestep of the clustered timeline, and the cluster of every day of the input, in order.
 */
export interface ClusterMap {
  /** Per timestep of the result: its cluster, or -1 for a timestep kept by a mask. */
  readonly timestepCluster: readonly number[];
  /** UTC ms of the midnight of every day of the unclustered timeline, ascending. */
  readonly datesteps: readonly number[];
  /** Per datestep: its cluster (a day kept by a mask keeps its own cluster of one). */
  readonly datestepCluster: readonly number[];
}

/** The result of the time functions: the new data, the cluster map when clustered, warnings. */
export interface TimeResult {
  readonly data: TimeData;
  readonly clusters?: ClusterMap;
  /** Calliope's ModelWarnings (e.g. fewer clusters because some share a closest day). */
  readonly warnings: readonly string[];
}

/**
 * A time function's answer: its result, or every problem with the settings at its JSON path
 * under `parameters.time` (e.g. `parameters.time.function_options.k`).
 */
export type TimeOutcome =
  | { readonly ok: true; readonly result: TimeResult }
  | { readonly ok: false; readonly problems: readonly ModelProblem[] };

/** Milliseconds per hour and per day. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
