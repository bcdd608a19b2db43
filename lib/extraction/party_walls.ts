/**
 * Party walls across a set of footprints in one local plane: an edge shares its wall with the
 * edges of other footprints that run the other way (within an angle) along its line (within a
 * distance). The shared length x min(own height, neighbour height) is adiabatic; the rest, the
 * part above a lower neighbour included, stays exposed. Overlapping footprints (a mapping error)
 * are flagged, not subtracted. A uniform grid finds the candidates, so the cost grows with the
 * number of edges, not its square.
 */
import type { CleanPolygon } from "./footprint_rings.ts";
import { properCross } from "./footprint_rings.ts";
import type { LocalPoint } from "./local_projection.ts";

/** One footprint of the set: its cleaned polygons and wall height. */
export interface PartyFootprint {
  readonly polygons: readonly CleanPolygon[];
  /** Wall height, m. */
  readonly height: number;
}

/** Tolerances of findPartyWalls. */
export interface PartyWallTolerance {
  /** Greatest distance, m, of a neighbour's edge from the edge's line. */
  readonly distance: number;
  /** Greatest angle, degrees, from anti-parallel. */
  readonly angle: number;
}

/** Party walls of every footprint of a set. */
export interface PartyWalls {
  /** [footprint][ring][edge]: adiabatic area, m2 (rings as ringsOf lists them). */
  readonly adiabaticArea: number[][][];
  /** [footprint][ring][edge]: length shared with any neighbour, m. */
  readonly sharedLength: number[][][];
  /** [footprint]: indices of the distinct neighbours it shares a wall with, ascending. */
  readonly neighbours: number[][];
  /** [footprint]: its footprint overlaps another's by more than the distance tolerance. */
  readonly overlaps: boolean[];
}

/** A footprint's rings in the order the result indexes them: each outer ring, then its holes. */
export function ringsOf(polygons: readonly CleanPolygon[]): LocalPoint[][] {
  return polygons.flatMap((p) => [p.outer, ...p.holes]);
}

/** Intervals shorter than this, m, are not shared walls (a corner touching). */
const MIN_SHARED_M = 0.05;

interface Edge {
  readonly building: number;
  readonly ring: number;
  readonly index: number;
  readonly a: LocalPoint;
  readonly b: LocalPoint;
}

/** A uniform grid of items by bounding box. */
class Grid<T> {
  readonly #cells = new Map<string, T[]>();
  constructor(readonly size: number) {}
  #range(x0: number, y0: number, x1: number, y1: number): [number, number, number, number] {
    const s = this.size;
    return [Math.floor(x0 / s), Math.floor(y0 / s), Math.floor(x1 / s), Math.floor(y1 / s)];
  }
  insert(item: T, x0: number, y0: number, x1: number, y1: number): void {
    const [i0, j0, i1, j1] = this.#range(x0, y0, x1, y1);
    for (let i = i0; i <= i1; i++) {
      for (let j = j0; j <= j1; j++) {
        const key = `${i},${j}`;
        const cell = this.#cells.get(key);
        if (cell) cell.push(item);
        else this.#cells.set(key, [item]);
      }
    }
  }
  /** Items whose cells meet the box; an item may come more than once. */
  *query(x0: number, y0: number, x1: number, y1: number): Generator<T> {
    const [i0, j0, i1, j1] = this.#range(x0, y0, x1, y1);
    for (let i = i0; i <= i1; i++) {
      for (let j = j0; j <= j1; j++) yield* this.#cells.get(`${i},${j}`) ?? [];
    }
  }
}

const GRID_CELL_M = 25;

/**
 * Finds the party walls and overlaps of a set of footprints (rings oriented as cleanFootprint
 * leaves them).
 */
