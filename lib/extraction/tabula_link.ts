/**
 * The heating-demand link of an extracted building: its TABULA variant (tabula_match.ts) and
 * q_h_nd computed in-process by the heat library with the building's own surfaces, reference
 * area and storeys, beside the archetype's own value.
 *
 * Everything that depends only on the typology (the country's periods and variants, each
 * archetype's category U-values and q_h_nd) is prepared once per run (`heatLinkDeps`,
 * `loadTabulaForRun`), so a building costs one calculation.
 */
import { calculate } from "../heat/calculation/calculate.ts";
import { prepareVariant } from "../heat/calculation/prepared_variant.ts";
import { type Surface, SURFACE_TYPES, type SurfaceType } from "../heat/calculation/overrides.ts";
import { COUNTRY_COLUMN, ROW_COLUMN, VARIANT_TABLE } from "../heat/tabula/tabula_tables.ts";
import { type Typology, typologyFromRows } from "../heat/typology/typology.ts";
import { codeOf, type VariantRow } from "../heat/parameters/variant_row.ts";
import { quoteIdent, type Store } from "../store/store.ts";
import type { BuildingRecord, ExtractionOptions, TabulaLink } from "./building_record.ts";
import {
  type CategoryUValues,
  MIN_HEAT_SURFACE_AREA,
  type RoofTreatment,
  tabulaDoorArea,
  toHeatSurfaces,
} from "./heat_surfaces.ts";
import { type CountryTypology, countryTypology, resolveHeatCountry } from "./tabula_match.ts";
import { matchTabula } from "./tabula_match.ts";

/** What the link needs of one archetype, computed once per variant. */
export interface ArchetypeHeat {
  readonly row: VariantRow;
  /** U-value per category that reproduces the archetype's transmission per m2 (see below). */
  readonly u: CategoryUValues;
  /** TABULA's attic code (C, N, NI, P, PI, "-" flat roof, "" unknown). */
  readonly attic: string;
  /** The archetype's own q_h_nd, kWh/(m2.a). */
  readonly q_h_nd: number;
}

/** The typology of a run, prepared once: matched variants and their archetype data. */
export interface HeatLinkDeps {
  readonly typology: CountryTypology;
  /** Why this typology: "typology AT (LI has none)". */
  readonly countryReason: string;
  /** The archetype data of a variant code (computed on first use, then kept). */
  archetype(code: string): ArchetypeHeat | undefined;
}

/**
 * The U-value per heat category of a variant, W/(m2.K): the category's transmission
 * sum(U_actual x A x b) over its slots, divided by its area and by the b the heat library gives
 * caller-supplied surfaces (the category's first slot with an area). A building with the
 * archetype's own areas therefore gets the archetype's own result, and slots against unheated
 * spaces or soil (b < 1) keep their share. A category without area (or b = 0) falls back to its
 * area-weighted, else first non-zero, U_actual.
 */
export function categoryUValues(row: VariantRow): CategoryUValues {
  const variant = prepareVariant(row);
  const out = {} as Record<SurfaceType, number>;
  for (const category of SURFACE_TYPES) {
    let h = 0, area = 0, ua = 0, firstU = 0;
    for (const { spec, area: a, b, u } of variant.slots) {
      if (spec.category !== category) continue;
      h += u.U_actual * a * b;
      area += a;
      ua += u.U_actual * a;
      if (firstU === 0) firstU = u.U_actual;
    }
    const bFirst = variant.firstAreaB[category];
    out[category] = area > 0 && bFirst > 0 ? h / (area * bFirst) : area > 0 ? ua / area : firstU;
  }
  return out;
}

/** The archetype data of a variant row. */
export function archetypeHeat(row: VariantRow): ArchetypeHeat {
  return {
    row,
    u: categoryUValues(row),
    attic: codeOf(row, "Code_AtticCond"),
    q_h_nd: calculate(row).q_h_nd,
  };
}

/**
 * The link's dependencies from a loaded typology: the run's country, or `heatCountry` where the
 * country has no TABULA typology (`{error}` when neither has one, naming what to set).
 * `available` lists every country with a typology for that error (default: the typology's).
 */
export function heatLinkDeps(
  typology: Typology,
  country: string,
  heatCountry?: string,
  available: readonly string[] = typology.countries().map((c) => c.iso2),
): HeatLinkDeps | { error: string } {
  const choice = resolveHeatCountry(
    country,
    heatCountry,
    (iso2) => typology.variantCodes(iso2).length > 0,
    available,
  );
  if ("error" in choice) return choice;
  const matched = countryTypology(typology, choice.iso2);
  if (!matched) return { error: `Typology ${choice.iso2} has no variants` };
  const cache = new Map<string, ArchetypeHeat>();
  return {
    typology: matched,
    countryReason: choice.reason,
    archetype(code) {
      let found = cache.get(code);
      if (!found) {
        const row = typology.variant(code);
        if (!row) return undefined;
        found = archetypeHeat(row);
        cache.set(code, found);
      }
      return found;
    },
  };
}

/** ISO 3166-1 alpha-2 codes of the countries with a TABULA typology in the store, sorted. */
export async function typologyCountries(store: Store): Promise<string[]> {
  const rows = await store.all<{ iso2: string }>(
    `SELECT DISTINCT ${quoteIdent(COUNTRY_COLUMN)} AS iso2 FROM ${quoteIdent(VARIANT_TABLE)}` +
      ` ORDER BY iso2`,
  );
  return rows.map((r) => r.iso2);
}

