/**
 * The extraction pipeline over a set of footprints: project them into one local metric plane
 * around their common centre, clean the rings, take heights from the tags, find party walls
 * across the set, and build each building's walls, roof planes, floor and windows. Pure: the
 * service reads the footprints from the store and links TABULA afterwards.
 */
import type {
  BuildingRecord,
  ExtractedSurface,
  ExtractionOptions,
  Footprint,
} from "./building_record.ts";
import {
  buildingHeight,
  buildingYear,
  isUnheatedType,
  SMALL_FOOTPRINT_M2,
} from "./building_height.ts";
import { cleanFootprint, type CleanPolygon } from "./footprint_rings.ts";
import {
  boundingBoxCentre,
  createLocalProjection,
  type LocalPoint,
  type LocalProjection,
} from "./local_projection.ts";
import { findPartyWalls, ringsOf } from "./party_walls.ts";
import { roofPlanes } from "./roof_planes.ts";
import { buildingWalls, round2 } from "./walls.ts";
import { wallWindows } from "./windows.ts";

/** An extracted building before its TABULA link. */
export type ExtractedBuilding = Omit<BuildingRecord, "tabula">;

/** A building as the window-to-wall ratio callback sees it (no surfaces yet). */
export type BuildingFacts = Omit<ExtractedBuilding, "surfaces">;

/** What extractBuildings needs besides the footprints. */
export interface ExtractionContext {
  /** ISO 3166-1 alpha-2 of the run. */
  readonly country: string;
  /** Window-to-wall ratio of a building (by its TABULA type); used without the option. */
  readonly wwr?: (building: BuildingFacts) => number;
}

/** The buildings extracted and the problems met (each naming its building). */
export interface ExtractionResult {
  readonly buildings: ExtractedBuilding[];
  readonly problems: string[];
}

/** Window-to-wall ratio without the option or a callback: TABULA's mean over all countries. */
export const FALLBACK_WWR = 0.19;

/**
 * True if the feature is a building outline. The simple rule of the research note: parts
 * (`building:part` without `building`) are skipped so that nothing is counted twice.
 */
export function isBuildingOutline(tags: Readonly<Record<string, string>>): boolean {
  const building = tags["building"]?.trim().toLowerCase();
  return building !== undefined && building !== "" && building !== "no";
}

function centroidOf(polygons: readonly CleanPolygon[]): LocalPoint {
  let a = 0, cx = 0, cy = 0;
  const [ox, oy] = polygons[0]?.outer[0] ?? [0, 0];
  for (const ring of ringsOf(polygons)) {
    for (let i = 0; i < ring.length; i++) {
      const [x1, y1] = ring[i]!, [x2, y2] = ring[(i + 1) % ring.length]!;
      const cross = (x1 - ox) * (y2 - oy) - (x2 - ox) * (y1 - oy);
      a += cross, cx += (x1 - ox + x2 - ox) * cross, cy += (y1 - oy + y2 - oy) * cross;
    }
  }
  return a === 0 ? [ox, oy] : [ox + cx / (3 * a), oy + cy / (3 * a)];
}

interface Prepared {
  readonly footprint: Footprint;
  readonly polygons: CleanPolygon[];
  readonly area: number;
  readonly height: ReturnType<typeof buildingHeight>;
}

/**
 * Extracts the buildings of `footprints` (lon/lat) with `options`. Party walls are found
 * across every usable outline of the set, small and unheated ones included (they touch the
 * others all the same); those are then dropped unless `keep_small_and_unheated`.
 */
export function extractBuildings(
  footprints: readonly Footprint[],
  options: ExtractionOptions,
  context: ExtractionContext,
): ExtractionResult {
  const problems: string[] = [];
  const outlines = footprints.filter((f) => isBuildingOutline(f.tags));
  const centre = boundingBoxCentre(outlines.map((f) => f.polygons).flat());
  if (centre === null) return { buildings: [], problems };
  const projection: LocalProjection = createLocalProjection(centre);
  const prepared: Prepared[] = [];
  for (const footprint of outlines) {
    const local = footprint.polygons.map((rings) =>
      rings.map((ring) => ring.map(projection.toLocal))
    );
    const clean = cleanFootprint(footprint.id, local);
    problems.push(...clean.problems);
    if (clean.polygons.length === 0) {
      problems.push(`${footprint.id}: no usable polygon, dropped`);
      continue;
    }
    const height = buildingHeight(footprint.tags, options);
    problems.push(...height.problems.map((p) => `${footprint.id}: ${p}`));
    prepared.push({ footprint, polygons: clean.polygons, area: clean.area, height });
  }
  const party = findPartyWalls(
    prepared.map((p) => ({ polygons: p.polygons, height: p.height.height })),
    { distance: options.party_wall_distance, angle: options.party_wall_angle },
  );
  const buildings: ExtractedBuilding[] = [];
  prepared.forEach((p, i) => {
    const { footprint: { id, tags }, polygons, area, height } = p;
    const buildingType = tags["building"]!.trim();
    const flags = {
      small: area < SMALL_FOOTPRINT_M2,
      unheated_type: isUnheatedType(buildingType),
      overlaps: party.overlaps[i] ?? false,
    };
    if ((flags.small || flags.unheated_type) && !options.keep_small_and_unheated) return;
    const outerPoints = polygons.flatMap((poly) => poly.outer);
    const roof = roofPlanes(area, outerPoints, tags, options.untagged_roof_shape);
    const [lon, lat] = projection.toLonLat(centroidOf(polygons));
    const facts: BuildingFacts = {
      id,
      country: context.country,
      building_type: buildingType,
      footprint_area: round2(area),
      height: round2(height.height),
      height_source: height.height_source,
      storeys: height.storeys,
      roof_levels: height.roof_levels,
      roof_shape: roof.shape,
      attached_neighbours: party.neighbours[i]?.length ?? 0,
      year: buildingYear(tags),
      centroid: [Math.round(lon * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7],
      flags,
    };
    const walls = buildingWalls(id, ringsOf(polygons), height.height, party.adiabaticArea[i]);
    const roofs: ExtractedSurface[] = roof.planes.map((plane, k) => ({
      id: `${id}/roof/${k}`,
      type: "roof",
      area: round2(plane.area),
      azimuth: plane.azimuth === null ? null : round2(plane.azimuth) % 360,
      tilt: round2(plane.tilt),
    }));
    const floor: ExtractedSurface = {
      id: `${id}/floor`,
      type: "floor",
      area: round2(area),
      azimuth: null,
      tilt: 90,
    };
    const wwr = options.window_to_wall_ratio ?? context.wwr?.(facts) ?? FALLBACK_WWR;
    buildings.push({
      ...facts,
      surfaces: [...walls, ...roofs, floor, ...wallWindows(walls, wwr)],
    });
  });
  return { buildings, problems };
}
