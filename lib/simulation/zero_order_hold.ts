/**
 * Zero-order-hold resampling of a source profile onto the simulation grid t_k = k·dt (research
 * notes 1.2, 3), shared by both models: the value at t is that of the latest point at or before
 * t; before the first point the first value holds, after the last the last. The client's profile
 * may be of any length and its times need not sit on the grid.
 */

/**
 * The profile `(times[i], values[i])` sampled at t_k = k·dtS for k = 0..steps−1; an empty profile
 * gives `fallback` everywhere. Points need not be sorted; of equal times the later point wins.
 */
export function zeroOrderHold(
  times: readonly number[],
  values: readonly number[],
  steps: number,
  dtS: number,
  fallback = 0,
): Float64Array {
  const out = new Float64Array(steps);
  if (times.length === 0) return out.fill(fallback);
  let sorted = true;
  for (let i = 1; i < times.length && sorted; i++) sorted = times[i - 1]! <= times[i]!;
  if (sorted) {
    // The client's profiles come in order: no sort (a year of 1-minute points took 200 ms).
    let j = 0; // the latest point at or before t
    for (let k = 0; k < steps; k++) {
      const t = k * dtS;
      while (j + 1 < times.length && times[j + 1]! <= t) j++;
      out[k] = values[j]!;
    }
    return out;
  }
  // A stable sort by time: of equal times, the later point stays later and wins.
  const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]!);
  let j = 0; // index into `order` of the latest point at or before t
  for (let k = 0; k < steps; k++) {
    const t = k * dtS;
    while (j + 1 < order.length && times[order[j + 1]!]! <= t) j++;
    out[k] = values[order[j]!]!;
  }
  return out;
}