export function findPartyWalls(
  footprints: readonly PartyFootprint[],
  tolerance: PartyWallTolerance,
): PartyWalls {
  const { distance } = tolerance;
  const cosMax = Math.cos((tolerance.angle * Math.PI) / 180);
  const edges: Edge[] = [];
  const grid = new Grid<number>(GRID_CELL_M);
  const adiabaticArea: number[][][] = [];
  const sharedLength: number[][][] = [];
  footprints.forEach((f, building) => {
    const rings = ringsOf(f.polygons);
    adiabaticArea.push(rings.map((r) => r.map(() => 0)));
    sharedLength.push(rings.map((r) => r.map(() => 0)));
    rings.forEach((ring, r) => {
      ring.forEach((a, index) => {
        const b = ring[(index + 1) % ring.length]!;
        grid.insert(
          edges.length,
          Math.min(a[0], b[0]) - distance,
          Math.min(a[1], b[1]) - distance,
          Math.max(a[0], b[0]) + distance,
          Math.max(a[1], b[1]) + distance,
        );
        edges.push({ building, ring: r, index, a, b });
      });
    });
  });
  const neighbourSets = footprints.map(() => new Set<number>());
  const seen = new Int32Array(edges.length).fill(-1);
  edges.forEach((own, k) => {
    const [ax, ay] = own.a;
    const length = Math.hypot(own.b[0] - ax, own.b[1] - ay);
    if (length === 0) return;
    const ux = (own.b[0] - ax) / length, uy = (own.b[1] - ay) / length;
    const intervals: { lo: number; hi: number; height: number }[] = [];
    for (
      const j of grid.query(
        Math.min(ax, own.b[0]),
        Math.min(ay, own.b[1]),
        Math.max(ax, own.b[0]),
        Math.max(ay, own.b[1]),
      )
    ) {
      if (seen[j] === k) continue;
      seen[j] = k;
      const other = edges[j]!;
      if (other.building === own.building) continue;
      const [cx, cy] = other.a, [dx, dy] = other.b;
      const otherLength = Math.hypot(dx - cx, dy - cy);
      if (otherLength === 0) continue;
      // Anti-parallel: the direction cosine is close to -1.
      if (-((dx - cx) * ux + (dy - cy) * uy) / otherLength < cosMax) continue;
      const tc = (cx - ax) * ux + (cy - ay) * uy, td = (dx - ax) * ux + (dy - ay) * uy;
      const sc = ux * (cy - ay) - uy * (cx - ax), sd = ux * (dy - ay) - uy * (dx - ax);
      const lo = Math.max(0, Math.min(tc, td)), hi = Math.min(length, Math.max(tc, td));
      if (hi - lo < MIN_SHARED_M) continue;
      const at = (t: number) => sc + ((sd - sc) * (t - tc)) / (td - tc);
      if (Math.abs(at(lo)) > distance || Math.abs(at(hi)) > distance) continue;
      intervals.push({ lo, hi, height: footprints[other.building]!.height });
      neighbourSets[own.building]!.add(other.building);
    }
    if (intervals.length === 0) return;
    // Union of the intervals, piece by piece, each at the tallest neighbour covering it.
    const cuts = [...new Set(intervals.flatMap((i) => [i.lo, i.hi]))].sort((p, q) => p - q);
    const ownHeight = footprints[own.building]!.height;
    let shared = 0, adiabatic = 0;
    for (let c = 0; c + 1 < cuts.length; c++) {
      const lo = cuts[c]!, hi = cuts[c + 1]!;
      let tallest = 0;
      for (const i of intervals) {
        if (i.lo <= lo && i.hi >= hi && i.height > tallest) tallest = i.height;
      }
      if (tallest === 0) continue;
      shared += hi - lo;
      adiabatic += (hi - lo) * Math.min(ownHeight, tallest);
    }
    sharedLength[own.building]![own.ring]![own.index] = shared;
    adiabaticArea[own.building]![own.ring]![own.index] = adiabatic;
  });
  return {
    adiabaticArea,
    sharedLength,
    neighbours: neighbourSets.map((s) => [...s].sort((a, b) => a - b)),
    overlaps: findOverlaps(footprints, distance),
  };
}

function bboxOf(polygons: readonly CleanPolygon[]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polygons) {
    for (const [x, y] of p.outer) {
      x0 = Math.min(x0, x), y0 = Math.min(y0, y), x1 = Math.max(x1, x), y1 = Math.max(y1, y);
    }
  }
  return [x0, y0, x1, y1];
}

function segmentDistance(p: LocalPoint, a: LocalPoint, b: LocalPoint): number {
  const [vx, vy] = [b[0] - a[0], b[1] - a[1]];
  const l2 = vx * vx + vy * vy;
  const t = l2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / l2));
  return Math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy);
}

