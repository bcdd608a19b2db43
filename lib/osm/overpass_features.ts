/**
 * Overpass API JSON (`[out:json]` with `out geom`) to the map layers' features, by the same
 * rules as the import (lib/osm/layers.ts): which tags make a layer's feature, centroids and
 * areas for power areas, LineStrings for lines, assembled MultiPolygons for admin boundaries.
 * The features have the store's shape, with `region_path` null (they come from no region).
 */
import {
  bboxOf,
  polygonsAreaM2,
  polygonsCentroid,
  type Position,
  vertexAverage,
} from "./geo_measure.ts";
import { POWER_VALUES } from "./layers.ts";
import { ADMIN_LEVELS, layerProperties } from "./layer_properties.ts";
import { COLLECTION_HEAD, type LayerAnswer } from "./layer_query.ts";
import type { OsmTags } from "./osm_element.ts";
import type { LayerName } from "./osm_store.ts";
import { assembleArea, type RingWay } from "./ring_assembly.ts";

/** A position as Overpass writes it; `out geom` gives null for nodes outside a clipped box. */
export type OverpassPoint = { lat: number; lon: number } | null;

/** A node of an Overpass answer. */
export interface OverpassNode {
  type: "node";
  id: number;
  lat: number;
  lon: number;
  tags?: OsmTags;
}

/** A way of an `out geom` answer: node ids and their positions. */
export interface OverpassWay {
  type: "way";
  id: number;
  nodes?: number[];
  geometry?: OverpassPoint[];
  tags?: OsmTags;
}

/** A relation member of an `out geom` answer: ways carry their geometry, nodes lat/lon. */
export interface OverpassMember {
  type: "node" | "way" | "relation";
  ref: number;
  role: string;
  geometry?: OverpassPoint[];
  lat?: number;
  lon?: number;
}

/** A relation of an `out geom` answer. */
export interface OverpassRelation {
  type: "relation";
  id: number;
  members?: OverpassMember[];
  tags?: OsmTags;
}

/** Any element of an Overpass answer. */
export type OverpassElement = OverpassNode | OverpassWay | OverpassRelation;

/** A feature of a layer answer (the store's shape). */
export interface LayerFeature {
  type: "Feature";
  id: string;
  geometry: { type: string; coordinates: unknown };
  properties: Record<string, unknown> & { osm_id: string; tags: OsmTags };
}

/** The features converted and what could not be converted (relations that do not close). */
export interface ConvertedFeatures {
  readonly features: LayerFeature[];
  readonly problems: string[];
}

function feature(
  layer: LayerName,
  osmId: string,
  tags: OsmTags,
  geometry: LayerFeature["geometry"],
  areaM2: number | null,
): LayerFeature {
  return {
    type: "Feature",
    id: osmId,
    geometry,
    properties: {
      osm_id: osmId,
      name: tags.name ?? null,
      region_path: null,
      tags,
      ...layerProperties(layer, tags, areaM2),
    },
  };
}

function positions(points: readonly OverpassPoint[] | undefined): (Position | undefined)[] {
  return (points ?? []).map((p) => (p ? [p.lon, p.lat] : undefined));
}

/**
 * The areas of a relation from its members' geometry. `out geom` gives member ways no node
 * ids, so positions stand in for them: ways meeting at a node share that node's coordinates.
 */
function relationPolygons(
  relation: OverpassRelation,
  problems: string[],
): Position[][][] | undefined {
  const ids = new Map<string, number>();
  const idOf = (p: Position) => {
    const key = `${p[0]},${p[1]}`;
    let id = ids.get(key);
    if (id === undefined) ids.set(key, id = ids.size + 1);
    return id;
  };
  const members: RingWay[] = [];
  const missing: string[] = [];
  for (const m of relation.members ?? []) {
    if (m.type !== "way" || !["outer", "inner", ""].includes(m.role)) continue;
    const coords = positions(m.geometry);
    if (coords.length < 2 || coords.some((c) => c === undefined)) {
      missing.push(`way/${m.ref}`);
      continue;
    }
    const ring = coords as Position[];
    members.push({ id: m.ref, role: m.role, refs: ring.map(idOf), coords: ring });
  }
  const area = assembleArea(members);
  const label = `relation/${relation.id}${relation.tags?.name ? ` (${relation.tags.name})` : ""}`;
  if (missing.length) {
    problems.push(`${label}: member ways without geometry: ${missing.join(", ")}`);
  }
  for (const p of area.problems) problems.push(`${label}: ${p}`);
  // As the import does: an area with a missing or open part is reported and left out.
  if (area.polygons.length === 0 || missing.length > 0 || area.problems.length > 0) {
    problems.push(`${label}: incomplete area; left out`);
    return undefined;
  }
  return area.polygons;
}

