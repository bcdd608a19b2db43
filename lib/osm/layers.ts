/**
 * The layer rules: which OSM elements make the substations, power_plants, power_lines,
 * communes and districts layers, and how their geometry and properties are derived. Reads the
 * raw tables of one region from the store and appends the layer rows in batches.
 */
import type { SqlValue, Store } from "../store/store.ts";
import {
  bboxOf,
  polygonsAreaM2,
  polygonsCentroid,
  type Position,
  vertexAverage,
} from "./geo_measure.ts";
import type { OsmTags } from "./osm_element.ts";
import { layerColumns, type LayerTable } from "./osm_store.ts";
import { ADMIN_LEVELS, layerPropertyRow } from "./layer_properties.ts";
import { assembleArea, type RingWay } from "./ring_assembly.ts";

/** `power` values of each power layer. */
export const POWER_VALUES = {
  substations: ["substation", "station"],
  power_plants: ["plant", "generator"],
  power_lines: ["line", "minor_line", "cable"],
} as const;

export { ADMIN_LEVELS };

/** A way read back with its node positions (undefined where the extract lacks the node). */
interface StoredWay {
  readonly id: number;
  readonly tags: OsmTags;
  readonly refs: number[];
  readonly coords: (Position | undefined)[];
}

function sqlList(values: readonly string[]): string {
  return values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", ");
}

/**
 * The SELECT of the ways of the region matching `where` (SQL over osm_ways; $1 is the region)
 * with their node ids and positions as lists, in node order; a missing node has null position.
 */
function waysWithPositionsSql(where: string): string {
  return `WITH w AS (SELECT id, tags, CAST(nodes AS BIGINT[]) AS refs FROM osm_ways
                     WHERE region_path = $1 AND (${where})),
               u AS (SELECT id, unnest(refs) AS node_id, unnest(range(len(refs))) AS pos FROM w)
          SELECT u.id, any_value(w.tags) AS tags, list(u.node_id ORDER BY u.pos) AS refs,
                 list(n.lon ORDER BY u.pos) AS lons, list(n.lat ORDER BY u.pos) AS lats
          FROM u JOIN w ON w.id = u.id
          LEFT JOIN osm_nodes n ON n.region_path = $1 AND n.id = u.node_id
          GROUP BY u.id`;
}

/** Ways of the region matching `where`, with positions, by id. */
async function queryWays(
  store: Store,
  regionPath: string,
  where: string,
  params: readonly SqlValue[] = [],
): Promise<StoredWay[]> {
  const rows = await store.all<WayRow>(
    `${waysWithPositionsSql(where)} ORDER BY u.id`,
    [regionPath, ...params],
  );
  return rows.map(storedWay);
}

/** A way row with its node ids and positions as lists. */
interface WayRow {
  id: number;
  tags: string | null;
  refs: number[];
  lons: (number | null)[];
  lats: (number | null)[];
}

function storedWay(r: WayRow): StoredWay {
  return {
    id: r.id,
    tags: r.tags === null ? {} : JSON.parse(r.tags),
    refs: r.refs,
    coords: r.lons.map((lon, i) => {
      const lat = r.lats[i];
      return lon === null || lat === null || lat === undefined ? undefined : [lon, lat];
    }),
  };
}

/**
 * Writes the ways matching `where` with their node positions into temporary table `table`, in
 * one join over all of them: linear in the extract (a join per page would scan every node once
 * a page), and DuckDB spills it to disk beyond its memory limit.
 */
async function materializeWays(
  store: Store,
  regionPath: string,
  where: string,
  table: string,
): Promise<void> {
  await store.run(`CREATE OR REPLACE TEMP TABLE ${table} AS ${waysWithPositionsSql(where)}`, [
    regionPath,
  ]);
}

function powerFilter(values: readonly string[]): string {
  return `tags IS NOT NULL AND json_extract_string(tags, '$.power') IN (${sqlList(values)})`;
}

/** What building one layer produced. */
export interface LayerBuild {
  readonly count: number;
  readonly problems: string[];
}

interface Feature {
  osmId: string;
  tags: OsmTags;
  geometry: { type: string; coordinates: unknown };
  bbox: [number, number, number, number];
  props: SqlValue[];
}

