/**
 * Walls of a footprint: one per run of near-collinear edges, with the azimuth of its outward
 * normal. Rings must be oriented as cleanFootprint leaves them (outer CCW, holes CW), so that
 * the outward normal of an edge (dx, dy) is its right-hand normal (dy, -dx).
 */
import type { ExtractedSurface } from "./building_record.ts";
import type { LocalPoint } from "./local_projection.ts";

/** Adjacent edges turning less than this, degrees, are merged into one wall. */
export const WALL_MERGE_ANGLE_DEG = 5;

const DEG = 180 / Math.PI;

/**
 * Azimuth, degrees clockwise from north in [0, 360), of the outward (right-hand) normal of the
 * edge a -> b: atan2(nx, ny) with n = (dy, -dx).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(edgeAzimuth([0, 0], [10, 0]), 180); // an edge running east on a CCW ring faces south
 * ```
 */
export function edgeAzimuth(a: LocalPoint, b: LocalPoint): number {
  return azimuthOf(b[1] - a[1], -(b[0] - a[0]));
}

/** Azimuth, degrees clockwise from north in [0, 360), of the direction (east, north). */
export function azimuthOf(east: number, north: number): number {
  const az = Math.atan2(east, north) * DEG;
  const wrapped = ((az % 360) + 360) % 360;
  return wrapped >= 360 - 1e-9 ? 0 : wrapped;
}

/** A run of near-collinear edges of one ring. */
export interface WallRun {
  /** Indices of the ring's edges (edge i runs from vertex i to vertex i + 1). */
  readonly edges: number[];
  readonly from: LocalPoint;
  readonly to: LocalPoint;
  /** Length of the chord from -> to, m. */
  readonly length: number;
  /** Azimuth of the chord's outward normal, degrees. */
  readonly azimuth: number;
}

function direction(a: LocalPoint, b: LocalPoint): number {
  return Math.atan2(b[1] - a[1], b[0] - a[0]);
}

function angleBetween(u: number, v: number): number {
  const d = Math.abs(u - v) % (2 * Math.PI);
  return Math.min(d, 2 * Math.PI - d) * DEG;
}

/**
 * Groups a ring's edges into walls: an edge joins the current wall while it is within
 * `maxAngle` degrees of the wall's first edge. The chords of the runs close like the ring
 * does, so the area-weighted normals of a closed footprint's walls still sum to zero.
 */
export function wallRuns(ring: readonly LocalPoint[], maxAngle = WALL_MERGE_ANGLE_DEG): WallRun[] {
  const n = ring.length;
  if (n < 3) return [];
  const dirs = Array.from({ length: n }, (_, i) => direction(ring[i]!, ring[(i + 1) % n]!));
  // Start at an edge that turns from its predecessor, so no run wraps around the start.
  let start = 0;
  for (let i = 0; i < n; i++) {
    if (angleBetween(dirs[i]!, dirs[(i + n - 1) % n]!) >= maxAngle) {
      start = i;
      break;
    }
  }
  const runs: number[][] = [];
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    const run = runs.at(-1);
    if (run !== undefined && angleBetween(dirs[i]!, dirs[run[0]!]!) < maxAngle) run.push(i);
    else runs.push([i]);
  }
  return runs.map((edges) => {
    const from = ring[edges[0]!]!;
    const to = ring[(edges.at(-1)! + 1) % n]!;
    return {
      edges,
      from,
      to,
      length: Math.hypot(to[0] - from[0], to[1] - from[1]),
      azimuth: edgeAzimuth(from, to),
    };
  });
}

/** Rounds to 2 decimals (cm2 and hundredths of a degree are far below OSM's precision). */
export function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * Wall surfaces of a building: for each run of each ring, an exposed wall and, where the run
 * is shared with neighbours, an adiabatic wall of the same azimuth (a run partly shared gives
 * both). `adiabaticArea[r][e]` is the adiabatic area, m2, of edge e of ring r (party_walls.ts).
 * Ids are "<id>/wall/<k>", numbered in order.
 */
export function buildingWalls(
  id: string,
  rings: readonly (readonly LocalPoint[])[],
  height: number,
  adiabaticArea: readonly (readonly number[])[] = [],
  maxAngle = WALL_MERGE_ANGLE_DEG,
): ExtractedSurface[] {
  const walls: ExtractedSurface[] = [];
  const push = (area: number, azimuth: number, adiabatic: boolean) => {
    const surface: ExtractedSurface = {
      id: `${id}/wall/${walls.length}`,
      type: "wall",
      area: round2(area),
      azimuth: round2(azimuth) % 360,
      tilt: 0,
    };
    if (adiabatic) surface.adiabatic = true;
    walls.push(surface);
  };
  rings.forEach((ring, r) => {
    const n = ring.length;
    for (const run of wallRuns(ring, maxAngle)) {
      const gross = run.length * height;
      if (!(gross > 0)) continue;
      const edgeLength = run.edges.reduce((s, e) => {
        const a = ring[e]!, b = ring[(e + 1) % n]!;
        return s + Math.hypot(b[0] - a[0], b[1] - a[1]);
      }, 0);
      // Shares were measured along the edges; the wall is the chord (shorter by < 0.4 %).
      const shared = run.edges.reduce((s, e) => s + (adiabaticArea[r]?.[e] ?? 0), 0) *
        (edgeLength > 0 ? run.length / edgeLength : 0);
      const adiabatic = Math.min(gross, Math.max(0, shared));
      const exposed = gross - adiabatic;
      if (exposed >= 0.005) push(exposed, run.azimuth, false);
      if (adiabatic >= 0.005) push(adiabatic, run.azimuth, true);
    }
  });
  return walls;
}
