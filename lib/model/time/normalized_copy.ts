/**
 * Calliope 0.6's `normalized_copy`: before clustering, each variable is scaled per technology
 * (over all its loc::techs and cost classes) to |x| / max |x|, so that variables of different
 * units and sizes weigh alike in the distances between days.
 */
import type { TimeVariable } from "./time_data.ts";

/** The technology of `loc::tech` (of a link end `loc::tech:remote`, `tech:remote`, as Calliope). */
export function techOf(locTech: string): string {
  return locTech.split("::")[1] ?? locTech;
}

/**
 * `variables` normalised per (variable, technology): |x| / max |x| over the timesteps at
 * `indices` (NaN ignored; a group whose maximum is 0 gives NaN, which the day matrix reads as 0,
 * as Calliope's 0/0 followed by `nan_to_num`).
 */
export function normalizedCopy(
  variables: readonly TimeVariable[],
  indices: readonly number[],
): TimeVariable[] {
  const maxOf = new Map<string, number>();
  const key = (v: TimeVariable) => `${v.variable}|${techOf(v.locTech)}`;
  for (const v of variables) {
    let max = maxOf.get(key(v)) ?? 0;
    for (const i of indices) {
      const x = Math.abs(v.values[i]!);
      if (x > max) max = x;
    }
    maxOf.set(key(v), max);
  }
  return variables.map((v) => {
    const max = maxOf.get(key(v))!;
    return { ...v, values: v.values.map((x) => Math.abs(x / max)) };
  });
}
