/**
 * Calliope 0.6's `apply_clustering` (`calliope/time/funcs.py`): the days of the timeline are
 * clustered (k-means, Ward, or the modeller's `file=` assignment) on their normalised series,
 * each cluster replaced by one representative day (its mean day, or the real day closest to
 * it) weighted by the number of days it stands for, and each series scaled back to its original
 * mean (or sum, max, min). Days left out by masks are kept as they are, in time order.
 *
 * Cluster ids are 0..k-1: for k-means and Ward in the order of each cluster's first day; for
 * `file=` in ascending order of the modeller's values (so 0..k-1 given stay as given).
 */
import type { ModelProblem } from "../model_problem.ts";
import { calendarDays, clusteringDays } from "./clustering_days.ts";
import { dayMatrix } from "./day_matrix.ts";
import { fileClusters, parseClusterFile } from "./file_clusters.ts";
import { hartiganClusters } from "./hartigan_clusters.ts";
import { distinctRows, kmeansClusters } from "./kmeans_clusters.ts";
import { normalizedCopy, techOf } from "./normalized_copy.ts";
import { representativeDays } from "./representative_days.ts";
import { type ScaleClusters, scaleClusters } from "./scale_clusters.ts";
import type { ClusterMap, TimeData, TimeOutcome, TimeVariable } from "./time_data.ts";
import { wardClusters } from "./ward_clusters.ts";

/** `parameters.time.function_options` of `function: apply_clustering`. */
export interface ClusteringOptions {
  /** `kmeans`, `hierarchical` or `file=NAME.csv:column` (column optional with one column). */
  readonly clustering_func: string;
  readonly how: "mean" | "closest";
  /** Clusters; k-means without k uses Hartigan's rule, hierarchical needs it. */
  readonly k?: number;
  /** Normalise each variable per technology before clustering (default true). */
  readonly normalize?: boolean;
  /** Match each series' mean/sum/max/min to the original's (default "mean"; null: no scaling). */
  readonly scale_clusters?: ScaleClusters | null;
  /** Default true; the LP reads it, the cluster map is the same either way. */
  readonly storage_inter_cluster?: boolean;
  /** Cluster on these variables only (Calliope's `get_clusters` kwargs). */
  readonly variables?: readonly string[];
  /** Cluster on the series of these technologies (or loc::techs) only. */
  readonly tech?: readonly string[];
}

/** What clustering needs from the model besides its time series. */
export interface ClusteringContext {
  /** `model.random_seed`; without it {@link DEFAULT_CLUSTERING_SEED}. */
  readonly seed?: number;
  /** For file= clustering: the named series' timestamps (UTC ms) and one column, or a problem message. */
  readonly clusterSeries?: (file: string, column: string | undefined) =>
    | { readonly timestamps: readonly number[]; readonly values: readonly number[] }
    | { readonly problem: string };
}

/** The k-means seed when the model sets no `random_seed` (so runs are always repeatable). */
export const DEFAULT_CLUSTERING_SEED = 0;

const PATH = "parameters.time.function_options";
const SCALES = ["mean", "sum", "max", "min"];

