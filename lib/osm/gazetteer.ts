/**
 * The local gazetteer the geocoder answers from when Nominatim cannot be reached: named places
 * matched by name without regard to case or diacritics, the best match first (exact, then prefix,
 * then contains; within each, the larger population first). Loaders read the shipped files:
 * OSM place nodes (`data/geo/gazetteer/liechtenstein_places_osm.geojson`, ODbL, © OpenStreetMap
 * contributors) and Natural Earth's populated places (public domain, "Made with Natural Earth").
 */

/** A bounding box: [minLon, minLat, maxLon, maxLat], degrees (RFC 7946 order). */
export type BBox = [number, number, number, number];

/** One place a gazetteer can answer with. */
export interface Place {
  /** The name shown. */
  name: string;
  /** Every name it is found by (the name, translations, ASCII spellings). */
  names: readonly string[];
  /** Degrees (WGS 84). */
  lat: number;
  lon: number;
  /** The answer's display name, e.g. "Vaduz, Liechtenstein". */
  display_name: string;
  /** Inhabitants where known; 0 when not. */
  population: number;
  /** Its extent where known; otherwise a small box around the point is answered. */
  bbox?: BBox;
  /** OSM `place` value or Natural Earth class, for the size of that box. */
  kind?: string;
}

/** A geocoding answer: `{lat, lon, display_name, bbox}`. */
export interface GeocodeResult {
  lat: number;
  lon: number;
  display_name: string;
  bbox: BBox;
}

/** Half-width of the box around a point, degrees, by kind of place. */
const HALF_BOX: Readonly<Record<string, number>> = {
  country: 1,
  city: 0.1,
  town: 0.05,
  village: 0.02,
  hamlet: 0.01,
  isolated_dwelling: 0.005,
  farm: 0.005,
  neighbourhood: 0.01,
  locality: 0.01,
  square: 0.002,
};

/** A box of `half` degrees around a point, clamped to the valid range. */
export function boxAround(lon: number, lat: number, half = 0.05): BBox {
  return [
    Math.max(-180, lon - half),
    Math.max(-90, lat - half),
    Math.min(180, lon + half),
    Math.min(90, lat + half),
  ];
}

/** Lower case, without diacritics, single spaces: "  Zürich " -> "zurich". */
export function normalizeName(name: string): string {
  return name.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().replace(/ß/g, "ss")
    .replace(/\s+/g, " ").trim();
}

/** A place as a geocoding answer: its own bbox where it has a real one, else a small box. */
export function placeResult(place: Place): GeocodeResult {
  const own = place.bbox;
  const bbox = own && own[0] < own[2] && own[1] < own[3]
    ? own
    : boxAround(place.lon, place.lat, HALF_BOX[place.kind ?? ""] ?? 0.05);
  return { lat: place.lat, lon: place.lon, display_name: place.display_name, bbox };
}

/** How well a place's names match a normalized query: 3 exact, 2 prefix, 1 contains, 0 none. */
function matchRank(place: Place, query: string): number {
  let best = 0;
  for (const name of place.names) {
    const n = normalizeName(name);
    const rank = n === query ? 3 : n.startsWith(query) ? 2 : n.includes(query) ? 1 : 0;
    if (rank > best) best = rank;
    if (best === 3) break;
  }
  return best;
}

/** The best place for `query` among `places`, or undefined when none matches. */
export function searchPlaces(places: Iterable<Place>, query: string): Place | undefined {
  const q = normalizeName(query);
  if (q === "") return undefined;
  let best: Place | undefined;
  let bestRank = 0;
  for (const place of places) {
    const rank = matchRank(place, q);
    if (rank === 0) continue;
    if (rank > bestRank || (rank === bestRank && place.population > (best?.population ?? 0))) {
      best = place;
      bestRank = rank;
    }
  }
  return best;
}

/** Places by normalized name (each name of each place), built once per places array. */
const exactIndexes = new WeakMap<readonly Place[], Map<string, Place>>();

function exactIndex(places: readonly Place[]): Map<string, Place> {
  let index = exactIndexes.get(places);
  if (!index) {
    index = new Map();
    for (const place of places) {
      for (const name of place.names) {
        const key = normalizeName(name);
        const held = index.get(key);
        if (!held || place.population > held.population) index.set(key, place);
      }
    }
    exactIndexes.set(places, index);
  }
  return index;
}

/**
 * The place named exactly `query` (without regard to case or diacritics), the most populous
 * where several are; undefined when no name matches exactly. A lookup in an index built once
 * per array: the geocoder answers such names at once, without asking Nominatim.
 */
export function exactPlace(places: readonly Place[], query: string): Place | undefined {
  const q = normalizeName(query);
  return q === "" ? undefined : exactIndex(places).get(q);
}

