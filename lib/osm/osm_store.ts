/**
 * The store tables of imported OSM data: the raw elements (osm_nodes, osm_ways,
 * osm_relations) and one table per map layer, every row tagged with its region path.
 */
import type { SqlValue, Store } from "../store/store.ts";
import type { OsmElement } from "./osm_element.ts";

/** The map layers, each a store table of the same name. */
export const LAYER_NAMES = [
  "substations",
  "power_plants",
  "power_lines",
  "communes",
  "districts",
] as const;

/** A map layer name. */
export type LayerName = typeof LAYER_NAMES[number];

/**
 * The map layer called `name`: its own name or the existing frontend's (`osm_substations`,
 * `osm_power_plants`, ...); undefined for any other name.
 */
export function layerByName(name: string): LayerName | undefined {
  const bare = name.startsWith("osm_") ? name.slice(4) : name;
  return (LAYER_NAMES as readonly string[]).includes(bare) ? bare as LayerName : undefined;
}

/**
 * Every layer table: the map layers plus `buildings` (footprints for the extraction service,
 * not a map layer: a country has millions).
 */
export const LAYER_TABLES = [...LAYER_NAMES, "buildings"] as const;

/** A layer table name. */
export type LayerTable = typeof LAYER_TABLES[number];

/** Columns every layer table has: id, region, tags and geometry as JSON text, bbox. */
export const COMMON_LAYER_COLUMNS = [
  "osm_id",
  "region_path",
  "name",
  "tags",
  "geometry",
  "min_lon",
  "min_lat",
  "max_lon",
  "max_lat",
] as const;

/** The parsed property columns of each layer, after COMMON_LAYER_COLUMNS, with SQL types. */
export const LAYER_PROPERTY_COLUMNS: Record<LayerTable, Record<string, string>> = {
  // voltage_kv is a JSON list of numbers (text: the store's appender writes scalars only).
  substations: { power: "VARCHAR", voltage_kv: "VARCHAR", area_m2: "DOUBLE" },
  power_plants: { power: "VARCHAR", source: "VARCHAR", output_mw: "DOUBLE", area_m2: "DOUBLE" },
  power_lines: { power: "VARCHAR", voltage_kv: "VARCHAR", circuits: "INTEGER", cables: "INTEGER" },
  communes: { admin_level: "INTEGER", area_m2: "DOUBLE" },
  districts: { admin_level: "INTEGER", area_m2: "DOUBLE" },
  // levels and height_m as tagged (building:levels, height in metres); null when absent.
  buildings: { building: "VARCHAR", levels: "DOUBLE", height_m: "DOUBLE", area_m2: "DOUBLE" },
};

/** The geometry type of each layer's features. */
export const LAYER_GEOMETRY: Record<LayerTable, string> = {
  substations: "Point",
  power_plants: "Point",
  power_lines: "LineString",
  communes: "MultiPolygon",
  districts: "MultiPolygon",
  buildings: "MultiPolygon",
};

/** Every column of a layer table, in table order. */
export function layerColumns(layer: LayerTable): string[] {
  return [...COMMON_LAYER_COLUMNS, ...Object.keys(LAYER_PROPERTY_COLUMNS[layer])];
}

/** One imported region, as the `osm_regions` table holds it. */
export interface ImportedRegion {
  /** Region path such as "Europe/Liechtenstein", as imported (case kept). */
  region_path: string;
  /** The last path component. */
  name: string;
  /** Where the extract came from: a download URL or the local file imported. */
  source_url: string;
  /** When the import committed, ISO 8601 UTC. */
  imported_at: string;
  /** Features per layer table (the map layers and buildings). */
  counts: Record<LayerTable, number>;
  /** [minLon, minLat, maxLon, maxLat] of the region's nodes; null when it has none. */
  bbox: [number, number, number, number] | null;
}