async function writeFeatures(
  store: Store,
  layer: LayerTable,
  regionPath: string,
  features: readonly Feature[],
): Promise<void> {
  const rows = features.map((f): SqlValue[] => [
    f.osmId,
    regionPath,
    f.tags.name ?? null,
    JSON.stringify(f.tags),
    JSON.stringify(f.geometry),
    ...f.bbox,
    ...f.props,
  ]);
  for (let i = 0; i < rows.length; i += 5000) {
    await store.appendRows(layer, layerColumns(layer), rows.slice(i, i + 5000));
  }
}

interface Relation {
  id: number;
  tags: OsmTags;
  members: { type: string; ref: number; role: string }[];
}

async function queryRelations(
  store: Store,
  regionPath: string,
  where: string,
  page?: { after: number; limit: number },
): Promise<Relation[]> {
  const rows = await store.all<{ id: number; tags: string; members: string }>(
    `SELECT id, tags, members FROM osm_relations
     WHERE region_path = $1 AND tags IS NOT NULL AND (${where})
     ${page ? `AND id > $2 ORDER BY id LIMIT ${Math.trunc(page.limit)}` : "ORDER BY id"}`,
    page ? [regionPath, page.after] : [regionPath],
  );
  return rows.map((r) => ({ id: r.id, tags: JSON.parse(r.tags), members: JSON.parse(r.members) }));
}

/** Assembles the areas of relations from their member ways; problems name the relation. */
async function relationAreas(
  store: Store,
  regionPath: string,
  relations: readonly Relation[],
  problems: string[],
): Promise<Map<number, Position[][][]>> {
  const wayIds = new Set<number>();
  for (const r of relations) {
    for (const m of r.members) if (m.type === "way") wayIds.add(m.ref);
  }
  const ways = new Map<number, StoredWay>();
  if (wayIds.size > 0) {
    const found = await queryWays(
      store,
      regionPath,
      "id IN (SELECT unnest(CAST($2 AS BIGINT[])))",
      [
        JSON.stringify([...wayIds]),
      ],
    );
    for (const w of found) ways.set(w.id, w);
  }
  const out = new Map<number, Position[][][]>();
  for (const r of relations) {
    const members: RingWay[] = [];
    const missing: string[] = [];
    for (const m of r.members) {
      if (m.type !== "way" || !["outer", "inner", ""].includes(m.role)) continue;
      const way = ways.get(m.ref);
      if (!way || way.coords.some((c) => c === undefined)) {
        missing.push(`way/${m.ref}`);
        continue;
      }
      members.push({ id: way.id, role: m.role, refs: way.refs, coords: way.coords as Position[] });
    }
    const area = assembleArea(members);
    const label = `relation/${r.id}${r.tags.name ? ` (${r.tags.name})` : ""}`;
    if (missing.length) {
      problems.push(
        `${label}: member ways missing or incomplete in the extract: ${missing.join(", ")}`,
      );
    }
    for (const p of area.problems) problems.push(`${label}: ${p}`);
    // An area with a missing or open part would have the wrong shape and area: report it and
    // leave it out, as osmium does, rather than import a fragment.
    if (area.polygons.length === 0 || missing.length > 0 || area.problems.length > 0) {
      problems.push(`${label}: incomplete area; not imported`);
    } else out.set(r.id, area.polygons);
  }
  return out;
}

function point(osmId: string, tags: OsmTags, at: Position, props: SqlValue[]): Feature {
  return {
    osmId,
    tags,
    geometry: { type: "Point", coordinates: at },
    bbox: [at[0], at[1], at[0], at[1]],
    props,
  };
}

