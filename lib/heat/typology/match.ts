/**
 * Refurbishment levels of one building type and period: which variant codes a match returns
 * and in which order.
 *
 * A type and period often holds several buildings (`Gen.ReEx.001` the generic one, `HR` high
 * rise, `Semi` semi-detached, `Gen.ReEx.002` a second example...) and several series of levels
 * (`001..003`, `011..013` with another heat supply). The main option is the generic building
 * `Gen.ReEx.001` when present, else another generic one (`Gen.*`), else the first option by
 * name; within it the lowest series. Its levels are read from the variant number's last digit: 1 existing state,
 * 2 usual refurbishment, 3 advanced refurbishment (TABULA's names). `Code_TypeVariant` does not
 * tell them apart: it says "Refurbishment" for older and "Variation" (new-build standards) for
 * recent periods, and is mixed within one building in places (AT.N.AB.07).
 */
import { parseVariantCode, type VariantCode } from "./variant_code.ts";

/** Option code of the generic building of a type and period. */
export const MAIN_OPTION = "Gen.ReEx.001";

/** Labels of the three levels, by the last digit of the variant number. */
export const LEVEL_LABELS: Readonly<Record<number, string>> = {
  1: "existing state",
  2: "usual refurbishment",
  3: "advanced refurbishment",
};

/** One matched variant and its level name. */
export interface VariantLevel {
  code: string;
  label: string;
}

/** A building type and period within one country and variant set. */
export interface MatchKey {
  country: string;
  set: string;
  type: string;
  period: string;
}

interface Candidate {
  code: string;
  option: string;
  series: number;
  level: number;
}

function candidate(code: string, parsed: VariantCode): Candidate | undefined {
  if (!/^\d+$/.test(parsed.variant)) return undefined;
  const number = Number(parsed.variant);
  return { code, option: parsed.option, series: Math.floor(number / 10), level: number % 10 };
}

function optionRank(option: string): number {
  if (option === MAIN_OPTION) return 0;
  return option.startsWith("Gen.") ? 1 : 2;
}

/** The main option's variants of a type and period, existing state first; empty when none. */
export function refurbishmentLevels(codes: Iterable<string>, key: MatchKey): VariantLevel[] {
  const candidates: Candidate[] = [];
  for (const code of codes) {
    const parsed = parseVariantCode(code);
    if (
      !parsed || parsed.country !== key.country || parsed.set !== key.set ||
      parsed.type !== key.type || parsed.period !== key.period
    ) continue;
    const found = candidate(code, parsed);
    if (found && LEVEL_LABELS[found.level] !== undefined) candidates.push(found);
  }
  const [first] = [...candidates].sort((a, b) => {
    return optionRank(a.option) - optionRank(b.option) ||
      a.option.localeCompare(b.option, "en") || a.series - b.series;
  });
  if (!first) return [];
  return candidates
    .filter((c) => c.option === first.option && c.series === first.series)
    .sort((a, b) => a.level - b.level)
    .map((c) => ({ code: c.code, label: LEVEL_LABELS[c.level] ?? "" }));
}
