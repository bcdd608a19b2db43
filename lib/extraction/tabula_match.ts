/**
 * The TABULA variant of an extracted building: which typology (country), building type
 * (SFH/TH/MFH/AB), construction period and generic existing-state variant it follows, with the
 * facts that chose them. Pure: the typology is handed in (`countryTypology`).
 */
import {
  BUILDING_TYPES,
  type BuildingType,
  type ConstructionPeriod,
  constructionPeriods,
  OPEN_YEAR_FROM,
  OPEN_YEAR_TO,
  periodOfYear,
} from "../heat/typology/periods.ts";
import { refurbishmentLevels } from "../heat/typology/match.ts";
import type { Typology } from "../heat/typology/typology.ts";
import { preferredSet } from "../heat/typology/variant_sets.ts";
import type { BuildingRecord } from "./building_record.ts";

export type { BuildingType };

/**
 * TABULA's typical window-to-wall ratio of a building type (windows / (wall + windows + door)
 * of the .001 originals of all countries; research note, section 2.1 step 10).
 */
const TYPICAL_WWR: Readonly<Record<BuildingType, number>> = {
  SFH: 0.16,
  TH: 0.2,
  MFH: 0.22,
  AB: 0.23,
};

/** TABULA's typical window-to-wall ratio of a building type: SFH 0.16, TH 0.20, MFH 0.22, AB 0.23. */
export function typicalWindowToWallRatio(type: BuildingType): number {
  return TYPICAL_WWR[type];
}

/** The facts of a building the match reads. */
export type MatchFacts = Pick<
  BuildingRecord,
  "storeys" | "footprint_area" | "attached_neighbours" | "building_type" | "year"
>;

/** A building type and the facts that chose it. */
export interface TypeChoice {
  type: BuildingType;
  reason: string;
}

// Footprint limits, m2. TABULA's generic SFH have footprints of about 60-150 m2, MFH 120-260,
// AB 300-500 (AT and DE typologies): a house is rarely over 300 m2 on the ground, a block of
// flats of 3+ storeys over 500 m2 is an apartment block.
const SFH_MAX_FOOTPRINT = 300;
const SFH_3_STOREY_MAX_FOOTPRINT = 120;
const TH_MAX_FOOTPRINT = 250;
const AB_MIN_FOOTPRINT = 500;

/** OSM building values that name a terraced or semi-detached house. */
const TERRACE_VALUES = new Set(["terrace", "semidetached_house"]);
/** OSM building values that name flats: never a single-family or terraced house. */
const FLATS_VALUES = new Set(["apartments", "dormitory"]);

/**
 * The building type from storeys, footprint, attached neighbours and the OSM building value.
 * Rules, first match wins:
 * 1. AB (apartment block): storeys >= 5, or storeys >= 3 with a footprint >= 500 m2.
 * 2. TH (terraced house): storeys <= 3, footprint < 250 m2, and attached to >= 1 neighbour or
 *    tagged building=terrace / semidetached_house.
 * 3. SFH (single-family house): alone, storeys <= 2 with a footprint < 300 m2, or 3 storeys with
 *    a footprint < 120 m2.
 * 4. MFH (multi-family house): everything else.
 * A building tagged apartments or dormitory that rules 2-3 make TH or SFH is MFH instead.
 */
export function tabulaBuildingType(facts: MatchFacts): TypeChoice {
  const { storeys, footprint_area: area, attached_neighbours: neighbours } = facts;
  const described = `${storeys} storey${storeys === 1 ? "" : "s"}, footprint ${
    Math.round(area)
  } m2, ${neighbours === 0 ? "detached" : `${neighbours} attached neighbour(s)`}`;
  let type: BuildingType;
  let rule: string;
  if (storeys >= 5 || (storeys >= 3 && area >= AB_MIN_FOOTPRINT)) {
    type = "AB";
    rule = storeys >= 5 ? "5 or more storeys" : `3+ storeys on ${AB_MIN_FOOTPRINT}+ m2`;
  } else if (
    storeys <= 3 && area < TH_MAX_FOOTPRINT &&
    (neighbours >= 1 || TERRACE_VALUES.has(facts.building_type))
  ) {
    type = "TH";
    rule = neighbours >= 1 ? "attached, up to 3 storeys" : `building=${facts.building_type}`;
  } else if (
    neighbours === 0 &&
    ((storeys <= 2 && area < SFH_MAX_FOOTPRINT) ||
      (storeys === 3 && area < SFH_3_STOREY_MAX_FOOTPRINT))
  ) {
    type = "SFH";
    rule = "detached, small";
  } else {
    type = "MFH";
    rule = "neither small, attached nor a block";
  }
  if ((type === "SFH" || type === "TH") && FLATS_VALUES.has(facts.building_type)) {
    type = "MFH";
    rule = `building=${facts.building_type}`;
  }
  return { type, reason: `type ${type} (${rule}): ${described}` };
}

