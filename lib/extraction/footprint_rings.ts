/**
 * Ring hygiene of building footprints in the local metric plane: open the rings, drop duplicate
 * vertices, short edges and spikes, split self-touching rings, drop degenerate rings, and
 * orient outer rings counter-clockwise and holes clockwise, so that every edge's outward normal
 * is its right-hand normal (dy, -dx) (into the courtyard for a hole).
 */
import type { LocalPoint } from "./local_projection.ts";

/** Edges shorter than this, m, are dropped (their vertices merged). */
export const MIN_EDGE_M = 0.05;
/** Polygons and rings under this area, m2, are dropped. */
export const MIN_AREA_M2 = 1;

/** A cleaned polygon: open rings (no repeated closing vertex), outer CCW, holes CW. */
export interface CleanPolygon {
  readonly outer: LocalPoint[];
  readonly holes: LocalPoint[][];
  /** Outer area less holes, m2. */
  readonly area: number;
}

/** The result of cleanFootprint. */
export interface RingHygiene {
  readonly polygons: CleanPolygon[];
  /** Sum of the polygons' areas, m2 (holes subtracted). */
  readonly area: number;
  /** What was repaired or dropped, each naming the building. */
  readonly problems: string[];
}

/**
 * Signed shoelace area of a ring, m2: positive when counter-clockwise (x east, y north). The
 * ring may be open or closed (a closing vertex adds a zero term).
 */
export function signedArea(ring: readonly LocalPoint[]): number {
  const n = ring.length;
  if (n < 3) return 0;
  // Relative to the first vertex, so that coordinates far from the origin keep precision.
  const [ox, oy] = ring[0]!;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % n]!;
    total += (x1 - ox) * (y2 - oy) - (x2 - ox) * (y1 - oy);
  }
  return total / 2;
}

function distance(a: LocalPoint, b: LocalPoint): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/** Opens the ring and drops vertices closer than MIN_EDGE_M to the previous kept one. */
function dropShortEdges(ring: readonly LocalPoint[]): LocalPoint[] {
  const out: LocalPoint[] = [];
  for (const p of ring) {
    const last = out.at(-1);
    if (last === undefined || distance(last, p) >= MIN_EDGE_M) out.push(p);
  }
  while (out.length > 1 && distance(out[0]!, out.at(-1)!) < MIN_EDGE_M) out.pop();
  return out;
}

/** Drops vertices where the ring turns back on itself (a zero-width spike). */
function dropSpikes(ring: LocalPoint[]): { ring: LocalPoint[]; spikes: number } {
  let spikes = 0;
  let changed = true;
  while (changed && ring.length >= 3) {
    changed = false;
    for (let i = 0; i < ring.length && ring.length >= 3; i++) {
      const a = ring[(i + ring.length - 1) % ring.length]!;
      const b = ring[i]!;
      const c = ring[(i + 1) % ring.length]!;
      const [ux, uy, vx, vy] = [b[0] - a[0], b[1] - a[1], c[0] - b[0], c[1] - b[1]];
      const cross = ux * vy - uy * vx;
      const lengths = Math.hypot(ux, uy) * Math.hypot(vx, vy);
      // sin(turn) ~ 0 and going back: the two edges overlap.
      if (Math.abs(cross) <= 1e-6 * lengths && ux * vx + uy * vy < 0) {
        ring.splice(i, 1);
        spikes++;
        changed = true;
        i--;
      }
    }
    // A spike's removal can leave a duplicate vertex behind.
    const deduped = dropShortEdges(ring);
    if (deduped.length !== ring.length) changed = true;
    ring = deduped;
  }
  return { ring, spikes };
}

/** Splits a ring at vertices it visits twice into simple loops. */
function splitAtTouches(ring: readonly LocalPoint[]): LocalPoint[][] {
  const key = (p: LocalPoint) =>
    `${Math.round(p[0] / MIN_EDGE_M)},${Math.round(p[1] / MIN_EDGE_M)}`;
  const loops: LocalPoint[][] = [];
  const stack: LocalPoint[] = [];
  const index = new Map<string, number>();
  for (const p of [...ring, ring[0]!]) {
    const k = key(p);
    const at = index.get(k);
    if (at !== undefined) {
      const loop = stack.splice(at);
      for (const q of loop) index.delete(key(q));
      loops.push(loop);
    }
    index.set(k, stack.length);
    stack.push(p);
  }
  // What is left is the closing vertex alone (pushed back after the last loop was cut).
  return loops;
}

/** True if two edges of the ring cross (a bow tie); O(n^2), rings are small. */
function selfCrosses(ring: readonly LocalPoint[]): boolean {
  const n = ring.length;
  if (n > 2000) return false;
  for (let i = 0; i < n; i++) {
    const a = ring[i]!, b = ring[(i + 1) % n]!;
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      const c = ring[j]!, d = ring[(j + 1) % n]!;
      if (properCross(a, b, c, d)) return true;
    }
  }
  return false;
}

