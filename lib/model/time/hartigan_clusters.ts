/**
 * Hartigan's rule for the number of k-means clusters, as Calliope 0.6's `hartigan_n_clusters`:
 * the first k for which adding a cluster gains little, H(k) = (I(k) / I(k+1) − 1)(n − k − 1)
 * ≤ 10, I being the k-means inertia (Mirkin, "Choosing the number of clusters").
 */
import { distinctRows, kmeansClusters } from "./kmeans_clusters.ts";

/** Calliope's threshold of H(k). */
const THRESHOLD = 10;

/** The number of clusters Hartigan's rule picks for `rows`, and Calliope's warnings. */
export function hartiganClusters(
  rows: readonly (readonly number[])[],
  seed: number,
): { readonly k: number; readonly warnings: readonly string[] } {
  const n = rows.length;
  // k-means finds at most as many clusters as there are distinct days.
  const limit = distinctRows(rows);
  if (limit <= 1) return { k: 1, warnings: [] };
  let k = 1;
  let h = THRESHOLD + 1;
  while (k < limit && h > THRESHOLD) {
    const inertia = kmeansClusters(rows, k, seed).inertia;
    const inertiaPlusOne = kmeansClusters(rows, k + 1, seed).inertia;
    h = (inertia / inertiaPlusOne - 1) * (n - k - 1);
    k++;
  }
  if (h > THRESHOLD) {
    return {
      k: limit,
      warnings: [
        `Based on threshold, number of clusters = number of dates${
          limit < n ? ` (${limit} distinct of ${n})` : ""
        }`,
      ],
    };
  }
  return { k: k - 1, warnings: [] };
}
