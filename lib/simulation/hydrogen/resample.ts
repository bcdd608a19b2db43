/**
 * Zero-order-hold resampling of a source profile onto the simulation grid t_k = k·dt (research
 * notes 3): the value at t is that of the last point at or before t; before the first point the
 * first value holds, after the last the last. The client's profile may be of any length and its
 * times need not sit on the grid.
 */

/** A profile point. */
export interface ProfilePoint {
  readonly time_s: number;
  readonly power_kw: number;
}

/**
 * Samples `profile` at t_k = k·dt_s for k = 0..steps−1; an empty profile gives `fallback`
 * everywhere. Points need not be sorted; equal times keep the later point.
 */
export function zeroOrderHold(
  profile: readonly ProfilePoint[],
  dtS: number,
  steps: number,
  fallback: number,
): Float64Array {
  const out = new Float64Array(steps);
  if (profile.length === 0) return out.fill(fallback);
  const sorted = profile.map((p, i) => ({ p, i })).sort((a, b) =>
    a.p.time_s - b.p.time_s || a.i - b.i
  ).map((e) => e.p);
  let idx = 0;
  let value = sorted[0]!.power_kw;
  for (let k = 0; k < steps; k++) {
    const t = k * dtS;
    while (idx < sorted.length && sorted[idx]!.time_s <= t) {
      value = sorted[idx]!.power_kw;
      idx++;
    }
    out[k] = value;
  }
  return out;
}