/** One country's typology as the match needs it: its set, periods and generic variants. */
export interface CountryTypology {
  /** ISO 3166-1 alpha-2 of the typology. */
  readonly iso2: string;
  /** The variant set used: the national `N` where there is one (lib/heat/typology/variant_sets.ts). */
  readonly set: string;
  /** Periods of each type that has a generic existing-state variant, oldest first. */
  readonly periods: Readonly<Record<BuildingType, readonly ConstructionPeriod[]>>;
  /** The generic existing-state variant code (`...Gen.ReEx.001.001`) of a type and period. */
  variant(type: BuildingType, period: string): string | undefined;
}

/**
 * A country's typology for the match; undefined when the country has none. The variant of a
 * type and period is the main option's existing state (lib/heat/typology/match.ts
 * `refurbishmentLevels`): `Gen.ReEx.001.001` where present.
 */
export function countryTypology(typology: Typology, iso2: string): CountryTypology | undefined {
  const codes = typology.variantCodes(iso2);
  const set = preferredSet(codes);
  const country = typology.country(iso2)?.iso2;
  if (set === undefined || country === undefined) return undefined;
  const rows = codes.map((code) => typology.variant(code)!);
  const variants = new Map<string, string>();
  const periods = {} as Record<BuildingType, ConstructionPeriod[]>;
  for (const type of BUILDING_TYPES) {
    periods[type] = constructionPeriods(rows, { set, type }).filter((p) => {
      const [existing] = refurbishmentLevels(codes, { country, set, type, period: p.period });
      if (existing) variants.set(`${type}.${p.period}`, existing.code);
      return existing !== undefined;
    });
  }
  return {
    iso2: country,
    set,
    periods,
    variant: (type, period) => variants.get(`${type}.${period}`),
  };
}

/** Which typology a run uses, and why. */
export interface HeatCountryChoice {
  iso2: string;
  reason: string;
}

/**
 * Land neighbours of European countries without a TABULA typology (the shipped region LI among
 * them): named in the hint of a run that names no heat_country, where they have a typology.
 */
const NEIGHBOURS: Readonly<Record<string, readonly string[]>> = {
  AD: ["ES", "FR"],
  AL: ["GR", "ME", "MK", "XK"],
  BA: ["HR", "ME", "RS"],
  CH: ["AT", "DE", "FR", "IT", "LI"],
  EE: ["LV", "RU"],
  FI: ["NO", "RU", "SE"],
  HR: ["BA", "HU", "ME", "RS", "SI"],
  LI: ["AT", "CH"],
  LT: ["BY", "LV", "PL", "RU"],
  LU: ["BE", "DE", "FR"],
  LV: ["BY", "EE", "LT", "RU"],
  MC: ["FR"],
  MD: ["RO", "UA"],
  ME: ["AL", "BA", "HR", "RS", "XK"],
  MK: ["AL", "BG", "GR", "RS", "XK"],
  PT: ["ES"],
  RO: ["BG", "HU", "MD", "RS", "UA"],
  SK: ["AT", "CZ", "HU", "PL", "UA"],
  SM: ["IT"],
  VA: ["IT"],
  XK: ["AL", "ME", "MK", "RS"],
};

/** "e.g. AT (a neighbour's)" for a country whose neighbours have a typology, else "". */
function neighbourHint(iso2: string, hasTypology: (iso2: string) => boolean): string {
  const near = (NEIGHBOURS[iso2] ?? []).filter(hasTypology);
  if (near.length === 0) return "";
  return `, e.g. ${near.join(" or ")} (${near.length === 1 ? "a neighbour's" : "neighbours'"})`;
}

/**
 * The typology country of a run: its own country where that has a TABULA typology, else
 * `heatCountry` (which must have one). `hasTypology` answers for an upper-case ISO2 code;
 * `available` (the countries with a typology) is listed in the error when given. Nothing is
 * substituted: without `heatCountry`, a country without a typology has none (the error says
 * which to name).
 */
