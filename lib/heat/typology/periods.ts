/**
 * Construction periods (year bands) of a country's typology and the resolution of a
 * construction year to its period.
 *
 * A period is named by the period segment of the variant codes (`02` in `DE.N.SFH.02...`), the
 * same value the match prefix shows; its band comes from the rows' `Year1_Building` and
 * `Year2_Building`, where TABULA writes 0 and 9999 for open ends.
 */
import type { VariantRow } from "../parameters/variant_row.ts";
import { parseVariantCode } from "./variant_code.ts";

/** Building size classes of the TABULA typologies, smallest first. */
export const BUILDING_TYPES = ["SFH", "TH", "MFH", "AB"] as const;
export type BuildingType = (typeof BUILDING_TYPES)[number];

/** First year of an open-ended oldest band. */
export const OPEN_YEAR_FROM = 0;
/** Last year of an open-ended newest band. */
export const OPEN_YEAR_TO = 9999;

/** One construction-year band. */
export interface ConstructionPeriod {
  /** Period segment of the variant codes, e.g. `02`. */
  period: string;
  /** First year of the band; 0 when open-ended. */
  year_from: number;
  /** Last year of the band; 9999 when open-ended. */
  year_to: number;
}

/** Which variants to take the periods from. */
export interface PeriodScope {
  /** Variant set, e.g. `N`. */
  set: string;
  /** Only this building type; all four standard types when omitted. */
  type?: BuildingType;
}

/** Reads a year cell; empty, missing or non-numeric cells give undefined. */
function year(row: VariantRow, column: string): number | undefined {
  const value = row[column];
  if (value === null || value === undefined || value === "") return undefined;
  const parsed = typeof value === "number" ? value : Number(value);
  return Number.isInteger(parsed) ? parsed : undefined;
}

function isBuildingType(type: string): type is BuildingType {
  return (BUILDING_TYPES as readonly string[]).includes(type);
}

/**
 * The construction periods of one variant set (and type), oldest first.
 *
 * Variants outside the four standard types (e.g. Italy's combined `SFH-TH` pilot cases) are
 * left out, since their period segments (`01-03`) are not periods of the typology.
 */
export function constructionPeriods(
  rows: Iterable<VariantRow>,
  scope: PeriodScope,
): ConstructionPeriod[] {
  const bands = new Map<string, ConstructionPeriod>();
  for (const row of rows) {
    const code = row["Code_BuildingVariant"];
    const parsed = typeof code === "string" ? parseVariantCode(code) : undefined;
    if (!parsed || parsed.set !== scope.set || !isBuildingType(parsed.type)) continue;
    if (scope.type !== undefined && parsed.type !== scope.type) continue;
    const from = year(row, "Year1_Building") || OPEN_YEAR_FROM;
    const to = year(row, "Year2_Building") || OPEN_YEAR_TO;
    const known = bands.get(parsed.period);
    // Rows of one period agree in the data; should they not, the band covers them all.
    bands.set(parsed.period, {
      period: parsed.period,
      year_from: Math.min(from, known?.year_from ?? from),
      year_to: Math.max(to, known?.year_to ?? to),
    });
  }
  return [...bands.values()].sort((a, b) =>
    a.year_from - b.year_from || a.year_to - b.year_to || a.period.localeCompare(b.period, "en")
  );
}

/** The period whose band contains the year (bounds inclusive); undefined when none does. */
export function periodOfYear(
  periods: readonly ConstructionPeriod[],
  year: number,
): ConstructionPeriod | undefined {
  return periods.find((p) => p.year_from <= year && year <= p.year_to);
}
