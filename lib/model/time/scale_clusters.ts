/**
 * Calliope 0.6's `scale_clusters`: each series of the clustered timeline is multiplied so that
 * its mean (or sum, max, min) equals the original series' —
 * `getattr(data[var], how)("timesteps") / getattr(data_new[var], how)("timesteps")` per loc::tech,
 * NaN read as 0. As in Calliope, the mean and the sum are plain, over the timesteps, not
 * weighted by the timesteps' weights or resolutions.
 */
import type { TimeVariable } from "./time_data.ts";

/** What to match: Calliope's `scale_clusters`. */
export type ScaleClusters = "mean" | "sum" | "max" | "min";

/** `how` of `values` (NaN skipped, as xarray does; NaN when all are NaN). */
export function aggregate(values: readonly number[], how: ScaleClusters): number {
  const xs = values.filter((x) => !Number.isNaN(x));
  if (xs.length === 0) return Number.NaN;
  switch (how) {
    case "sum":
      return xs.reduce((s, x) => s + x, 0);
    case "mean":
      return xs.reduce((s, x) => s + x, 0) / xs.length;
    case "max":
      return Math.max(...xs);
    case "min":
      return Math.min(...xs);
  }
}

/**
 * `clustered` (series in the order of `original`) scaled to `original`'s `how`, with warnings
 * (a series Calliope zeroes because both aggregates are 0), or the series that cannot be
 * scaled (clustered aggregate 0, original not: Calliope would fill the series with NaN).
 */
export function scaleClusters(
  original: readonly TimeVariable[],
  clustered: readonly TimeVariable[],
  how: ScaleClusters,
): { readonly ok: true; readonly variables: TimeVariable[]; readonly warnings: string[] } | {
  readonly ok: false;
  readonly message: string;
} {
  const warnings: string[] = [];
  const impossible: string[] = [];
  const variables = clustered.map((v, i) => {
    const before = aggregate(original[i]!.values, how);
    const after = aggregate(v.values, how);
    let scale = before / after;
    const name = `${v.variable}${
      v.costClass === undefined ? "" : `.${v.costClass}`
    } of ${v.locTech}`;
    if (Number.isNaN(scale)) {
      // 0/0 (or all NaN): Calliope's fillna(0) zeroes the series.
      scale = 0;
      if (v.values.some((x) => x !== 0 && !Number.isNaN(x))) {
        warnings.push(
          `scale_clusters: ${how} of ${name} is 0 before and after clustering, so Calliope's ` +
            `scaling (0/0 read as 0) sets the series to 0`,
        );
      }
    } else if (!Number.isFinite(scale)) {
      impossible.push(`${name} (${how} ${before} before, ${after} after)`);
    }
    return { ...v, values: v.values.map((x) => x * scale) };
  });
  if (impossible.length > 0) {
    return {
      ok: false,
      message: `cannot scale the clusters to the original ${how}: it is 0 after clustering ` +
        `but not before for ${impossible.slice(0, 5).join("; ")}` +
        `${impossible.length > 5 ? ` and ${impossible.length - 5} more` : ""}; ` +
        `choose another scale_clusters (mean, sum, max, min) or null`,
    };
  }
  return { ok: true, variables, warnings };
}