/** True if p is inside the polygons (even-odd over all rings) deeper than `depth` m. */
function insideDeeper(p: LocalPoint, polygons: readonly CleanPolygon[], depth: number): boolean {
  let inside = false;
  let nearest = Infinity;
  for (const ring of ringsOf(polygons)) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i]!, b = ring[j]!;
      if ((a[1] > p[1]) !== (b[1] > p[1])) {
        const x = a[0] + ((p[1] - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
        if (p[0] < x) inside = !inside;
      }
      nearest = Math.min(nearest, segmentDistance(p, a, b));
    }
  }
  return inside && nearest > depth;
}

/** An interior point of the largest polygon: its ring centroid if inside, else none. */
function interiorPoint(polygons: readonly CleanPolygon[]): LocalPoint | null {
  const largest = polygons.reduce<CleanPolygon | null>(
    (a, b) => (a && a.area >= b.area ? a : b),
    null,
  );
  if (!largest) return null;
  const ring = largest.outer;
  const [ox, oy] = ring[0]!;
  let a = 0, cx = 0, cy = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!, [x2, y2] = ring[(i + 1) % ring.length]!;
    const cross = (x1 - ox) * (y2 - oy) - (x2 - ox) * (y1 - oy);
    a += cross, cx += (x1 - ox + x2 - ox) * cross, cy += (y1 - oy + y2 - oy) * cross;
  }
  if (a === 0) return null;
  const c: LocalPoint = [ox + cx / (3 * a), oy + cy / (3 * a)];
  return insideDeeper(c, polygons, 0) ? c : null;
}

/** Edges of a and b cross, each reaching more than `depth` beyond the other's line. */
function deepCrossing(a: readonly CleanPolygon[], b: readonly CleanPolygon[], depth: number) {
  const side = (p: LocalPoint, q: LocalPoint, r: LocalPoint) =>
    Math.abs((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])) /
    Math.hypot(q[0] - p[0], q[1] - p[1]);
  for (const ra of ringsOf(a)) {
    for (let i = 0; i < ra.length; i++) {
      const p = ra[i]!, q = ra[(i + 1) % ra.length]!;
      for (const rb of ringsOf(b)) {
        for (let j = 0; j < rb.length; j++) {
          const r = rb[j]!, s = rb[(j + 1) % rb.length]!;
          if (!properCross(p, q, r, s)) continue;
          if (
            Math.min(side(p, q, r), side(p, q, s)) > depth &&
            Math.min(side(r, s, p), side(r, s, q)) > depth
          ) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

/** Which footprints overlap another by more than `depth` m (vertices, crossings, duplicates). */
function findOverlaps(footprints: readonly PartyFootprint[], depth: number): boolean[] {
  const overlaps = footprints.map(() => false);
  const boxes = footprints.map((f) => bboxOf(f.polygons));
  const grid = new Grid<number>(GRID_CELL_M * 4);
  boxes.forEach(([x0, y0, x1, y1], i) => {
    if (x0 <= x1) grid.insert(i, x0, y0, x1, y1);
  });
  const interior = footprints.map((f) => interiorPoint(f.polygons));
  boxes.forEach(([x0, y0, x1, y1], i) => {
    if (!(x0 <= x1)) return;
    const done = new Set<number>();
    for (const j of grid.query(x0, y0, x1, y1)) {
      if (j <= i || done.has(j)) continue;
      done.add(j);
      const [u0, v0, u1, v1] = boxes[j]!;
      // Boxes must overlap by more than the tolerance for the footprints to.
      if (u0 >= x1 - depth || u1 <= x0 + depth || v0 >= y1 - depth || v1 <= y0 + depth) continue;
      const a = footprints[i]!.polygons, b = footprints[j]!.polygons;
      const hit = ringsOf(a).some((ring) => ring.some((p) => insideDeeper(p, b, depth))) ||
        ringsOf(b).some((ring) => ring.some((p) => insideDeeper(p, a, depth))) ||
        (interior[i] !== null && insideDeeper(interior[i]!, b, depth)) ||
        (interior[j] !== null && insideDeeper(interior[j]!, a, depth)) ||
        deepCrossing(a, b, depth);
      if (hit) overlaps[i] = overlaps[j] = true;
    }
  });
  return overlaps;
}
