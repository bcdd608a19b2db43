/**
 * "Did you mean ...?" for a misspelt key: the known key at the smallest edit distance.
 */

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `name`, or undefined when none is close enough to be a plausible
 * misspelling (distance at most a third of the longer name, at least 2).
 */
export function closestKey(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(name.length, best.length) / 3));
  return bestDistance <= limit ? best : undefined;
}

/** `; did you mean X?` or "" when nothing is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const k = closestKey(name, candidates);
  return k === undefined ? "" : `; did you mean ${k}?`;
}