/** Point features of a power layer: nodes as they are, ways and multipolygons as centroids. */
async function powerPoints(
  store: Store,
  regionPath: string,
  values: readonly string[],
  props: (tags: OsmTags, areaM2: number | null) => SqlValue[],
  problems: string[],
): Promise<Feature[]> {
  const features: Feature[] = [];
  const nodes = await store.all<{ id: number; lon: number; lat: number; tags: string }>(
    `SELECT id, lon, lat, tags FROM osm_nodes WHERE region_path = $1 AND ${powerFilter(values)}
     ORDER BY id`,
    [regionPath],
  );
  for (const n of nodes) {
    const tags = JSON.parse(n.tags) as OsmTags;
    features.push(point(`node/${n.id}`, tags, [n.lon, n.lat], props(tags, null)));
  }
  for (const w of await queryWays(store, regionPath, powerFilter(values))) {
    const coords = w.coords.filter((c): c is Position => c !== undefined);
    if (coords.length === 0) {
      problems.push(`way/${w.id}: none of its nodes is in the extract; not imported`);
      continue;
    }
    const closed = w.refs.length >= 4 && w.refs[0] === w.refs.at(-1) &&
      coords.length === w.refs.length;
    const at = closed ? polygonsCentroid([[coords]]) : vertexAverage(coords);
    features.push(
      point(`way/${w.id}`, w.tags, at, props(w.tags, closed ? polygonsAreaM2([[coords]]) : null)),
    );
  }
  const relations = await queryRelations(
    store,
    regionPath,
    `json_extract_string(tags, '$.type') = 'multipolygon' AND ${powerFilter(values)}`,
  );
  const areas = await relationAreas(store, regionPath, relations, problems);
  for (const r of relations) {
    const polygons = areas.get(r.id);
    if (!polygons) continue;
    features.push(
      point(
        `relation/${r.id}`,
        r.tags,
        polygonsCentroid(polygons),
        props(r.tags, polygonsAreaM2(polygons)),
      ),
    );
  }
  return features;
}

/** Builds the substations layer: power=substation|station, areas as centroids. */
export async function buildSubstations(store: Store, regionPath: string): Promise<LayerBuild> {
  const problems: string[] = [];
  const features = await powerPoints(
    store,
    regionPath,
    POWER_VALUES.substations,
    (t, area) => layerPropertyRow("substations", t, area),
    problems,
  );
  await writeFeatures(store, "substations", regionPath, features);
  return { count: features.length, problems };
}

/** Builds the power_plants layer: power=plant|generator as centroids, source and output in MW. */
export async function buildPowerPlants(store: Store, regionPath: string): Promise<LayerBuild> {
  const problems: string[] = [];
  const features = await powerPoints(
    store,
    regionPath,
    POWER_VALUES.power_plants,
    (t, area) => layerPropertyRow("power_plants", t, area),
    problems,
  );
  await writeFeatures(store, "power_plants", regionPath, features);
  return { count: features.length, problems };
}

/** Builds the power_lines layer: power=line|minor_line|cable ways as LineStrings. */
export async function buildPowerLines(store: Store, regionPath: string): Promise<LayerBuild> {
  const problems: string[] = [];
  const features: Feature[] = [];
  for (const w of await queryWays(store, regionPath, powerFilter(POWER_VALUES.power_lines))) {
    const coords = w.coords.filter((c): c is Position => c !== undefined);
    if (coords.length < w.coords.length) {
      problems.push(
        `way/${w.id}: ${
          w.coords.length - coords.length
        } nodes missing in the extract; line shortened`,
      );
    }
    if (coords.length < 2) {
      problems.push(`way/${w.id}: fewer than 2 nodes in the extract; not imported`);
      continue;
    }
    features.push({
      osmId: `way/${w.id}`,
      tags: w.tags,
      geometry: { type: "LineString", coordinates: coords },
      bbox: bboxOf(coords),
      props: layerPropertyRow("power_lines", w.tags, null),
    });
  }
  await writeFeatures(store, "power_lines", regionPath, features);
  return { count: features.length, problems };
}

/** Builds communes (admin_level 8) or districts (admin_level 6) from boundary relations. */
export async function buildAdminAreas(
  store: Store,
  regionPath: string,
  layer: "communes" | "districts",
): Promise<LayerBuild> {
  const problems: string[] = [];
  const level = ADMIN_LEVELS[layer];
  let count = 0;
  // By pages: a country's boundaries are millions of nodes.
  for (let after = -1;;) {
    const relations = await queryRelations(
      store,
      regionPath,
      `json_extract_string(tags, '$.boundary') = 'administrative'
       AND json_extract_string(tags, '$.admin_level') = '${level}'
       AND json_extract_string(tags, '$.type') IN ('boundary', 'multipolygon')`,
      { after, limit: ADMIN_PAGE },
    );
    if (relations.length === 0) break;
    after = relations.at(-1)!.id;
    const areas = await relationAreas(store, regionPath, relations, problems);
    const features: Feature[] = [];
    for (const r of relations) {
      const polygons = areas.get(r.id);
      if (!polygons) continue;
      features.push({
        osmId: `relation/${r.id}`,
        tags: r.tags,
        geometry: { type: "MultiPolygon", coordinates: polygons },
        bbox: bboxOf(polygons.flatMap((p) => p[0] ?? [])),
        props: layerPropertyRow(layer, r.tags, polygonsAreaM2(polygons)),
      });
    }
    await writeFeatures(store, layer, regionPath, features);
    count += features.length;
    if (relations.length < ADMIN_PAGE) break;
  }
  return { count, problems };
}