/** True if segments ab and cd cross at a point inside both (touching does not count). */
export function properCross(a: LocalPoint, b: LocalPoint, c: LocalPoint, d: LocalPoint): boolean {
  const side = (p: LocalPoint, q: LocalPoint, r: LocalPoint) => {
    const v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
    // Tolerance relative to the edge length: collinear touching edges give ~0.
    return Math.abs(v) <= 1e-9 * (1 + distance(p, q) ** 2) ? 0 : Math.sign(v);
  };
  const d1 = side(a, b, c), d2 = side(a, b, d), d3 = side(c, d, a), d4 = side(c, d, b);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function oriented(ring: LocalPoint[], ccw: boolean): LocalPoint[] {
  return (signedArea(ring) > 0) === ccw ? ring : ring.reverse();
}

function fmt(p: LocalPoint): string {
  return `(${p[0].toFixed(2)}, ${p[1].toFixed(2)})`;
}

/** Cleans one ring into simple loops, reporting what it did. */
function cleanRing(
  id: string,
  what: string,
  ring: readonly LocalPoint[],
  problems: string[],
): LocalPoint[][] {
  const short = dropShortEdges(ring);
  if (short.length < 3) {
    problems.push(`${id}: ${what} has fewer than 3 distinct vertices, dropped`);
    return [];
  }
  const { ring: despiked, spikes } = dropSpikes(short);
  if (spikes > 0) problems.push(`${id}: ${what}: ${spikes} spike vertices removed`);
  if (despiked.length < 3) {
    problems.push(`${id}: ${what} is degenerate (no area), dropped`);
    return [];
  }
  const loops = splitAtTouches(despiked);
  if (loops.length > 1) {
    const first = despiked.find((p, i) =>
      despiked.some((q, j) => j !== i && distance(p, q) < MIN_EDGE_M)
    );
    problems.push(
      `${id}: ${what} touches itself${first ? ` at ${fmt(first)}` : ""}, split into ` +
        `${loops.length} rings`,
    );
  }
  const kept: LocalPoint[][] = [];
  for (const loop of loops) {
    const crosses = loop.length >= 4 && selfCrosses(loop);
    if (crosses) problems.push(`${id}: ${what} crosses itself; its area may be wrong`);
    if (loop.length < 3 || Math.abs(signedArea(loop)) < MIN_AREA_M2) {
      problems.push(`${id}: ${what}: a degenerate ring (under ${MIN_AREA_M2} m2) dropped`);
      continue;
    }
    kept.push(loop);
  }
  return kept;
}

/**
 * Cleans the polygons of one footprint (each [outer, ...holes], positions in the local plane,
 * rings open or closed). A self-touching outer ring is split: loops wound like its largest loop
 * become outer rings, loops wound the other way (an inverted hole) become holes of it.
 */
export function cleanFootprint(
  id: string,
  polygons: readonly (readonly (readonly LocalPoint[])[])[],
): RingHygiene {
  const problems: string[] = [];
  const out: CleanPolygon[] = [];
  polygons.forEach((rings, p) => {
    const [outerRing, ...holeRings] = rings;
    if (outerRing === undefined) return;
    const loops = cleanRing(id, `polygon ${p} outer ring`, outerRing, problems);
    if (loops.length === 0) return;
    const main = loops.reduce((a, b) => Math.abs(signedArea(b)) > Math.abs(signedArea(a)) ? b : a);
    const sign = Math.sign(signedArea(main));
    const outers = loops.filter((l) => Math.sign(signedArea(l)) === sign);
    const holes = loops.filter((l) => Math.sign(signedArea(l)) !== sign);
    holeRings.forEach((h, i) =>
      holes.push(...cleanRing(id, `polygon ${p} hole ${i}`, h, problems))
    );
    const orientedHoles = holes.map((l) => oriented(l, false));
    const mainIndex = outers.indexOf(main);
    outers.forEach((loop, i) => {
      const outer = oriented(loop, true);
      // Holes go with the main outer ring (the other loops of a figure eight have none).
      const own = i === mainIndex ? orientedHoles : [];
      const area = signedArea(outer) + own.reduce((s, h) => s + signedArea(h), 0);
      if (area < MIN_AREA_M2) {
        problems.push(`${id}: polygon ${p} has an area under ${MIN_AREA_M2} m2, dropped`);
        return;
      }
      out.push({ outer, holes: own, area });
    });
  });
  return { polygons: out, area: out.reduce((s, p) => s + p.area, 0), problems };
}
