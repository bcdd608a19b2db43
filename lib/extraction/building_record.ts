/**
 * The extraction service's data shapes, written once as zod schemas: the run options, one
 * surface of a building, and the building record that `GET /api/v1/buildings` answers. The
 * field descriptions state every convention (they become the OpenAPI document).
 *
 * Conventions: azimuth is the outward normal in degrees clockwise from north (0 N, 90 E, 180 S,
 * 270 W), null for horizontal surfaces; tilt is the extraction service's (spec): 0 = vertical
 * wall, 90 = horizontal (flat roof, floor), 90 - pitch for a pitched roof plane. The heat
 * service counts tilt the other way (0 = horizontal): `heat_surfaces.ts` converts.
 */
import { z } from "@hono/zod-openapi";

/** Options of a run; every member has a default, and the options used are stored with it. */
export const extractionOptionsSchema = z.strictObject({
  storey_height: z.number().gt(1.5).lte(10).default(3.0).describe(
    "Storey height, m: wall height = building:levels x storey_height where height is not tagged",
  ),
  default_storeys: z.number().int().gte(1).lte(100).default(2).describe(
    "Storeys of a building with neither height nor building:levels tagged",
  ),
  default_storeys_minor: z.number().int().gte(1).lte(100).default(1).describe(
    "The same for sheds, garages and similar minor buildings (see `flags.unheated_type`)",
  ),
  untagged_roof_shape: z.enum(["flat", "gabled", "hipped", "pyramidal", "skillion"]).default(
    "flat",
  ).describe("Roof shape of a building without roof:shape"),
  party_wall_distance: z.number().gte(0).lte(5).default(0.3).describe(
    "Greatest distance, m, between two anti-parallel edges of different footprints that are " +
      "taken as one party wall",
  ),
  party_wall_angle: z.number().gte(0).lte(45).default(5).describe(
    "Greatest angle, degrees, between two edges taken as one party wall (from anti-parallel)",
  ),
  window_to_wall_ratio: z.number().gte(0).lte(0.9).optional().describe(
    "Window area / exposed wall area for every building; absent: TABULA's typical value of " +
      "the building type (SFH 0.16, TH 0.20, MFH 0.22, AB 0.23)",
  ),
  keep_small_and_unheated: z.boolean().default(false).describe(
    "Keep buildings flagged small (footprint under 20 m2) or of an unheated type in the " +
      "results (they are always flagged)",
  ),
  year: z.number().int().gte(1000).lte(2100).optional().describe(
    "Construction year of buildings without start_date or building:year (for the TABULA period)",
  ),
}).openapi("ExtractionOptions");

/** The options with their defaults filled in. */
export type ExtractionOptions = z.output<typeof extractionOptionsSchema>;

/** The options with every default: `extractionOptionsSchema.parse({})`. */
export const DEFAULT_EXTRACTION_OPTIONS: ExtractionOptions = extractionOptionsSchema.parse({});

/** Kinds of surface. */
export const EXTRACTED_SURFACE_TYPES = ["wall", "roof", "floor", "window"] as const;

/** One surface of a building. */
export const extractedSurfaceSchema = z.object({
  id: z.string().describe(
    'Stable id: "<building id>/wall/3", "/roof/0", "/floor", "/wall/3/window"',
  ),
  type: z.enum(EXTRACTED_SURFACE_TYPES),
  area: z.number().describe(
    "Area, m2. Walls are gross: their windows are children (`parent`), net wall = wall - " +
      "windows. A roof plane's area is its sloped area (projection / cos(pitch))",
  ),
  azimuth: z.number().nullable().describe(
    "Outward normal, degrees clockwise from north (0 N, 90 E, 180 S, 270 W); null for " +
      "horizontal surfaces (flat roof, floor)",
  ),
  tilt: z.number().describe(
    "0 = vertical (walls, windows), 90 = horizontal (flat roof, floor), 90 - pitch for a " +
      "pitched roof plane (the heat service counts the other way: its tilt = 90 - this)",
  ),
  adiabatic: z.boolean().optional().describe(
    "A party wall shared with a neighbour (no heat flow, no windows); absent: exposed",
  ),
  parent: z.string().optional().describe("The wall a window belongs to"),
}).openapi("ExtractedSurface");

