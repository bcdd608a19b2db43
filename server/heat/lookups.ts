/**
 * The variant lookups of the periods and match routes, computed once per distinct question.
 *
 * The typology never changes while the server runs, so each answer is kept; keys that callers
 * choose freely (a period text) are bounded so that the cache cannot grow without limit. A key
 * is the JSON of the question's parts, so no part can reach into another (`06|zzz` is not `06`).
 */
import {
  type BuildingType,
  type ConstructionPeriod,
  constructionPeriods,
} from "../../lib/heat/typology/periods.ts";
import {
  type MatchKey,
  refurbishmentLevels,
  type VariantLevel,
} from "../../lib/heat/typology/match.ts";
import type { Typology } from "../../lib/heat/typology/typology.ts";
import { countryRows } from "./country.ts";
import { chooseSet } from "./variant_set.ts";

/** Most answers kept per lookup; the real typology has a few hundred distinct questions. */
const MAX_ENTRIES = 4096;

/** Wraps `compute` so that each question is computed once (up to MAX_ENTRIES questions). */
function memo<A extends unknown[], T>(compute: (...args: A) => T): (...args: A) => T {
  const kept = new Map<string, T>();
  return (...args) => {
    const key = JSON.stringify(args);
    let value = kept.get(key);
    if (value === undefined) {
      value = compute(...args);
      if (kept.size >= MAX_ENTRIES) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}

/** Memoised set choice, periods and refurbishment levels over one typology. */
export interface Lookups {
  /** The named set if the country has it (else 400), or the country's default set. */
  set(iso2: string, named?: string): string;
  /** Construction periods of a country's set, of one building type or all. */
  periods(iso2: string, set: string, type?: BuildingType): ConstructionPeriod[];
  /** The refurbishment levels of one building type and period. */
  levels(key: MatchKey): VariantLevel[];
}

/** Builds the lookups of a typology. */
export function createLookups(typology: Typology): Lookups {
  const defaultSet = memo((iso2: string) => chooseSet(typology.variantCodes(iso2), iso2));
  const periods = memo((iso2: string, set: string, type: BuildingType | null) => {
    const rows = countryRows(typology, typology.variantCodes(iso2));
    return constructionPeriods(rows, type === null ? { set } : { set, type });
  });
  const levels = memo((country: string, set: string, type: string, period: string) =>
    refurbishmentLevels(typology.variantCodes(country), { country, set, type, period })
  );
  return {
    set: (iso2, named) =>
      named === undefined ? defaultSet(iso2) : chooseSet(typology.variantCodes(iso2), iso2, named),
    periods: (iso2, set, type) => periods(iso2, set, type ?? null),
    levels: (key) => levels(key.country, key.set, key.type, key.period),
  };
}
