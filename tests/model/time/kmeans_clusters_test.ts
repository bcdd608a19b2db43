import assert from "node:assert/strict";
import {
  distinctRows,
  KMEANS_RUNS,
  kmeansClusters,
  kmeansRun,
  kmeansRunSeed,
} from "../../../lib/model/time/kmeans_clusters.ts";

/** 60 points around three centres, from a fixed linear congruential generator. */
function blobs(): number[][] {
  let s = 12345;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const centres = [[0, 0, 0], [5, 5, 0], [0, 5, 5]];
  return Array.from({ length: 60 }, (_, i) => centres[i % 3]!.map((c) => c + next() - 0.5));
}

/** A noisy cloud where k-means has many local optima. */
function cloud(): number[][] {
  let s = 99;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: 80 }, () => [next(), next(), next(), next()]);
}

Deno.test("kmeansClusters() is deterministic for a seed", () => {
  const rows = cloud();
  const a = kmeansClusters(rows, 6, 23);
  const b = kmeansClusters(rows, 6, 23);
  assert.deepEqual(a.labels, b.labels);
  assert.equal(a.inertia, b.inertia);
});

Deno.test("kmeansClusters() keeps the best of its n_init runs", () => {
  const rows = cloud();
  const runs = Array.from(
    { length: KMEANS_RUNS },
    (_, r) => kmeansRun(rows, 6, kmeansRunSeed(23, 6, r)),
  );
  const best = kmeansClusters(rows, 6, 23);
  assert.equal(best.inertia, Math.min(...runs.map((r) => r.inertia)));
  // The runs differ (else n_init would be pointless here).
  assert.ok(new Set(runs.map((r) => r.inertia.toFixed(9))).size > 1);
});

Deno.test("kmeansClusters() ends at a Lloyd fixed point with its inertia", () => {
  const rows = cloud();
  const { labels, inertia } = kmeansClusters(rows, 5, 7);
  assert.equal(new Set(labels).size, 5);
  const centres = [0, 1, 2, 3, 4].map((c) => {
    const members = rows.filter((_, i) => labels[i] === c);
    return members[0]!.map((_, j) => members.reduce((s, r) => s + r[j]!, 0) / members.length);
  });
  const d2 = (a: number[], b: number[]) => a.reduce((s, x, j) => s + (x - b[j]!) ** 2, 0);
  let sum = 0;
  rows.forEach((r, i) => {
    const own = d2(r, centres[labels[i]!]!);
    sum += own;
    for (const c of centres) assert.ok(own <= d2(r, c) + 1e-12);
  });
  assert.ok(Math.abs(sum - inertia) < 1e-9);
});

Deno.test("kmeansClusters() finds well separated clusters whatever the seed", () => {
  const rows = blobs();
  for (const seed of [0, 1, 23]) {
    const { labels } = kmeansClusters(rows, 3, seed);
    for (let i = 3; i < rows.length; i++) assert.equal(labels[i], labels[i % 3]);
    assert.equal(new Set(labels).size, 3);
  }
});

Deno.test("kmeansClusters() refuses more clusters than distinct rows", () => {
  const rows = [[1, 1], [1, 1], [2, 2]];
  assert.equal(distinctRows(rows), 2);
  assert.deepEqual(kmeansClusters(rows, 2, 0).labels.map((c, _, l) => c === l[0]), [
    true,
    true,
    false,
  ]);
  assert.throws(() => kmeansClusters(rows, 3, 0), RangeError);
});