/** Creates the OSM tables if they do not exist. */
export async function createOsmTables(store: Store): Promise<void> {
  // counts is JSON text ({layer: n}); the bbox is the extent of the region's nodes.
  await store.run(`CREATE TABLE IF NOT EXISTS osm_regions (
    region_path VARCHAR NOT NULL PRIMARY KEY, name VARCHAR NOT NULL, source_url VARCHAR NOT NULL,
    imported_at VARCHAR NOT NULL, counts VARCHAR NOT NULL,
    min_lon DOUBLE, min_lat DOUBLE, max_lon DOUBLE, max_lat DOUBLE)`);
  // Way node lists and relation members are JSON text for the same appender reason; the
  // import casts them to lists in SQL where it needs them.
  await store.run(`CREATE TABLE IF NOT EXISTS osm_nodes (
    region_path VARCHAR NOT NULL, id BIGINT NOT NULL, lon DOUBLE, lat DOUBLE, tags VARCHAR)`);
  await store.run(`CREATE TABLE IF NOT EXISTS osm_ways (
    region_path VARCHAR NOT NULL, id BIGINT NOT NULL, nodes VARCHAR NOT NULL, tags VARCHAR)`);
  await store.run(`CREATE TABLE IF NOT EXISTS osm_relations (
    region_path VARCHAR NOT NULL, id BIGINT NOT NULL, members VARCHAR NOT NULL, tags VARCHAR)`);
  for (const layer of LAYER_TABLES) {
    const props = Object.entries(LAYER_PROPERTY_COLUMNS[layer]).map(([c, t]) => `, ${c} ${t}`);
    await store.run(`CREATE TABLE IF NOT EXISTS ${layer} (
      osm_id VARCHAR NOT NULL, region_path VARCHAR NOT NULL, name VARCHAR, tags VARCHAR NOT NULL,
      geometry VARCHAR NOT NULL, min_lon DOUBLE, min_lat DOUBLE, max_lon DOUBLE, max_lat DOUBLE
      ${props.join("")})`);
  }
}

/** Deletes every row of `regionPath` from the OSM tables. */
export async function deleteOsmRegion(store: Store, regionPath: string): Promise<void> {
  for (const table of ["osm_regions", "osm_nodes", "osm_ways", "osm_relations", ...LAYER_TABLES]) {
    await store.run(`DELETE FROM ${table} WHERE region_path = ?`, [regionPath]);
  }
}

function tagText(tags: Record<string, string>): string | null {
  // Most nodes have no tags: NULL keeps the table small and the layer filters fast.
  for (const _ in tags) return JSON.stringify(tags);
  return null;
}

/** Appends one batch of elements to the raw tables; returns the number written. */
export async function writeOsmElements(
  store: Store,
  regionPath: string,
  elements: readonly OsmElement[],
): Promise<number> {
  const nodes: SqlValue[][] = [], ways: SqlValue[][] = [], relations: SqlValue[][] = [];
  for (const e of elements) {
    if (e.type === "node") nodes.push([regionPath, e.id, e.lon, e.lat, tagText(e.tags)]);
    else if (e.type === "way") {
      ways.push([regionPath, e.id, JSON.stringify(e.refs), tagText(e.tags)]);
    } else relations.push([regionPath, e.id, JSON.stringify(e.members), tagText(e.tags)]);
  }
  if (nodes.length) {
    await store.appendRows("osm_nodes", ["region_path", "id", "lon", "lat", "tags"], nodes);
  }
  if (ways.length) {
    await store.appendRows("osm_ways", ["region_path", "id", "nodes", "tags"], ways);
  }
  if (relations.length) {
    await store.appendRows("osm_relations", ["region_path", "id", "members", "tags"], relations);
  }
  return elements.length;
}

/** Records `region` as imported (replacing an earlier record of the same path). */
export async function writeImportedRegion(store: Store, region: ImportedRegion): Promise<void> {
  await store.run(`DELETE FROM osm_regions WHERE region_path = ?`, [region.region_path]);
  await store.run(
    `INSERT INTO osm_regions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      region.region_path,
      region.name,
      region.source_url,
      region.imported_at,
      JSON.stringify(region.counts),
      ...(region.bbox ?? [null, null, null, null]),
    ],
  );
}

/** Every imported region, by path; an empty list when the tables do not exist yet. */
export async function listImportedRegions(store: Store): Promise<ImportedRegion[]> {
  const exists = await store.all(
    `SELECT 1 FROM information_schema.tables WHERE table_name = 'osm_regions'`,
  );
  if (exists.length === 0) return [];
  const rows = await store.all<{
    region_path: string;
    name: string;
    source_url: string;
    imported_at: string;
    counts: string;
    min_lon: number | null;
    min_lat: number | null;
    max_lon: number | null;
    max_lat: number | null;
  }>(`SELECT * FROM osm_regions ORDER BY region_path`);
  return rows.map((r) => ({
    region_path: r.region_path,
    name: r.name,
    source_url: r.source_url,
    imported_at: r.imported_at,
    counts: JSON.parse(r.counts),
    bbox: r.min_lon === null || r.min_lat === null || r.max_lon === null || r.max_lat === null
      ? null
      : [r.min_lon, r.min_lat, r.max_lon, r.max_lat],
  }));
}
