import assert from "node:assert/strict";
import { wardClusters } from "../../../lib/model/time/ward_clusters.ts";

/** Labels renumbered by first appearance, so partitions compare whatever the ids. */
function byFirstAppearance(labels: readonly number[]): number[] {
  const ids = new Map<number, number>();
  return labels.map((c) => ids.get(c) ?? (ids.set(c, ids.size), ids.size - 1));
}

// Ten points in the plane. Expected partitions computed offline with SciPy 1.17
// (`fcluster(linkage(X, "ward"), k, "maxclust")`, relabelled by first appearance); scikit-learn
// 1.9's `AgglomerativeClustering(k).fit(X).labels_`, which Calliope calls, gives the same ones.
const X = [
  [0.0, 0.0],
  [0.3, 0.1],
  [0.1, 0.4],
  [4.0, 4.2],
  [4.5, 3.9],
  [3.8, 4.6],
  [9.0, 0.5],
  [8.4, 0.2],
  [2.0, 7.5],
  [2.2, 8.1],
];
const SCIPY_WARD: Record<number, number[]> = {
  2: [0, 0, 0, 0, 0, 0, 1, 1, 0, 0],
  3: [0, 0, 0, 1, 1, 1, 2, 2, 1, 1],
  4: [0, 0, 0, 1, 1, 1, 2, 2, 3, 3],
  5: [0, 0, 0, 1, 2, 1, 3, 3, 4, 4],
};

Deno.test("wardClusters() cuts SciPy's Ward tree at k clusters", async (t) => {
  for (const [k, expected] of Object.entries(SCIPY_WARD)) {
    await t.step(`k = ${k}`, () => {
      assert.deepEqual(byFirstAppearance(wardClusters(X, Number(k))), expected);
    });
  }
});

Deno.test("wardClusters() gives one cluster per row at k = n, and one at k = 1", () => {
  assert.deepEqual(byFirstAppearance(wardClusters(X, X.length)), X.map((_, i) => i));
  assert.deepEqual(wardClusters(X, 1), X.map(() => 0));
  assert.deepEqual(wardClusters([[1, 2]], 1), [0]);
});

Deno.test("wardClusters() refuses k outside 1..n", () => {
  assert.throws(() => wardClusters(X, 0), RangeError);
  assert.throws(() => wardClusters(X, 11), RangeError);
});
