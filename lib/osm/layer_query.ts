/**
 * Map layer queries over the store: the features of one layer table in a bounding box and/or
 * a region, answered as GeoJSON FeatureCollection text, and whether the imported regions cover
 * a request at all (when they do not, the routes ask Overpass instead).
 *
 * Feature shape (the same as the Overpass fallback's, see overpass_features.ts):
 * `{type: "Feature", id: osm_id, geometry, properties: {osm_id, name, region_path, tags,
 * ...the layer's parsed columns}}`, `voltage_kv` as a list of numbers.
 */
import type { Store } from "../store/store.ts";
import { type Bbox, bboxesIntersect } from "./bbox.ts";
import {
  type ImportedRegion,
  LAYER_PROPERTY_COLUMNS,
  type LayerName,
  listImportedRegions,
} from "./osm_store.ts";
import { parseRegionPath } from "./regions_db.ts";

/** The ODbL attribution every answer derived from OSM data carries. */
export const OSM_ATTRIBUTION = "© OpenStreetMap contributors, ODbL 1.0";

/** The start of a FeatureCollection's text up to its features' opening bracket. */
export const COLLECTION_HEAD = `{"type":"FeatureCollection","attribution":${
  JSON.stringify(OSM_ATTRIBUTION)
},"features":[`;

/** What a layer request selects: a box, a region (and its sub-regions), or both. */
export interface LayerRequest {
  /** [minLon, minLat, maxLon, maxLat]: features whose bounding box intersects it. */
  readonly bbox?: Bbox;
  /** A region path such as "Europe/Liechtenstein", components compared without regard to case. */
  readonly region?: string;
}

/** A layer answer: the FeatureCollection as JSON text and its number of features. */
export interface LayerAnswer {
  readonly text: string;
  readonly count: number;
}

/**
 * The canonical form of a region path: components trimmed, joined by "/". Throws a RangeError
 * naming the component that is not 1 to 80 letters, digits, hyphens, underscores or spaces.
 */
export function normalizeRegion(region: string): string {
  return parseRegionPath(region).join("/");
}

/** The lookup key of a region path: lower case, so components match without regard to case. */
export function regionKey(region: string): string {
  return region.normalize("NFC").toLowerCase();
}

/** Whether region path `path` is `ancestor` or lies under it (`Europe` holds `Europe/X`). */
export function regionWithin(path: string, ancestor: string): boolean {
  const [p, a] = [regionKey(path), regionKey(ancestor)];
  return p === a || p.startsWith(`${a}/`);
}

/**
 * Whether the imported `regions` cover `request`: with a region, some imported region is it
 * or lies under it; with a bbox only, some imported region's extent intersects the bbox.
 */
export function regionsCover(regions: readonly ImportedRegion[], request: LayerRequest): boolean {
  const { bbox, region } = request;
  if (region !== undefined) return regions.some((r) => regionWithin(r.region_path, region));
  if (bbox === undefined) return false;
  return regions.some((r) => r.bbox !== null && bboxesIntersect(r.bbox, bbox));
}

/** Whether the store's imported regions cover `request` (see regionsCover). */
export async function storeCovers(store: Store, request: LayerRequest): Promise<boolean> {
  return regionsCover(await listImportedRegions(store), request);
}

/** SQL making the JSON text of a column's value; `null` for NULL. */
function json(column: string): string {
  return `coalesce(CAST(to_json(${column}) AS VARCHAR), 'null')`;
}

/**
 * The SQL expression building one feature's JSON text. The stored geometry, tags and
 * voltage_kv are JSON text already and are spliced in as they are: parsing and re-printing
 * them would be most of a query's work.
 */
export function featureSql(layer: LayerName): string {
  const props = Object.keys(LAYER_PROPERTY_COLUMNS[layer]).map((c) =>
    `',"${c}":' || ${c === "voltage_kv" ? `coalesce(${c}, '[]')` : json(c)}`
  );
  return [
    `'{"type":"Feature","id":' || ${json("osm_id")}`,
    `',"geometry":' || geometry`,
    `',"properties":{"osm_id":' || ${json("osm_id")}`,
    `',"name":' || ${json("name")}`,
    `',"region_path":' || ${json("region_path")}`,
    `',"tags":' || tags`,
    ...props,
    `'}}'`,
  ].join(" || ");
}

/**
 * The features of `layer` selected by `request` (at least one of bbox and region), ordered by
 * osm_id, as FeatureCollection text built in one SQL statement. Throws when the layer table
 * does not exist (nothing imported yet): callers treat that as "the store cannot answer".
 */
export async function queryLayer(
  store: Store,
  layer: LayerName,
  request: LayerRequest,
): Promise<LayerAnswer> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (request.bbox) {
    const [minLon, minLat, maxLon, maxLat] = request.bbox;
    where.push(`max_lon >= ? AND min_lon <= ? AND max_lat >= ? AND min_lat <= ?`);
    params.push(minLon, maxLon, minLat, maxLat);
  }
  if (request.region !== undefined) {
    // Lower-cased in JS and SQL alike; starts_with, not LIKE: "_" is a valid path character.
    const key = regionKey(request.region);
    where.push(`(lower(region_path) = ? OR starts_with(lower(region_path), ?))`);
    params.push(key, `${key}/`);
  }
  if (where.length === 0) throw new TypeError("queryLayer() needs a bbox or a region");
  const [row] = await store.all<{ features: string | null; n: number }>(
    `SELECT string_agg(${featureSql(layer)}, ',' ORDER BY osm_id) AS features,
            CAST(count(*) AS INTEGER) AS n
     FROM ${layer} WHERE ${where.join(" AND ")}`,
    params,
  );
  const count = row?.n ?? 0;
  return {
    text: `${COLLECTION_HEAD}${row?.features ?? ""}]}`,
    count,
  };
}
