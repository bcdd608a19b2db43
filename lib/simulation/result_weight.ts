/**
 * What a simulation result weighs: its values are steps × series (each series one number per
 * step, the flat and nested copies the client reads both counted, as JSON writes both), and in
 * memory about 8 bytes per value of each distinct array. The service refuses a payload whose
 * result would weigh more than its limits before running it, and bounds the bytes its finished
 * results hold.
 */

/** Bytes one number of a result holds in memory (a double in a packed array). */
export const BYTES_PER_VALUE = 8;

/** Bytes counted for a string's characters (two per UTF-16 unit) and for any object or array. */
const BYTES_PER_CHAR = 2;
const OBJECT_BYTES = 64;

/** The weight of a result known before the run: steps × series. */
export interface PredictedWeight {
  steps: number;
  series: number;
  /** Numbers the result's JSON carries: steps × series. */
  values: number;
  /** Upper bound of the bytes it holds in memory: values × 8. */
  bytes: number;
}

/** The weight of `steps` steps of `series` series. */
export function predictedWeight(steps: number, series: number): PredictedWeight {
  const values = steps * series;
  return { steps, series, values, bytes: values * BYTES_PER_VALUE };
}

/** The weight of a result once computed. */
export interface MeasuredWeight {
  /** Numbers its JSON carries (an array referenced twice counted twice). */
  values: number;
  /** Estimated bytes it holds in memory (each distinct array once, 8 bytes per number). */
  bytes: number;
}

/**
 * Measures a result document: numbers in arrays as written, and bytes held. Reads the length
 * of each array and the type of its first element only (the arrays of a result are uniform),
 * so a 20-million-value result is measured in microseconds.
 */
export function measureResult(result: unknown): MeasuredWeight {
  const seen = new Set<object>();
  let values = 0;
  let bytes = 0;
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === "string") {
      bytes += value.length * BYTES_PER_CHAR;
      return;
    }
    if (value === null || typeof value !== "object" || depth > 64) return;
    const counted = seen.has(value);
    seen.add(value);
    if (Array.isArray(value)) {
      if (value.length > 0 && typeof value[0] === "number") {
        values += value.length;
        if (!counted) bytes += OBJECT_BYTES + value.length * BYTES_PER_VALUE;
        return;
      }
      if (counted) return;
      bytes += OBJECT_BYTES + value.length * BYTES_PER_VALUE;
      for (const element of value) visit(element, depth + 1);
      return;
    }
    if (counted) return;
    bytes += OBJECT_BYTES;
    for (const [key, member] of Object.entries(value)) {
      bytes += key.length * BYTES_PER_CHAR + BYTES_PER_VALUE;
      visit(member, depth + 1);
    }
  };
  visit(result, 0);
  return { values, bytes };
}