/** The variant rows of `countries` (ISO2, any case) from the store, as typologyFromRows takes them. */
export async function readVariantRows(
  store: Store,
  countries: readonly string[],
): Promise<VariantRow[]> {
  const wanted = [...new Set(countries.map((c) => c.toUpperCase()))];
  if (wanted.length === 0) return [];
  return await store.all<VariantRow>(
    `SELECT * EXCLUDE (${quoteIdent(ROW_COLUMN)}, ${quoteIdent(COUNTRY_COLUMN)})` +
      ` FROM ${quoteIdent(VARIANT_TABLE)} WHERE ${quoteIdent(COUNTRY_COLUMN)} IN (` +
      wanted.map(() => "?").join(", ") + `)` +
      ` ORDER BY ${quoteIdent(COUNTRY_COLUMN)}, ${quoteIdent(ROW_COLUMN)}`,
    wanted,
  );
}

/**
 * Reads the variants of the run's country and heat country (only those two) from the store
 * built by `deno task etl` and prepares the link's dependencies; `{error}` (saying what to set)
 * when neither has a typology.
 */
export async function loadTabulaForRun(
  store: Store,
  country: string,
  heatCountry?: string,
): Promise<HeatLinkDeps | { error: string }> {
  const [rows, available] = await Promise.all([
    readVariantRows(store, [country, heatCountry ?? country]),
    typologyCountries(store),
  ]);
  return heatLinkDeps(typologyFromRows(rows), country, heatCountry, available);
}

/** Share of the external footprint that is conditioned floor (TABULA's ext -> int factor). */
const INTERNAL_AREA_FACTOR = 0.85;
/** Share of a storey under a pitched roof that counts (TABULA's attic factor in n_eff). */
const ROOF_LEVEL_SHARE = 0.7;

/**
 * The building's reference floor area A_C_Ref, m2: footprint x (storeys + 0.7 x roof levels) x
 * 0.85 (research note, "Storeys and A_C_Ref"; TABULA's effective storeys count a conditioned
 * attic 0.7 and its internal-dimension area is 0.85 of the external one). At least 1 m2.
 */
export function buildingReferenceArea(
  footprintArea: number,
  storeys: number,
  roofLevels: number,
): number {
  return Math.max(
    1,
    INTERNAL_AREA_FACTOR * footprintArea * (storeys + ROOF_LEVEL_SHARE * Math.max(0, roofLevels)),
  );
}

/** Attic codes whose heat leaves through the roof planes (the roof is in the envelope). */
const ROOF_IN_ENVELOPE = new Set(["C", "NI", "P", "PI"]);

/**
 * How the roof enters: its planes where the building has roof levels or the archetype's attic
 * is in the envelope; else (unheated attic) the top ceiling, whose area is the footprint, which
 * is what the archetype's roof slot and U-value stand for.
 */
export function roofTreatment(roofLevels: number, attic: string): RoofTreatment {
  return roofLevels >= 1 || ROOF_IN_ENVELOPE.has(attic) ? "planes" : "ceiling";
}

/** Bounds of the n_Storey override (lib/heat/parameters/parameter_building.ts). */
const MAX_STOREYS = 100;

/**
 * The heating-demand link of a building: matched variant, q_h_nd with the building's own
 * surfaces (converted by heat_surfaces.ts; doors by TABULA's 0.01 A_C_Ref + 1.5 m2 on the
 * largest exposed wall), A_C_Ref (`buildingReferenceArea`) and storeys, and the archetype's
 * q_h_nd. q_h_nd is null when the building has no surfaces at all. `{error}` when no variant
 * matches.
 */
export function linkToHeat(
  building: Omit<BuildingRecord, "tabula">,
  options: Pick<ExtractionOptions, "year">,
  deps: HeatLinkDeps,
): TabulaLink | { error: string } {
  const match = matchTabula(building, options, deps.typology, deps.countryReason);
  if ("error" in match) return match;
  const archetype = deps.archetype(match.variant);
  if (!archetype) return { error: `Variant ${match.variant} is not in the typology` };
  const aRef = buildingReferenceArea(
    building.footprint_area,
    building.storeys,
    building.roof_levels,
  );
  const surfaces = toHeatSurfaces(building.surfaces, archetype.u, {
    doorArea: tabulaDoorArea(aRef),
    roof: roofTreatment(building.roof_levels, archetype.attic),
  });
  let q: number | null = null;
  if (surfaces.length > 0) {
    // A category the building lacks (no exposed wall, no window) would keep the archetype's
    // slots; a token surface of the least area the heat service takes stands for "none".
    const listed = new Set(surfaces.map((s) => s.type));
    const tokens: Surface[] = SURFACE_TYPES.filter((t) => !listed.has(t)).map((type) => ({
      id: `${building.id}/no-${type}`,
      type,
      area: MIN_HEAT_SURFACE_AREA,
      u_value: archetype.u[type],
    }));
    const result = calculate(archetype.row, {
      A_ref: aRef,
      n_Storey: Math.min(MAX_STOREYS, Math.max(1, building.storeys)),
      surfaces: [...surfaces, ...tokens],
    }).q_h_nd;
    q = Number.isFinite(result) ? result : null;
  }
  return {
    ...match,
    q_h_nd: q,
    q_h_nd_archetype: Number.isFinite(archetype.q_h_nd) ? archetype.q_h_nd : null,
  };
}
