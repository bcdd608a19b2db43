/**
 * `clustering_func: file=NAME.csv:column`: the modeller gives each day's cluster in a series
 * (Calliope 0.6 `apply_clustering`): the values within a day must all be one cluster, and
 * every day to cluster needs one.
 */
import { dateLabel, midnightOf } from "./clustering_days.ts";

/** `file=NAME.csv[:column]` split into the file and the column, as Calliope splits it. */
export function parseClusterFile(
  clusteringFunc: string,
): { readonly file: string; readonly column: string | undefined } | undefined {
  if (!clusteringFunc.startsWith("file=")) return undefined;
  const spec = clusteringFunc.slice("file=".length);
  const colon = spec.lastIndexOf(":");
  return colon < 0
    ? { file: spec, column: undefined }
    : { file: spec.slice(0, colon), column: spec.slice(colon + 1) };
}

/**
 * The cluster of each of `dates` (UTC ms midnights) from a series of cluster values, or
 * Calliope's message on what is wrong. Cluster values must be integers; they are kept as the
 * cluster ids.
 */
export function fileClusters(
  dates: readonly number[],
  series: { readonly timestamps: readonly number[]; readonly values: readonly number[] },
  name: string,
): { readonly ok: true; readonly clusters: number[] } | {
  readonly ok: false;
  readonly message: string;
} {
  const byDay = new Map<number, Set<number>>();
  series.timestamps.forEach((t, i) => {
    const value = series.values[i]!;
    if (Number.isNaN(value)) return;
    const day = midnightOf(t);
    const set = byDay.get(day) ?? new Set<number>();
    set.add(value);
    byDay.set(day, set);
  });
  const missing = dates.filter((d) => (byDay.get(d)?.size ?? 0) === 0);
  if (missing.length > 0) {
    return {
      ok: false,
      message: `Missing cluster days in \`${name}\`: no cluster for ${listDays(missing)}`,
    };
  }
  const several = dates.filter((d) => byDay.get(d)!.size > 1);
  if (several.length > 0) {
    const shown = several.slice(0, 5).map((d) =>
      `${dateLabel(d)}: ${[...byDay.get(d)!].join(", ")}`
    );
    return {
      ok: false,
      message: `More than one cluster value assigned to a day in \`${name}\`. ` +
        `Unique clusters per day: ${shown.join("; ")}${several.length > 5 ? "; ..." : ""}`,
    };
  }
  const clusters = dates.map((d) => [...byDay.get(d)!][0]!);
  const odd = clusters.find((c) => !Number.isInteger(c));
  if (odd !== undefined) {
    return {
      ok: false,
      message: `cluster values in \`${name}\` must be integers, found ${odd}`,
    };
  }
  return { ok: true, clusters };
}

function listDays(dates: readonly number[]): string {
  const shown = dates.slice(0, 5).map(dateLabel).join(", ");
  return dates.length > 5 ? `${shown} and ${dates.length - 5} more day(s)` : shown;
}
