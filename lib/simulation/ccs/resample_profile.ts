/**
 * Zero-order-hold resampling of a source profile onto the simulation grid `t_k = k·dt`.
 * A profile of another length or with off-grid times is normal (research notes 1.2, 3).
 */

/**
 * Value at each grid time `k·dtS` (k = 0..steps−1): the value of the latest profile point at or
 * before it, the first point's value before the profile starts and the last one's after it ends.
 * `times` need not be sorted. Returns zeros for an empty profile.
 */
export function resampleZeroOrderHold(
  times: readonly number[],
  values: readonly number[],
  steps: number,
  dtS: number,
): Float64Array {
  const out = new Float64Array(steps);
  if (times.length === 0) return out;
  const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]!);
  let j = 0; // index into order of the latest point at or before t
  for (let k = 0; k < steps; k++) {
    const t = k * dtS;
    while (j + 1 < order.length && times[order[j + 1]!]! <= t) j++;
    out[k] = values[order[j]!]!;
  }
  return out;
}