export function resolveHeatCountry(
  country: string,
  heatCountry: string | undefined,
  hasTypology: (iso2: string) => boolean,
  available: readonly string[] = [],
): HeatCountryChoice | { error: string } {
  const own = country.toUpperCase();
  if (hasTypology(own)) return { iso2: own, reason: `typology ${own}` };
  const list = available.length > 0 ? `; typologies: ${[...available].sort().join(", ")}` : "";
  if (heatCountry === undefined) {
    return {
      error: `${own} has no TABULA typology: name one with heat_country` +
        neighbourHint(own, available.length > 0 ? (c) => available.includes(c) : hasTypology) +
        list,
    };
  }
  const other = heatCountry.toUpperCase();
  if (!hasTypology(other)) {
    return { error: `Neither ${own} nor heat_country ${other} has a TABULA typology${list}` };
  }
  return { iso2: other, reason: `typology ${other} (${own} has none)` };
}

/** The matched variant of a building (the TabulaLink members before the heat calculation). */
export interface TabulaMatch {
  variant: string;
  country: string;
  building_type: BuildingType;
  period: string;
  match_reason: string;
}

/** Types to try, in order, when a typology lacks the chosen one. */
const TYPE_FALLBACK: Readonly<Record<BuildingType, readonly BuildingType[]>> = {
  SFH: ["SFH", "TH", "MFH", "AB"],
  TH: ["TH", "SFH", "MFH", "AB"],
  MFH: ["MFH", "AB", "SFH", "TH"],
  AB: ["AB", "MFH", "TH", "SFH"],
};

/**
 * The period a building without a year gets. TABULA holds no stock counts, so which period is
 * most common cannot be read from it; the typology's middle period (the older of two middles,
 * e.g. AT 04, 1961-1980) is taken instead: the post-war decades hold the largest share of the
 * European stock, and the middle errs least either way.
 */
export function defaultPeriod(
  periods: readonly ConstructionPeriod[],
): ConstructionPeriod | undefined {
  return periods[Math.floor((periods.length - 1) / 2)];
}

/** The period containing the year, else the nearest by years. */
function periodNear(periods: readonly ConstructionPeriod[], year: number): ConstructionPeriod {
  const within = periodOfYear(periods, year);
  if (within) return within;
  const distance = (p: ConstructionPeriod) =>
    year < p.year_from ? p.year_from - year : year - p.year_to;
  return periods.reduce((best, p) => (distance(p) < distance(best) ? p : best));
}

/** Matches a building to a variant of the typology; `{error}` when the typology has no type. */
export function matchTabula(
  facts: MatchFacts,
  options: { readonly year?: number | undefined },
  typology: CountryTypology,
  countryReason = `typology ${typology.iso2}`,
): TabulaMatch | { error: string } {
  const chosen = tabulaBuildingType(facts);
  const type = TYPE_FALLBACK[chosen.type].find((t) => typology.periods[t].length > 0);
  if (type === undefined) return { error: `Typology ${typology.iso2} has no building types` };
  const periods = typology.periods[type];
  const typeReason = type === chosen.type
    ? chosen.reason
    : `${chosen.reason}; ${typology.iso2} has no ${chosen.type}, ${type} used`;
  const year = facts.year ?? options.year;
  let period: ConstructionPeriod;
  let periodReason: string;
  if (year !== undefined && year !== null) {
    period = periodNear(periods, year);
    const source = facts.year !== null ? "tagged" : "the run's year option";
    const fits = period.year_from <= year && year <= period.year_to;
    periodReason = `${fits ? "" : "nearest "}period ${period.period} (${band(period)}): ` +
      `year ${year} (${source})`;
  } else {
    period = defaultPeriod(periods)!;
    periodReason = `period ${period.period} (${band(period)}): no year, the typology's middle ` +
      "period";
  }
  const variant = typology.variant(type, period.period)!;
  return {
    variant,
    country: typology.iso2,
    building_type: type,
    period: period.period,
    match_reason: `${typeReason}; ${periodReason}; ${countryReason}`,
  };
}

/** "1961-1980", "-1918", "2011-" for open ends. */
function band(p: ConstructionPeriod): string {
  const from = p.year_from === OPEN_YEAR_FROM ? "" : String(p.year_from);
  const to = p.year_to === OPEN_YEAR_TO ? "" : String(p.year_to);
  return `${from}-${to}`;
}
