/**
 * The anatomy of a TABULA variant code, e.g. `DE.N.SFH.02.Gen.ReEx.001.002`:
 * country . variant set . building type . construction period . building option . level.
 *
 * The building option is every segment between the period and the last one (`Gen.ReEx.001`:
 * generic building, first example of its type and period); the last segment numbers the
 * variant (`001` existing state, `002` usual, `003` advanced refurbishment, `01x` the same
 * levels of a second series).
 */

import { VARIANT_CODE_PATTERN } from "../parameters/parameters.ts";

/** A well-formed code, as the data validation defines it. */
export { VARIANT_CODE_PATTERN };

/** One segment of a code after the country (set, type, period, option): as VARIANT_CODE_PATTERN. */
export const CODE_SEGMENT_PATTERN = /^[A-Za-z0-9-]+$/;

/** The segments of a variant code. */
export interface VariantCode {
  /** ISO 3166-1 alpha-2 country code, e.g. `DE`. */
  country: string;
  /** Variant set: `N` for the national typology, else a region or climate zone, e.g. `ZoneA`. */
  set: string;
  /** Building type segment, e.g. `SFH`, `TH`, `MFH`, `AB` (a few sets use others). */
  type: string;
  /** Construction-period segment, e.g. `02`. */
  period: string;
  /** Building option: the segments between period and variant number, e.g. `Gen.ReEx.001`. */
  option: string;
  /** Last segment, e.g. `001`. */
  variant: string;
}

/** Splits a variant code into its segments; undefined when the code is malformed. */
export function parseVariantCode(code: string): VariantCode | undefined {
  if (!VARIANT_CODE_PATTERN.test(code)) return undefined;
  const parts = code.split(".");
  const [country, set, type, period] = parts;
  const variant = parts[parts.length - 1];
  if (
    country === undefined || set === undefined || type === undefined || period === undefined ||
    variant === undefined || parts.length < 6
  ) return undefined;
  return { country, set, type, period, option: parts.slice(4, -1).join("."), variant };
}

/** The shared prefix `<country>.<set>.<type>.<period>` of a type and period. */
export function variantPrefix(country: string, set: string, type: string, period: string): string {
  return [country, set, type, period].join(".");
}
