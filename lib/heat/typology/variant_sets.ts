/**
 * Variant sets: a country's typology may come in several sets, the national one (`N`) and
 * regional ones or climate zones (`DE.East`, `GR.ZoneA`..`D`, `SE.Zone1`..`3`, `IT.MidClim`).
 *
 * Rule used wherever a caller names no set: the national set `N` when the country has one,
 * else the set with the most variants (ties broken by name), so `GR` defaults to `ZoneA`.
 */
import { parseVariantCode } from "./variant_code.ts";

/** Set code of a national typology. */
export const NATIONAL_SET = "N";

/** One variant set of a country and how many variants it holds. */
export interface VariantSet {
  set: string;
  count: number;
}

/** The variant sets among the codes, the preferred one first, then by size and name. */
export function variantSets(codes: Iterable<string>): VariantSet[] {
  const counts = new Map<string, number>();
  for (const code of codes) {
    const parsed = parseVariantCode(code);
    if (parsed) counts.set(parsed.set, (counts.get(parsed.set) ?? 0) + 1);
  }
  const rank = (set: string) => (set === NATIONAL_SET ? 0 : 1);
  return [...counts]
    .map(([set, count]) => ({ set, count }))
    .sort((a, b) =>
      rank(a.set) - rank(b.set) || b.count - a.count || a.set.localeCompare(b.set, "en")
    );
}

/** The set used when the caller names none; undefined when there are no codes. */
export function preferredSet(codes: Iterable<string>): string | undefined {
  return variantSets(codes)[0]?.set;
}
