/**
 * Ward's agglomerative clustering of the days, as scikit-learn's `AgglomerativeClustering(k)`
 * that Calliope 0.6 calls: the Ward tree of the rows (ml-hclust's `ward2`, the Lance–Williams
 * update on Euclidean distances that SciPy's `linkage(X, "ward")` uses; ml-hclust's `ward` is
 * another method) cut where it has k clusters, i.e. the last k − 1 merges undone.
 */
import { agnes } from "ml-hclust";

/** A label per row: the index (0..k-1) of its cluster, in no particular order. */
export function wardClusters(rows: readonly (readonly number[])[], k: number): number[] {
  if (!Number.isInteger(k) || k < 1 || k > rows.length) {
    throw new RangeError(`Ward clustering needs 1 ≤ k ≤ ${rows.length} rows, got k = ${k}`);
  }
  const tree = agnes(rows.map((r) => [...r]), { method: "ward2" });
  const labels = new Array<number>(rows.length).fill(-1);
  tree.group(k).children.forEach((cluster, c) => {
    for (const i of cluster.indices()) labels[i] = c;
  });
  return labels;
}
