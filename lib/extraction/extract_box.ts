/**
 * One extraction over a bounding box, the pipeline the service's runs, `deno task extract` and
 * the notebook share: the building footprints of the imported OSM regions in the box, their
 * surfaces (extract_buildings.ts), and each building's link to the heating demand
 * (tabula_link.ts) with the window-to-wall ratio of its TABULA type.
 *
 * A building belongs to the box when its footprint's bounding-box centre lies in it, so that
 * adjacent boxes share no building; the party-wall search also sees the footprints just outside
 * the box (a margin of about 50 m), so a wall shared with a building across the edge is found.
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
  const [xmin, ymin, xmax, ymax] = bbox;
  const rows = await osmStore.all<{ osm_id: string; tags: string; geometry: string }>(
    `SELECT osm_id, tags, geometry FROM buildings
     WHERE max_lon >= ? AND min_lon <= ? AND max_lat >= ? AND min_lat <= ?
     ORDER BY osm_id`,
    [xmin - margin, xmax + margin, ymin - margin, ymax + margin],
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
 * Extracts the buildings of `request.bbox` from `osmStore` and links each to the heating demand
 * with `heat` (loadTabulaForRun). `progress` gets a fraction from 0 to 1 at each phase.
 */
export async function extractBox(
  osmStore: Store,
  heat: HeatLinkDeps,
  request: BoxRequest,
  progress: (fraction: number) => void = () => {},
): Promise<BoxResult> {
  const all = await readFootprints(osmStore, request.bbox, NEIGHBOUR_MARGIN_DEG);
  progress(0.2);
  const inBox = new Set(all.filter((f) => centreInBox(f, request.bbox)).map((f) => f.id));
  const extracted = extractBuildings(all, request.options, {
    country: request.country.toUpperCase(),
    wwr: (b) => typicalWindowToWallRatio(tabulaBuildingType(b).type),
  });
  progress(0.7);
  const problems = extracted.problems.slice();
  const buildings: BuildingRecord[] = [];
  for (const building of extracted.buildings) {
    if (!inBox.has(building.id)) continue;
    const link = linkToHeat(building, request.options, heat);
    if ("error" in link) problems.push(`${building.id}: no heat link: ${link.error}`);
    buildings.push({ ...building, tabula: "error" in link ? null : link });
  }
  progress(1);
  return { buildings, problems, footprints: all.length };
}