function hasValue(tags: OsmTags | undefined, key: string, values: readonly string[]): boolean {
  const v = tags?.[key];
  return v !== undefined && values.includes(v);
}

function powerPoint(
  layer: "substations" | "power_plants",
  e: OverpassElement,
  problems: string[],
): LayerFeature | undefined {
  const tags = e.tags ?? {};
  if (!hasValue(tags, "power", POWER_VALUES[layer])) return undefined;
  const point = (at: Position, area: number | null) =>
    feature(layer, `${e.type}/${e.id}`, tags, { type: "Point", coordinates: at }, area);
  if (e.type === "node") return point([e.lon, e.lat], null);
  if (e.type === "way") {
    const all = positions(e.geometry);
    const coords = all.filter((c): c is Position => c !== undefined);
    if (coords.length === 0) {
      problems.push(`way/${e.id}: no node positions in the answer; left out`);
      return undefined;
    }
    // Closed as the import decides it: by node ids where given, else by positions.
    const first = e.nodes?.[0] ?? `${all[0]}`;
    const last = e.nodes?.at(-1) ?? `${all.at(-1)}`;
    const closed = all.length >= 4 && first === last && coords.length === all.length;
    return closed
      ? point(polygonsCentroid([[coords]]), polygonsAreaM2([[coords]]))
      : point(vertexAverage(coords), null);
  }
  if (e.tags?.type !== "multipolygon") return undefined;
  const polygons = relationPolygons(e, problems);
  return polygons ? point(polygonsCentroid(polygons), polygonsAreaM2(polygons)) : undefined;
}

function powerLine(e: OverpassElement, problems: string[]): LayerFeature | undefined {
  if (e.type !== "way" || !hasValue(e.tags, "power", POWER_VALUES.power_lines)) return undefined;
  const coords = positions(e.geometry).filter((c): c is Position => c !== undefined);
  if (coords.length < 2) {
    problems.push(`way/${e.id}: fewer than 2 node positions in the answer; left out`);
    return undefined;
  }
  return feature("power_lines", `way/${e.id}`, e.tags ?? {}, {
    type: "LineString",
    coordinates: coords,
  }, null);
}

function adminArea(
  layer: "communes" | "districts",
  e: OverpassElement,
  problems: string[],
): LayerFeature | undefined {
  const tags = e.tags ?? {};
  if (
    e.type !== "relation" || tags.boundary !== "administrative" ||
    tags.admin_level !== String(ADMIN_LEVELS[layer]) ||
    !["boundary", "multipolygon"].includes(tags.type ?? "")
  ) return undefined;
  const polygons = relationPolygons(e, problems);
  if (!polygons) return undefined;
  return feature(layer, `relation/${e.id}`, tags, {
    type: "MultiPolygon",
    coordinates: polygons,
  }, polygonsAreaM2(polygons));
}

/**
 * The features of `layer` among Overpass `elements`, ordered by osm_id as the store orders
 * them; elements that are not the layer's (e.g. a relation's member ways when Overpass was
 * asked with `>;`) are skipped.
 */
export function overpassFeatures(
  layer: LayerName,
  elements: readonly OverpassElement[],
): ConvertedFeatures {
  const problems: string[] = [];
  const features: LayerFeature[] = [];
  for (const e of elements) {
    const f = layer === "power_lines"
      ? powerLine(e, problems)
      : layer === "communes" || layer === "districts"
      ? adminArea(layer, e, problems)
      : powerPoint(layer, e, problems);
    if (f) features.push(f);
  }
  features.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { features, problems };
}

/** Features as FeatureCollection text, in the store answer's form (with the attribution). */
export function featureCollectionText(features: readonly LayerFeature[]): LayerAnswer {
  return {
    text: `${COLLECTION_HEAD}${features.map((f) => JSON.stringify(f)).join(",")}]}`,
    count: features.length,
  };
}

/** Bounding box of a feature's geometry, for tests and callers that filter. */
export function featureBbox(f: LayerFeature): [number, number, number, number] {
  const flat = (c: unknown): Position[] =>
    typeof (c as unknown[])[0] === "number" ? [c as Position] : (c as unknown[]).flatMap(flat);
  return bboxOf(flat(f.geometry.coordinates));
}
