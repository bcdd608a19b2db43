/**
 * Height, storeys and year of a building from its OSM tags and the run's options. The wall
 * (eaves) height comes from `height` less `roof:height`, else `building:levels` x storey height,
 * else a default storey count by type; `roof:levels` are storeys under the roof and are not
 * added to the walls (the bug City Energy Analyst fixed in PR #3063).
 */
import type { ExtractionOptions } from "./building_record.ts";

/** Footprints under this area, m2, are flagged small (probably unheated). */
export const SMALL_FOOTPRINT_M2 = 20;

/** A tagged height under this, m, is an OSM artefact and is ignored (CEA #3228). */
export const MIN_TAGGED_HEIGHT_M = 2;

/** building=* values of usually unheated buildings (flagged, and 1 default storey). */
export const UNHEATED_BUILDING_TYPES: ReadonlySet<string> = new Set([
  "shed",
  "garage",
  "garages",
  "carport",
  "roof",
  "hut",
  "cabin",
  "allotment_house",
  "barn",
  "cowshed",
  "stable",
  "sty",
  "farm_auxiliary",
  "greenhouse",
  "glasshouse",
  "parking",
  "kiosk",
  "toilets",
  "transformer_tower",
  "service",
  "bunker",
  "ruins",
  "construction",
  "container",
  "tent",
  "silo",
  "storage_tank",
  "water_tower",
  "bridge",
]);

/** True if the building=* value is of a usually unheated building. */
export function isUnheatedType(building: string): boolean {
  return UNHEATED_BUILDING_TYPES.has(building.trim().toLowerCase());
}

const FOOT_M = 0.3048;
const INCH_M = 0.0254;

/**
 * A length tag in metres: "12", "12 m", "12.5m", "12,5", "40'", "40 ft", `40'6"`; null if it
 * cannot be read or is not positive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseLength("12,5 m"), 12.5);
 * ```
 */
export function parseLength(text: string | undefined): number | null {
  if (text === undefined) return null;
  const s = text.trim().toLowerCase().replace(/(\d),(\d)/, "$1.$2");
  const feet = s.match(
    /^(\d+(?:\.\d+)?)\s*(?:'|ft|feet|foot)\s*(?:(\d+(?:\.\d+)?)\s*(?:"|in|inch|inches))?$/,
  );
  if (feet) {
    const v = Number(feet[1]) * FOOT_M + (feet[2] === undefined ? 0 : Number(feet[2]) * INCH_M);
    return v > 0 ? v : null;
  }
  const metres = s.match(/^(\d+(?:\.\d+)?|\.\d+)\s*(m|meters?|metres?)?$/);
  if (!metres) return null;
  const v = Number(metres[1]);
  return Number.isFinite(v) && v > 0 ? v : null;
}

/** A count tag such as building:levels: "3", "2.5", "3,5"; null if unreadable or negative. */
export function parseCount(text: string | undefined): number | null {
  if (text === undefined) return null;
  const s = text.trim().replace(/(\d),(\d)/, "$1.$2");
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}

/** The height facts of a building. */
export interface BuildingHeight {
  /** Wall (eaves) height above the building's base, m. */
  readonly height: number;
  readonly height_source: "height" | "levels" | "default";
  /** Storeys (>= 1) without roof levels. */
  readonly storeys: number;
  /** roof:levels, 0 if not tagged. */
  readonly roof_levels: number;
  /** Tags that could not be used, e.g. a height under 2 m. */
  readonly problems: string[];
}

/**
 * The wall height and storeys of a building from its tags (first match wins: height, levels,
 * default), less min_height or building:min_level x storey height where tagged.
 */
export function buildingHeight(
  tags: Readonly<Record<string, string>>,
  options: Pick<ExtractionOptions, "storey_height" | "default_storeys" | "default_storeys_minor">,
): BuildingHeight {
  const problems: string[] = [];
  const storey = options.storey_height;
  const roofLevels = parseCount(tags["roof:levels"]) ?? 0;
  const levels = parseCount(tags["building:levels"]);
  const minLevel = parseCount(tags["building:min_level"]) ?? 0;
  const minHeight = parseLength(tags["min_height"]) ?? minLevel * storey;
  let top: number | null = null;
  let source: BuildingHeight["height_source"] = "default";
  const tagged = parseLength(tags["height"]);
  if (tags["height"] !== undefined && tagged === null) {
    problems.push(`height "${tags["height"]}" cannot be read`);
  } else if (tagged !== null && tagged < MIN_TAGGED_HEIGHT_M) {
    problems.push(`height ${tagged} m is under ${MIN_TAGGED_HEIGHT_M} m, ignored`);
  } else if (tagged !== null) {
    const roofHeight = parseLength(tags["roof:height"]);
    const eaves = roofHeight !== null ? tagged - roofHeight : tagged - roofLevels * storey;
    // A roof taller than the building is a tagging error: keep the whole height as walls.
    top = eaves >= MIN_TAGGED_HEIGHT_M ? eaves : tagged;
    source = "height";
  }
  if (top === null && levels !== null && levels > 0) {
    top = levels * storey;
    source = "levels";
  }
  const building = tags["building"] ?? "yes";
  const defaultStoreys = isUnheatedType(building)
    ? options.default_storeys_minor
    : options.default_storeys;
  if (top === null) top = (defaultStoreys + minLevel) * storey;
  let height = top - minHeight;
  if (!(height > 0)) {
    problems.push(`min_height ${minHeight} m is not below the top ${top} m, ignored`);
    height = top;
  }
  const storeys = source === "levels" && levels !== null
    ? Math.max(1, Math.round(levels - minLevel))
    : source === "default"
    ? defaultStoreys
    : Math.max(1, levels !== null && levels > 0 ? Math.round(levels) : Math.round(height / storey));
  return { height, height_source: source, storeys, roof_levels: roofLevels, problems };
}

/** The construction year from start_date or building:year (their first 4-digit year), or null. */
export function buildingYear(tags: Readonly<Record<string, string>>): number | null {
  for (const key of ["start_date", "building:year"]) {
    const m = tags[key]?.match(/(?<!\d)(\d{4})(?!\d)/);
    if (m) return Number(m[1]);
  }
  return null;
}
