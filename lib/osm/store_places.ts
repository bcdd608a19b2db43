/**
 * The geocoder's places of the imported regions: OSM place nodes (`place=*` with a name) and the
 * communes and districts, read from the OSM store. Display names end with the region's country
 * ("Vaduz, Liechtenstein"): the second component of its path, or the only one.
 */
import type { Store } from "../store/store.ts";
import type { BBox, Place } from "./gazetteer.ts";
import { polygonsCentroid, type Position } from "./geo_measure.ts";

/** The country of a region path: "Europe/Germany/Bayern" -> "Germany". */
export function countryOfRegion(regionPath: string): string {
  const parts = regionPath.split("/");
  return parts[1] ?? parts[0] ?? regionPath;
}

/** Whether the store has the OSM tables (an empty store file has none). */
async function hasOsmTables(store: Store): Promise<boolean> {
  const rows = await store.all(
    `SELECT 1 FROM information_schema.tables WHERE table_name = 'osm_regions'`,
  );
  return rows.length > 0;
}

function namesOf(tags: Record<string, string>): string[] {
  return Object.entries(tags)
    .filter(([key]) =>
      key === "name" || key.startsWith("name:") || key === "alt_name" ||
      key === "official_name" || key === "short_name"
    )
    .map(([, value]) => value);
}

function population(tags: Record<string, string>): number {
  const n = Number((tags["population"] ?? "").replace(/[\s,']/g, ""));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function displayName(name: string, regionPath: string): string {
  const country = countryOfRegion(regionPath);
  return name === country ? name : `${name}, ${country}`;
}

/** Every named place of the imported regions; an empty list before any import. */
export async function placesFromStore(store: Store): Promise<Place[]> {
  if (!(await hasOsmTables(store))) return [];
  const places: Place[] = [];
  const nodes = await store.all<{ region_path: string; lon: number; lat: number; tags: string }>(
    `SELECT region_path, lon, lat, tags FROM osm_nodes
     WHERE tags IS NOT NULL AND json_extract_string(tags, '$.place') IS NOT NULL
       AND json_extract_string(tags, '$.name') IS NOT NULL`,
  );
  for (const node of nodes) {
    const tags = JSON.parse(node.tags) as Record<string, string>;
    const name = tags["name"]!;
    places.push({
      name,
      names: namesOf(tags),
      lon: node.lon,
      lat: node.lat,
      display_name: displayName(name, node.region_path),
      population: population(tags),
      ...(tags["place"] ? { kind: tags["place"] } : {}),
    });
  }
  for (const layer of ["communes", "districts"] as const) {
    const areas = await store.all<{
      region_path: string;
      name: string;
      tags: string;
      geometry: string;
      min_lon: number;
      min_lat: number;
      max_lon: number;
      max_lat: number;
    }>(
      `SELECT region_path, name, tags, geometry, min_lon, min_lat, max_lon, max_lat FROM ${layer}
       WHERE name IS NOT NULL`,
    );
    for (const area of areas) {
      const tags = JSON.parse(area.tags) as Record<string, string>;
      const geometry = JSON.parse(area.geometry) as { coordinates: Position[][][] };
      const [lon, lat] = polygonsCentroid(geometry.coordinates);
      const bbox: BBox = [area.min_lon, area.min_lat, area.max_lon, area.max_lat];
      places.push({
        name: area.name,
        names: namesOf(tags),
        lon,
        lat,
        display_name: displayName(area.name, area.region_path),
        population: population(tags),
        bbox,
        kind: layer === "communes" ? "municipality" : "district",
      });
    }
  }
  return places;
}

/**
 * The places of the imported regions, read once and kept until `invalidate()` (called when an
 * import completes); a failed read is retried at the next call.
 */
export function storePlaces(store: Store): {
  places(): Promise<readonly Place[]>;
  invalidate(): void;
} {
  let cached: Promise<Place[]> | undefined;
  return {
    places() {
      cached ??= placesFromStore(store).catch((error) => {
        cached = undefined;
        throw error;
      });
      return cached;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