/** Clusters the days of `data` (only the timesteps at `subset` indices when given: the rest, e.g. masked days, is kept as it is and merged back in time order, as Calliope's _combine_datasets). */
export function applyClustering(
  data: TimeData,
  options: ClusteringOptions,
  context: ClusteringContext = {},
  subset?: readonly number[],
): TimeOutcome {
  const problems: ModelProblem[] = [];
  const problem = (key: string, message: string) =>
    problems.push({ path: key === "" ? PATH : `${PATH}.${key}`, message });
  const fail = (): TimeOutcome => ({ ok: false, problems });
  const warnings: string[] = [];

  const { clustering_func: func, how } = options;
  const file = parseClusterFile(func);
  if (file === undefined && func !== "kmeans" && func !== "hierarchical") {
    problem(
      "clustering_func",
      `unknown clustering_func "${func}": use kmeans, hierarchical or file=NAME.csv:column`,
    );
  }
  if (how !== "mean" && how !== "closest") {
    problem("how", `how must be mean or closest, not "${String(how)}"`);
  }
  const k = options.k;
  if (k !== undefined && (!Number.isInteger(k) || k < 1)) {
    problem("k", `k must be a positive whole number of clusters, not ${k}`);
  }
  if (func === "hierarchical" && k === undefined) {
    problem(
      "k",
      "Cannot undertake hierarchical clustering without a predefined number of clusters (k)",
    );
  }
  const scale = options.scale_clusters === undefined ? "mean" : options.scale_clusters;
  if (scale !== null && !SCALES.includes(scale)) {
    problem("scale_clusters", `scale_clusters must be mean, sum, max, min or null, not "${scale}"`);
  }
  const selected = selectVariables(data.variables, options, problem);
  if (file === undefined && selected.length === 0 && problems.length === 0) {
    problem("", "the model has no time series to cluster on");
  }
  if (problems.length > 0) return fail();

  const found = clusteringDays(data, subset);
  if (!found.ok) {
    problems.push({ path: "parameters.time.function", message: found.message });
    return fail();
  }
  const days = found.days;

  let labels: readonly number[];
  if (file !== undefined) {
    const name = file.column === undefined ? file.file : `${file.file}:${file.column}`;
    const series = context.clusterSeries?.(file.file, file.column) ??
      { problem: `no time series are given to read ${file.file} from` };
    if ("problem" in series) {
      problem("clustering_func", series.problem);
      return fail();
    }
    const read = fileClusters(days.dates, series, name);
    if (!read.ok) {
      problem("clustering_func", read.message);
      return fail();
    }
    const ids = [...new Set(read.clusters)].sort((a, b) => a - b);
    labels = read.clusters.map((c) => ids.indexOf(c));
  } else {
    const normalized = options.normalize === false
      ? selected
      : normalizedCopy(selected, days.steps.flat());
    const rows = dayMatrix(normalized, days.steps);
    if (k !== undefined && k > rows.length) {
      problem("k", `k = ${k} clusters is more than the ${rows.length} days to cluster`);
      return fail();
    }
    const seed = context.seed ?? DEFAULT_CLUSTERING_SEED;
    if (func === "hierarchical") labels = wardClusters(rows, k!);
    else {
      let clusters = k;
      if (clusters === undefined) {
        const rule = hartiganClusters(rows, seed);
        clusters = rule.k;
        warnings.push(
          ...rule.warnings,
          `Used Hartigan's rule to determine that a good number of clusters is ${clusters}.`,
        );
      }
      const distinct = distinctRows(rows);
      if (clusters > distinct) {
        warnings.push(
          `Number of distinct clusters (${distinct}) found smaller than k (${clusters}): ` +
            `only ${distinct} of the days differ`,
        );
        clusters = distinct;
      }
      labels = kmeansClusters(rows, clusters, seed).labels;
    }
    labels = inOrderOfFirstDay(labels);
  }

  const reps = representativeDays(data.variables, days, labels, how);
  warnings.push(...reps.warnings);

  // The new timeline: the kept timesteps and the representative days, in time order.
  const clustered = new Set(days.steps.flat());
  type Step = { t: number; res: number; w: number; cluster: number; from: number | number[] };
  const steps: Step[] = [];
  data.timestamps.forEach((t, i) => {
    if (!clustered.has(i)) {
      steps.push({ t, res: data.resolution[i]!, w: data.weights[i]!, cluster: -1, from: i });
    }
  });
  reps.days.forEach((day, c) => {
    days.offsets.forEach((offset, p) => {
      steps.push({
        t: day.date + offset,
        res: days.resolution[p]!,
        w: day.size,
        cluster: c,
        from: [c, p],
      });
    });
  });
  steps.sort((a, b) => a.t - b.t);
  let variables: TimeVariable[] = data.variables.map((v, j) => ({
    ...v,
    values: steps.map((s) =>
      typeof s.from === "number"
        ? v.values[s.from]!
        : reps.days[s.from[0]!]!.values[j]![s.from[1]!]!
    ),
  }));
  if (scale !== null) {
    const scaled = scaleClusters(data.variables, variables, scale);
    if (!scaled.ok) {
      problem("scale_clusters", scaled.message);
      return fail();
    }
    variables = scaled.variables;
    warnings.push(...scaled.warnings);
  }

  return {
    ok: true,
    result: {
      data: {
        timestamps: steps.map((s) => s.t),
        resolution: steps.map((s) => s.res),
        weights: steps.map((s) => s.w),
        variables,
      },
      clusters: clusterMap(data, days.dates, reps.labels, steps.map((s) => s.cluster)),
      warnings,
    },
  };
}

/**
 * The series to cluster on: those of `options.variables` and of the loc::techs of
 * `options.tech` (a technology or a loc::tech), all when not given.
 */
function selectVariables(
  variables: readonly TimeVariable[],
  options: ClusteringOptions,
  problem: (key: string, message: string) => void,
): TimeVariable[] {
  let selected = [...variables];
  const names = [...new Set(variables.map((v) => v.variable))];
  if (options.variables !== undefined && options.variables.length > 0) {
    const unknown = options.variables.filter((v) => !names.includes(v));
    if (unknown.length > 0) {
      problem(
        "variables",
        `no time series of ${unknown.join(", ")} to cluster on; the time-varying variables ` +
          `are ${names.join(", ") || "none"}`,
      );
    }
    selected = selected.filter((v) => options.variables!.includes(v.variable));
  }
  if (options.tech !== undefined && options.tech.length > 0) {
    const matches = (v: TimeVariable, t: string) => v.locTech === t || techOf(v.locTech) === t;
    const unknown = options.tech.filter((t) => !selected.some((v) => matches(v, t)));
    if (unknown.length > 0) {
      const techs = [...new Set(selected.map((v) => techOf(v.locTech)))];
      problem(
        "tech",
        `no time series of ${unknown.join(", ")} to cluster on; the technologies with ` +
          `time series are ${techs.join(", ") || "none"}`,
      );
    }
    selected = selected.filter((v) => options.tech!.some((t) => matches(v, t)));
  }
  return selected;
}

/** Labels renumbered 0, 1, ... in the order of each cluster's first day. */
function inOrderOfFirstDay(labels: readonly number[]): number[] {
  const ids = new Map<number, number>();
  return labels.map((c) => {
    if (!ids.has(c)) ids.set(c, ids.size);
    return ids.get(c)!;
  });
}

/**
 * Every day of the input with its cluster (`labels` for the clustered days at `clusteredDates`;
 * a day kept by the masks is a cluster of its own, numbered on after the clusters in time order).
 */
function clusterMap(
  data: TimeData,
  clusteredDates: readonly number[],
  labels: readonly number[],
  timestepCluster: readonly number[],
): ClusterMap {
  const datesteps = calendarDays(data.timestamps).dates;
  const byDate = new Map(clusteredDates.map((d, i) => [d, labels[i]!]));
  let next = Math.max(...labels) + 1;
  return {
    timestepCluster,
    datesteps,
    datestepCluster: datesteps.map((d) => byDate.get(d) ?? next++),
  };
}
