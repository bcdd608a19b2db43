/**
 * Calliope 0.6's `reshape_for_clustering`: one row per day holding every value of that day of
 * every series, NaN read as 0. The order of the columns does not matter to the distances.
 */
import type { TimeVariable } from "./time_data.ts";

/** Row d: the values of `variables` at the timesteps `days[d]`, series after series. */
export function dayMatrix(
  variables: readonly TimeVariable[],
  days: readonly (readonly number[])[],
): number[][] {
  return days.map((steps) => {
    const row: number[] = [];
    for (const v of variables) {
      for (const i of steps) {
        const x = v.values[i]!;
        row.push(Number.isNaN(x) ? 0 : x);
      }
    }
    return row;
  });
}