/** Boundary relations assembled per page. */
const ADMIN_PAGE = 500;

/** Ways of building footprints read per page, so a country's buildings never sit in memory at once. */
const BUILDING_PAGE = 20000;

/**
 * What makes a building footprint: `building=*` or `building:part=*` (the parts carry levels and
 * heights of their own; the cross-check, made with osmium, keeps them too).
 */
const BUILDING_TAGS = `(json_extract_string(tags, '$.building') IS NOT NULL
  OR json_extract_string(tags, '$."building:part"') IS NOT NULL)`;

function metres(value: string | undefined): number | null {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(m)?\s*$/.exec(value ?? "");
  return m ? Number(m[1]) : null;
}

function buildingFeature(osmId: string, tags: OsmTags, polygons: Position[][][]): Feature {
  return {
    osmId,
    tags,
    geometry: { type: "MultiPolygon", coordinates: polygons },
    bbox: bboxOf(polygons.flatMap((p) => p[0] ?? [])),
    props: [
      tags.building ?? null,
      metres(tags["building:levels"]),
      metres(tags.height),
      polygonsAreaM2(polygons),
    ],
  };
}

/**
 * Builds the buildings table: closed ways and multipolygon relations tagged `building=*` or
 * `building:part=*`, as MultiPolygons (exterior counterclockwise), with levels, height and footprint area.
 */
export async function buildBuildings(store: Store, regionPath: string): Promise<LayerBuild> {
  const problems: string[] = [];
  let count = 0;
  await materializeWays(
    store,
    regionPath,
    `tags IS NOT NULL AND ${BUILDING_TAGS}`,
    "building_ways",
  );
  for (let after = -1;;) {
    const ways = (await store.all<WayRow>(
      `SELECT * FROM building_ways WHERE id > ? ORDER BY id LIMIT ${BUILDING_PAGE}`,
      [after],
    )).map(storedWay);
    if (ways.length === 0) break;
    after = ways.at(-1)!.id;
    const features: Feature[] = [];
    for (const w of ways) {
      const area = w.coords.every((c) => c !== undefined)
        ? assembleArea([{ id: w.id, role: "outer", refs: w.refs, coords: w.coords as Position[] }])
        : undefined;
      // Open building ways are usually parts of a multipolygon relation; only closed ones count.
      if (!area || area.polygons.length === 0) continue;
      features.push(buildingFeature(`way/${w.id}`, w.tags, area.polygons));
    }
    await writeFeatures(store, "buildings", regionPath, features);
    count += features.length;
    if (ways.length < BUILDING_PAGE) break;
  }
  await store.run(`DROP TABLE building_ways`);
  // Multipolygon buildings by pages too: a country has hundreds of thousands.
  for (let after = -1;;) {
    const relations = await queryRelations(
      store,
      regionPath,
      `json_extract_string(tags, '$.type') = 'multipolygon' AND ${BUILDING_TAGS}`,
      { after, limit: BUILDING_PAGE },
    );
    if (relations.length === 0) break;
    after = relations.at(-1)!.id;
    const areas = await relationAreas(store, regionPath, relations, problems);
    const features = relations.flatMap((r) => {
      const polygons = areas.get(r.id);
      return polygons ? [buildingFeature(`relation/${r.id}`, r.tags, polygons)] : [];
    });
    await writeFeatures(store, "buildings", regionPath, features);
    count += features.length;
    if (relations.length < BUILDING_PAGE) break;
  }
  return { count, problems };
}
