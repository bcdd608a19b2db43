/**
 * One extraction over a bounding box, the pipeline the service's runs, `deno task extract` and
 * the notebook share: the building footprints of the imported OSM regions in the box, their
 * surfaces (extract_buildings.ts), and each building's link to the heating demand
 * (tabula_link.ts) with the window-to-wall ratio of its TABULA type.
 *
 * A building belongs to the box when its footprint's bounding-box centre lies in it, so that
 * adjacent boxes share no building; the party-wall search also sees the footprints just outside
 * the box (a margin of about 50 m), so a wall shared with a building across the edge is found.
 *
 * `extractBox` reads and extracts in one go (the command line, the notebook); the service reads
 * pages (`readFootprintPage`) on its main thread and runs `extractFootprints`, the CPU part, in
 * a Worker (extract_in_worker.ts). A country without a TABULA typology still gets its buildings
 * and surfaces, each with `tabula: null` and `tabula_absent_reason`.
 */
import type { Store } from "../store/store.ts";
import { type BuildingRecord, type ExtractionOptions, type Footprint } from "./building_record.ts";
import { extractBuildings } from "./extract_buildings.ts";
import { type HeatLinkDeps, linkToHeat } from "./tabula_link.ts";
import { tabulaBuildingType, typicalWindowToWallRatio } from "./tabula_match.ts";

/** A box in lon/lat: [xmin, ymin, xmax, ymax]. */
export type LonLatBox = readonly [number, number, number, number];

/** Margin around the box whose footprints take part in the party-wall search, degrees. */
export const NEIGHBOUR_MARGIN_DEG = 0.0005;

/** What one extraction is asked for. */
export interface BoxRequest {
  /** ISO 3166-1 alpha-2 of the buildings. */
  readonly country: string;
  readonly bbox: LonLatBox;
  readonly options: ExtractionOptions;
}

/** What one extraction produced. */
export interface BoxResult {
  /** The buildings in the box, by id. */
  readonly buildings: BuildingRecord[];
  /** Footprints repaired or dropped, and buildings without a heat link, each naming its id. */
  readonly problems: string[];
  /** Footprints read (the box and its margin). */
  readonly footprints: number;
}

/** Whether a layer table `buildings` exists (nothing imported yet: it does not). */
async function hasBuildings(store: Store): Promise<boolean> {
  const rows = await store.all(
    `SELECT 1 FROM information_schema.tables WHERE table_name = 'buildings'`,
  );
  return rows.length > 0;
}

const IN_BOX = `max_lon >= ? AND min_lon <= ? AND max_lat >= ? AND min_lat <= ?`;

function boxParams([xmin, ymin, xmax, ymax]: LonLatBox, margin: number): number[] {
  return [xmin - margin, xmax + margin, ymin - margin, ymax + margin];
}