/** One surface of a building. */
export type ExtractedSurface = z.infer<typeof extractedSurfaceSchema>;

/** Flags of a building. */
export const buildingFlagsSchema = z.object({
  small: z.boolean().describe("Footprint under 20 m2"),
  unheated_type: z.boolean().describe(
    "building=* value of a usually unheated building (shed, garage, carport, barn, ...)",
  ),
  overlaps: z.boolean().describe("Its footprint overlaps another's (a mapping error)"),
});

/** The heating-demand link of a building. */
export const tabulaLinkSchema = z.object({
  variant: z.string().describe("The matched TABULA variant code, e.g. AT.MFH.07.Gen.ReEx.001.001"),
  country: z.string().describe("ISO 3166-1 alpha-2 of the typology used"),
  building_type: z.enum(["SFH", "TH", "MFH", "AB"]),
  period: z.string().describe("The typology's construction period of the variant"),
  match_reason: z.string().describe("Why this variant: the facts that chose type and period"),
  q_h_nd: z.number().nullable().describe(
    "Energy need for heating, kWh/(m2.a), computed with this building's own surfaces and storeys",
  ),
  q_h_nd_archetype: z.number().nullable().describe(
    "The archetype's own value, kWh/(m2.a), for comparison",
  ),
}).openapi("TabulaLink");

/** The heating-demand link of a building. */
export type TabulaLink = z.infer<typeof tabulaLinkSchema>;

/** One extracted building (no geometry: `GET /api/v1/geometry` has the footprints). */
export const buildingRecordSchema = z.object({
  id: z.string().describe('The OSM record, e.g. "way/25208578" or "relation/123"'),
  country: z.string().describe("ISO 3166-1 alpha-2 of the run"),
  building_type: z.string().describe("The OSM building=* value"),
  footprint_area: z.number().describe(
    "m2, holes subtracted, in a local metric projection around the run's box",
  ),
  height: z.number().describe("Wall (eaves) height, m"),
  height_source: z.enum(["height", "levels", "default"]).describe(
    "Where the height came from: the height tag (less roof:height), building:levels x " +
      "storey height, or the default storeys",
  ),
  storeys: z.number().int().describe("building:levels, or round(height / storey height), >= 1"),
  roof_levels: z.number().describe("roof:levels (storeys under a pitched roof, not in storeys)"),
  roof_shape: z.string().describe("The roof shape used (tagged or the run's default)"),
  attached_neighbours: z.number().int().describe("Footprints sharing a party wall with it"),
  year: z.number().int().nullable().describe("Construction year where tagged"),
  centroid: z.tuple([z.number(), z.number()]).describe("[lon, lat] of the footprint"),
  flags: buildingFlagsSchema,
  surfaces: z.array(extractedSurfaceSchema),
  tabula: tabulaLinkSchema.nullable().describe(
    "The heating-demand link; null where there is none (`tabula_absent_reason` says why)",
  ),
  tabula_absent_reason: z.string().optional().describe(
    "Why `tabula` is null (present only then): e.g. the run's country has no TABULA typology " +
      "and the run named no `heat_country`, or no variant matches the building",
  ),
}).openapi("ExtractedBuilding");

/** One extracted building. */
export type BuildingRecord = z.infer<typeof buildingRecordSchema>;

/** A footprint to extract: one OSM building with its tags and (Multi)Polygon in lon/lat. */
export interface Footprint {
  /** "way/1" or "relation/2". */
  readonly id: string;
  readonly tags: Readonly<Record<string, string>>;
  /** Polygons, each [outer ring, ...holes], positions [lon, lat] (rings closed). */
  readonly polygons: readonly (readonly (readonly [number, number])[][])[];
}
