/**
 * Map layer queries over the store: the features of one layer table in a bounding box and/or
 * a region, answered as GeoJSON FeatureCollection text, and whether the imported regions cover
 * a request at all (when they do not, the routes ask Overpass instead).
 *
 * An answer holds at most `maxFeatures` features and `maxBytes` bytes (LayerLimits), so that a
 * continent-wide box costs no more than that: the first features by osm_id are kept and the
 * collection says it was cut (`truncated`, `total`, `notice`; see collectionTail).
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
  /** Features the request selects; more than `count` when the answer was cut. */
  readonly total?: number;
  /** Whether the answer was cut at a limit (then `total` > `count`). */
  readonly truncated?: boolean;
}

/** The bounds of one layer answer. */
export interface LayerLimits {
  /** Most features (OSM_LAYER_MAX_FEATURES). */
  readonly maxFeatures: number;
  /** Most bytes of the whole collection text, UTF-8 (OSM_LAYER_MAX_MB). */
  readonly maxBytes: number;
}

/** Default bounds: 20,000 features, 32 MiB. */
export const LAYER_LIMITS: LayerLimits = { maxFeatures: 20_000, maxBytes: 32 * 1024 * 1024 };

/** Bytes kept free for the collection's head and tail (the notice included). */
const FRAME_BYTES = 1024;

/** Bytes the features of one answer may take, commas included. */
export function featureBudget(limits: LayerLimits): number {
  return Math.max(0, limits.maxBytes - FRAME_BYTES);
}

/** The notice of an answer cut at a limit: what it holds, why, and how to see the rest. */
export function truncationNotice(count: number, total: number, limits: LayerLimits): string {
  const mb = Math.round((limits.maxBytes / (1024 * 1024)) * 10) / 10;
  return `Showing ${count} of ${total} features (the first by osm_id): an answer holds at ` +
    `most ${limits.maxFeatures} features (OSM_LAYER_MAX_FEATURES) and ${mb} MB ` +
    "(OSM_LAYER_MAX_MB). Zoom in or name a smaller region to see the rest.";
}

/**
 * The end of a collection's text after its last feature: `]}`, or for an answer cut at a limit
 * `],"truncated":true,"total":N,"notice":"..."}` (foreign members, RFC 7946 section 6.1).
 */
export function collectionTail(
  count: number,
  total: number,
  limits: LayerLimits,
): string {
  if (total <= count) return "]}";
  return `],"truncated":true,"total":${total},"notice":${
    JSON.stringify(truncationNotice(count, total, limits))
  }}`;
}

/**
 * The text of a collection that holds nothing and says why: `notice` explains (e.g. a box too
 * large for the Overpass fallback).
 */
export function emptyCollection(notice: string): string {
  return `${COLLECTION_HEAD}],"notice":${JSON.stringify(notice)}}`;
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
 * osm_id, as FeatureCollection text, cut at `limits` (see collectionTail). Throws when the layer
 * table does not exist (nothing imported yet): callers treat that as "the store cannot answer".
 *
 * Memory stays near the answer's size however many features the box holds: a count, then the
 * first `maxFeatures` ids with each feature's size (picked on the small columns), then the
 * text of those that fit `maxBytes`, built in one statement.
 */
export async function queryLayer(
  store: Store,
  layer: LayerName,
  request: LayerRequest,
  limits: LayerLimits = LAYER_LIMITS,
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
  const filter = where.join(" AND ");
  const [counted] = await store.all<{ n: number }>(
    `SELECT CAST(count(*) AS INTEGER) AS n FROM ${layer} WHERE ${filter}`,
    params,
  );
  const total = counted?.n ?? 0;
  // Each feature's size in answer order: all of them when they are few, else the first
  // maxFeatures picked on the small columns first and only those built.
  const sizes = await store.all<{ osm_id: string; region_path: string; size: number }>(
    total <= limits.maxFeatures
      ? `SELECT osm_id, region_path, CAST(strlen(${featureSql(layer)}) AS INTEGER) AS size
         FROM ${layer} WHERE ${filter} ORDER BY osm_id, region_path`
      : `WITH ids AS (
           SELECT osm_id, region_path FROM ${layer} WHERE ${filter}
           ORDER BY osm_id, region_path LIMIT ?)
         SELECT osm_id, region_path, CAST(strlen(${featureSql(layer)}) AS INTEGER) AS size
         FROM ${layer} JOIN ids USING (osm_id, region_path)
         ORDER BY osm_id, region_path`,
    total <= limits.maxFeatures ? params : [...params, limits.maxFeatures],
  );
  const budget = featureBudget(limits);
  let count = 0, used = 0;
  for (const row of sizes) {
    const next = used + row.size + (count > 0 ? 1 : 0);
    if (next > budget) break;
    used = next;
    count++;
  }
  const tail = collectionTail(count, total, limits);
  if (count === 0) return { text: `${COLLECTION_HEAD}${tail}`, count, total, truncated: total > 0 };
  const last = sizes[count - 1]!;
  const [row] = await store.all<{ features: string | null }>(
    `SELECT string_agg(${featureSql(layer)}, ',' ORDER BY osm_id, region_path) AS features
     FROM ${layer}
     WHERE ${filter} AND (osm_id < ? OR (osm_id = ? AND region_path <= ?))`,
    [...params, last.osm_id, last.osm_id, last.region_path],
  );
  return {
    text: `${COLLECTION_HEAD}${row?.features ?? ""}${tail}`,
    count,
    total,
    truncated: total > count,
  };
}