/** How many footprints' bounding boxes intersect `bbox` grown by `margin` degrees. */
export async function countFootprints(
  osmStore: Store,
  bbox: LonLatBox,
  margin = 0,
): Promise<number> {
  if (!(await hasBuildings(osmStore))) return 0;
  const [row] = await osmStore.all<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM buildings WHERE ${IN_BOX}`,
    boxParams(bbox, margin),
  );
  return row?.n ?? 0;
}

/**
 * One page of footprints as DuckDB writes it: a JSON array of `{id, tags, geometry}` (tags as
 * stored, geometry the GeoJSON MultiPolygon). One string a page: the thread that reads it holds
 * one string, not thousands of objects, and hands it on as is (parseFootprintPage).
 */
export interface FootprintPage {
  /** The JSON array text. */
  text: string;
  /** Footprints in it. */
  count: number;
  /** The id of its last footprint (the next page starts after it). */
  last: string;
}

/**
 * The page of footprints whose bounding box intersects `bbox` grown by `margin` degrees, by
 * id: at most `page.limit` after the id `page.after`; undefined after the last.
 */
export async function readFootprintPage(
  osmStore: Store,
  bbox: LonLatBox,
  margin: number,
  page: { limit: number; after?: string },
): Promise<FootprintPage | undefined> {
  if (!(await hasBuildings(osmStore))) return undefined;
  const [row] = await osmStore.all<{ text: string | null; n: number; last: string | null }>(
    `SELECT '[' || string_agg('{"id":' || to_json(osm_id) || ',"tags":' ||
        coalesce(tags, '{}') || ',"geometry":' || geometry || '}', ',' ORDER BY osm_id) ||
        ']' AS text, count(*)::INTEGER AS n, max(osm_id) AS last
     FROM (SELECT osm_id, tags, geometry FROM buildings WHERE ${IN_BOX} AND osm_id > ?
       ORDER BY osm_id LIMIT ?)`,
    [...boxParams(bbox, margin), page.after ?? "", page.limit],
  );
  if (!row || row.n === 0 || row.text === null || row.last === null) return undefined;
  return { text: row.text, count: row.n, last: row.last };
}

/** The footprints of a page's text (readFootprintPage). */
export function parseFootprintPage(text: string): Footprint[] {
  const items = JSON.parse(text) as {
    id: string;
    tags: Record<string, string>;
    geometry: { coordinates: Footprint["polygons"] };
  }[];
  return items.map((f) => ({ id: f.id, tags: f.tags, polygons: f.geometry.coordinates }));
}

/**
 * The building footprints whose bounding box intersects `bbox` grown by `margin` degrees, by
 * id; an empty list when nothing is imported.
 */
export async function readFootprints(
  osmStore: Store,
  bbox: LonLatBox,
  margin = 0,
): Promise<Footprint[]> {
  if (!(await hasBuildings(osmStore))) return [];
  const rows = await osmStore.all<{ osm_id: string; tags: string; geometry: string }>(
    `SELECT osm_id, tags, geometry FROM buildings WHERE ${IN_BOX} ORDER BY osm_id`,
    boxParams(bbox, margin),
  );
  return rows.map((r) => ({
    id: r.osm_id,
    tags: JSON.parse(r.tags),
    polygons: JSON.parse(r.geometry).coordinates,
  }));
}

function centreInBox(footprint: Footprint, [xmin, ymin, xmax, ymax]: LonLatBox): boolean {
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  for (const polygon of footprint.polygons) {
    for (const [lon, lat] of polygon[0] ?? []) {
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
    }
  }
  const lon = (minLon + maxLon) / 2, lat = (minLat + maxLat) / 2;
  // Half-open on the max side: a centre on the shared edge of two boxes belongs to one.
  return lon >= xmin && lon < xmax && lat >= ymin && lat < ymax;
}

/**
 * The CPU part of an extraction, pure and synchronous (the service runs it in a Worker): the
 * buildings of `request.bbox` among `footprints` (the box and its margin), their surfaces, and
 * each one's link to the heating demand with `heat` (loadTabulaForRun). Where `heat` is an
 * error (the country has no typology and the run named none), every building is still
 * extracted, with `tabula: null` and the error as its `tabula_absent_reason`. `progress` gets
 * 0.7 once the surfaces are built and 1 at the end.
 */
export function extractFootprints(
  footprints: readonly Footprint[],
  heat: HeatLinkDeps | { error: string },
  request: BoxRequest,
  progress: (fraction: number) => void = () => {},
): BoxResult {
  const inBox = new Set(footprints.filter((f) => centreInBox(f, request.bbox)).map((f) => f.id));
  const extracted = extractBuildings(footprints, request.options, {
    country: request.country.toUpperCase(),
    wwr: (b) => typicalWindowToWallRatio(tabulaBuildingType(b).type),
  });
  progress(0.7);
  // A missing typology first: it concerns every building.
  const problems = "error" in heat && inBox.size > 0
    ? [`no heat link: ${heat.error}`, ...extracted.problems]
    : extracted.problems.slice();
  const buildings: BuildingRecord[] = [];
  for (const building of extracted.buildings) {
    if (!inBox.has(building.id)) continue;
    const link = "error" in heat ? heat : linkToHeat(building, request.options, heat);
    if ("error" in link) {
      if (link !== heat) problems.push(`${building.id}: no heat link: ${link.error}`);
      buildings.push({ ...building, tabula: null, tabula_absent_reason: link.error });
    } else buildings.push({ ...building, tabula: link });
  }
  progress(1);
  return { buildings, problems, footprints: footprints.length };
}

/**
 * Extracts the buildings of `request.bbox` from `osmStore` and links each to the heating demand
 * with `heat` (loadTabulaForRun; an error leaves every building without a link, saying why).
 * `progress` gets a fraction from 0 to 1 at each phase.
 */
export async function extractBox(
  osmStore: Store,
  heat: HeatLinkDeps | { error: string },
  request: BoxRequest,
  progress: (fraction: number) => void = () => {},
): Promise<BoxResult> {
  const all = await readFootprints(osmStore, request.bbox, NEIGHBOUR_MARGIN_DEG);
  progress(0.2);
  return extractFootprints(all, heat, request, progress);
}