function finite(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value.replace(/[\s,]/g, "")) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

interface PointFeature {
  geometry?: { type?: string; coordinates?: unknown };
  properties?: Record<string, unknown> | null;
  bbox?: unknown;
}

function pointOf(feature: PointFeature): [number, number] | undefined {
  const c = feature.geometry?.type === "Point" ? feature.geometry.coordinates : undefined;
  if (!Array.isArray(c)) return undefined;
  const lon = finite(c[0]);
  const lat = finite(c[1]);
  return lon === undefined || lat === undefined ? undefined : [lon, lat];
}

function bboxOf(value: unknown): BBox | undefined {
  if (!Array.isArray(value) || value.length !== 4) return undefined;
  const n = value.map(finite);
  return n.every((x) => x !== undefined) ? n as BBox : undefined;
}

function featuresOf(collection: unknown, what: string): PointFeature[] {
  const features = (collection as { features?: unknown })?.features;
  if (!Array.isArray(features)) throw new TypeError(`${what}: expected a FeatureCollection`);
  return features as PointFeature[];
}

/**
 * Places from OSM place nodes (a FeatureCollection of Points with `name`, `name:*`, `place`,
 * `population` tags); `country` is appended to display names ("Vaduz, Liechtenstein").
 */
export function placesFromOsm(collection: unknown, country?: string): Place[] {
  const places: Place[] = [];
  for (const feature of featuresOf(collection, "OSM places")) {
    const tags = feature.properties ?? {};
    const name = tags["name"];
    const point = pointOf(feature);
    if (typeof name !== "string" || !point) continue;
    const names = Object.entries(tags)
      .filter(([key, value]) =>
        typeof value === "string" &&
        (key === "name" || key.startsWith("name:") || key === "alt_name" ||
          key === "official_name" || key === "short_name")
      )
      .map(([, value]) => value as string);
    const bbox = bboxOf(feature.bbox);
    const place: Place = {
      name,
      names,
      lon: point[0],
      lat: point[1],
      display_name: country && name !== country ? `${name}, ${country}` : name,
      population: finite(tags["population"]) ?? 0,
    };
    if (bbox) place.bbox = bbox;
    if (typeof tags["place"] === "string") place.kind = tags["place"];
    places.push(place);
  }
  return places;
}

/** Places from Natural Earth's populated places (name, nameascii, namealt, adm0name, pop_max). */
export function placesFromNaturalEarth(collection: unknown): Place[] {
  const places: Place[] = [];
  for (const feature of featuresOf(collection, "Natural Earth places")) {
    const p = feature.properties ?? {};
    const name = p["name"];
    const point = pointOf(feature);
    if (typeof name !== "string" || !point) continue;
    const names = [p["name"], p["nameascii"], p["namealt"], p["ls_name"]]
      .filter((n): n is string => typeof n === "string" && n !== "");
    const country = typeof p["adm0name"] === "string" ? p["adm0name"] : undefined;
    places.push({
      name,
      names,
      lon: point[0],
      lat: point[1],
      display_name: country && country !== name ? `${name}, ${country}` : name,
      population: finite(p["pop_max"]) ?? 0,
      kind: "city",
    });
  }
  return places;
}

/** Reads a JSON file (a leading byte-order mark, as Natural Earth's file has, is dropped). */
async function readJson(path: string | URL): Promise<unknown> {
  return JSON.parse((await Deno.readTextFile(path)).replace(/^\uFEFF/, ""));
}

/** Where the shipped gazetteer files are. */
export interface ShippedGazetteerPaths {
  /** OSM place nodes of Liechtenstein. */
  osmPlaces: string | URL;
  /** Natural Earth populated places. */
  naturalEarth: string | URL;
}

/** The shipped gazetteer paths under `data/geo/gazetteer` of the repository. */
export const SHIPPED_GAZETTEER: ShippedGazetteerPaths = {
  osmPlaces: new URL("../../data/geo/gazetteer/liechtenstein_places_osm.geojson", import.meta.url),
  naturalEarth: new URL(
    "../../data/geo/gazetteer/ne_110m_populated_places_simple.geojson",
    import.meta.url,
  ),
};

/** Reads the shipped gazetteer: Liechtenstein's OSM places and Natural Earth's world places. */
export async function loadShippedGazetteer(
  paths: ShippedGazetteerPaths = SHIPPED_GAZETTEER,
): Promise<Place[]> {
  const [osm, ne] = await Promise.all([readJson(paths.osmPlaces), readJson(paths.naturalEarth)]);
  return [...placesFromOsm(osm, "Liechtenstein"), ...placesFromNaturalEarth(ne)];
}
