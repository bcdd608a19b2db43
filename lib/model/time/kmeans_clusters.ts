/**
 * k-means of the days as scikit-learn's `KMeans(k, n_init=10)`, which Calliope 0.6 calls: ten
 * runs of k-means++ seeding (sklearn's greedy variant, 2 + ln k candidates per centre) and Lloyd
 * iterations (ml-kmeans), the run of least inertia kept. Seeded, so the same seed gives the
 * same clusters; sklearn's random streams differ, so its labels are not reproduced.
 */
import { kmeans } from "ml-kmeans";

/** k-means runs per clustering (sklearn's `n_init` as Calliope sets it). */
export const KMEANS_RUNS = 10;
/** sklearn's `max_iter`. */
const MAX_ITERATIONS = 300;

/** One k-means clustering: a label per row (0..k-1) and its inertia. */
export interface KmeansClusters {
  readonly labels: readonly number[];
  /** Σ over rows of the squared distance to the centre of its cluster. */
  readonly inertia: number;
}

/** The number of distinct rows of `rows` (k-means cannot find more clusters than that). */
export function distinctRows(rows: readonly (readonly number[])[]): number {
  return new Set(rows.map((r) => r.join(","))).size;
}

/**
 * The 32-bit seed of run `run` of a clustering into `k` for the model's `seed` (a hash, so that
 * nearby seeds and k do not share runs).
 */
export function kmeansRunSeed(seed: number, k: number, run: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(k + 1, 0xc2b2ae35) ^ run;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One k-means++ and Lloyd run of `rows` into `k`, seeded with `runSeed`. */
export function kmeansRun(
  rows: readonly (readonly number[])[],
  k: number,
  runSeed: number,
): KmeansClusters {
  const data = rows.map((r) => [...r]);
  const result = kmeans(data, k, {
    seed: runSeed,
    initialization: "kmeans++",
    maxIterations: MAX_ITERATIONS,
    // Lloyd stops at a fixed point: labels unchanged give centres that do not move at all.
    tolerance: 0,
  });
  const labels = result.clusters;
  const inertia = labels.reduce((sum, c, i) => {
    const centre = result.centroids[c]!;
    return sum + data[i]!.reduce((s, x, j) => s + (x - centre[j]!) ** 2, 0);
  }, 0);
  return { labels: [...labels], inertia };
}

/**
 * The best of {@link KMEANS_RUNS} seeded k-means runs of `rows` into `k` (1 ≤ k ≤ the number
 * of distinct rows): least inertia among the runs whose k clusters are all non-empty.
 */
export function kmeansClusters(
  rows: readonly (readonly number[])[],
  k: number,
  seed: number,
): KmeansClusters {
  if (!Number.isInteger(k) || k < 1 || k > distinctRows(rows)) {
    throw new RangeError(`k-means needs 1 ≤ k ≤ the number of distinct rows, got k = ${k}`);
  }
  let best: (KmeansClusters & { full: boolean }) | undefined;
  for (let run = 0; run < KMEANS_RUNS; run++) {
    const result = kmeansRun(rows, k, kmeansRunSeed(seed, k, run));
    const full = new Set(result.labels).size === k;
    if (
      best === undefined || (full && !best.full) ||
      (full === best.full && result.inertia < best.inertia)
    ) {
      best = { ...result, full };
    }
  }
  return { labels: best!.labels, inertia: best!.inertia };
}
