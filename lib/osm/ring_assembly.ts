/**
 * Assembles (multi)polygons from the member ways of an OSM multipolygon or boundary relation:
 * joins open ways into closed rings by shared end nodes (reversing ways as needed), orients
 * rings per RFC 7946 (exterior counterclockwise, holes clockwise) and puts each inner ring into
 * the outer ring that contains it.
 */
import { type Position, signedPlanarArea } from "./geo_measure.ts";

/** A member way with its node ids and their positions (same length). */
export interface RingWay {
  readonly id: number;
  readonly role: string;
  readonly refs: readonly number[];
  readonly coords: readonly Position[];
}

/** The assembled polygons (rings of positions) and what could not be assembled. */
export interface AssembledArea {
  /** Polygons, each [exterior, ...holes]; empty when nothing could be closed. */
  readonly polygons: Position[][][];
  /** Human-readable problems: unclosed rings, orphan inner rings. */
  readonly problems: string[];
}

interface Chain {
  refs: number[];
  coords: Position[];
  ways: number[];
}

/** Joins ways into closed rings; what cannot be closed is reported by way ids. */
export function joinRings(ways: readonly RingWay[]): { rings: Position[][]; unclosed: number[][] } {
  const rings: Position[][] = [];
  const unclosed: number[][] = [];
  const open: Chain[] = [];
  for (const way of ways) {
    if (way.refs.length < 2) continue;
    const chain = { refs: [...way.refs], coords: [...way.coords], ways: [way.id] };
    if (chain.refs[0] === chain.refs.at(-1) && chain.refs.length >= 4) rings.push(chain.coords);
    else open.push(chain);
  }
  while (open.length > 0) {
    const current = open.pop() as Chain;
    let extended = true;
    while (current.refs[0] !== current.refs.at(-1) && extended) {
      extended = false;
      const end = current.refs.at(-1);
      const start = current.refs[0];
      for (let i = 0; i < open.length; i++) {
        const other = open[i] as Chain;
        const oStart = other.refs[0];
        const oEnd = other.refs.at(-1);
        let refs: number[] | undefined, coords: Position[] | undefined, append = true;
        if (oStart === end) [refs, coords] = [other.refs, other.coords];
        else if (oEnd === end) {
          [refs, coords] = [[...other.refs].reverse(), [...other.coords].reverse()];
        } else if (oEnd === start) [refs, coords, append] = [other.refs, other.coords, false];
        else if (oStart === start) {
          [refs, coords, append] = [[...other.refs].reverse(), [...other.coords].reverse(), false];
        }
        if (!refs || !coords) continue;
        if (append) {
          current.refs.push(...refs.slice(1));
          current.coords.push(...coords.slice(1));
        } else {
          current.refs = [...refs.slice(0, -1), ...current.refs];
          current.coords = [...coords.slice(0, -1), ...current.coords];
        }
        current.ways.push(...other.ways);
        open.splice(i, 1);
        extended = true;
        break;
      }
    }
    if (current.refs[0] === current.refs.at(-1) && current.refs.length >= 4) {
      rings.push(current.coords);
    } else unclosed.push(current.ways);
  }
  return { rings, unclosed };
}

/** Whether `point` lies inside `ring` (ray casting; points on the edge count either way). */
export function pointInRing(point: Position, ring: readonly Position[]): boolean {
  const [x, y] = point;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as Position;
    const [xj, yj] = ring[j] as Position;
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function oriented(ring: Position[], counterclockwise: boolean): Position[] {
  const ccw = signedPlanarArea(ring) > 0;
  return ccw === counterclockwise ? ring : [...ring].reverse();
}

/** Whether most vertices of `inner` lie inside `outer` (shared boundary vertices are ambiguous). */
function contains(outer: readonly Position[], inner: readonly Position[]): boolean {
  let yes = 0, no = 0;
  for (let i = 0; i < inner.length - 1 && yes + no < 15; i++) {
    if (pointInRing(inner[i] as Position, outer)) yes++;
    else no++;
  }
  return yes > no;
}

/**
 * Assembles the polygons of a relation from its member ways. Members with role "inner" make
 * holes; every other role (outer, empty) makes exteriors. Unclosable chains and inner rings
 * inside no outer ring are reported in `problems`; the rest is still assembled.
 */
export function assembleArea(ways: readonly RingWay[]): AssembledArea {
  const problems: string[] = [];
  const outer = joinRings(ways.filter((w) => w.role !== "inner"));
  const inner = joinRings(ways.filter((w) => w.role === "inner"));
  for (const chain of [...outer.unclosed, ...inner.unclosed]) {
    problems.push(`ring of ways ${chain.map((id) => `way/${id}`).join(", ")} does not close`);
  }
  // An inner ring goes to the smallest outer ring that contains it: with an island inside a
  // lake inside a larger outer, the first containing outer would be the wrong one.
  const outers = outer.rings.map((r) => oriented(r, true));
  const polygons: Position[][][] = outers.map((r) => [r]);
  for (const ring of inner.rings) {
    let best = -1;
    for (let i = 0; i < outers.length; i++) {
      if (!contains(outers[i] as Position[], ring)) continue;
      const area = Math.abs(signedPlanarArea(outers[i] as Position[]));
      if (best < 0 || area < Math.abs(signedPlanarArea(outers[best] as Position[]))) best = i;
    }
    if (best < 0) problems.push("an inner ring lies inside no outer ring");
    else polygons[best]?.push(oriented(ring, false));
  }
  return { polygons, problems };
}
