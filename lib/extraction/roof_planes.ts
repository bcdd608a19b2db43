/**
 * Roof planes of a footprint by roof:shape. The horizontal projection of the planes always
 * equals the footprint area; each plane's area is its projection / cos(pitch). The ridge of a
 * gabled roof runs along the long axis of the footprint's minimum-area oriented rectangle.
 */
import type { LocalPoint } from "./local_projection.ts";
import { parseLength } from "./building_height.ts";
import { azimuthOf } from "./walls.ts";

/** Roof shapes handled, by the planes they give. */
export const ROOF_SHAPE_FAMILY: Readonly<
  Record<string, "flat" | "gabled" | "hipped" | "skillion">
> = {
  flat: "flat",
  gabled: "gabled",
  "half-hipped": "gabled",
  gambrel: "gabled",
  saltbox: "gabled",
  round: "gabled",
  hipped: "hipped",
  pyramidal: "hipped",
  mansard: "hipped",
  "side_hipped": "hipped",
  cone: "hipped",
  dome: "hipped",
  onion: "hipped",
  skillion: "skillion",
  lean_to: "skillion",
};

/** Default pitch, degrees, of a shape without roof:angle or roof:height. */
export const DEFAULT_PITCH_DEG: Readonly<Record<string, number>> = {
  gabled: 35,
  "half-hipped": 35,
  saltbox: 35,
  round: 35,
  hipped: 30,
  pyramidal: 30,
  side_hipped: 30,
  cone: 30,
  dome: 30,
  onion: 30,
  skillion: 15,
  lean_to: 15,
  mansard: 40,
  gambrel: 40,
};

/** One roof plane (not yet a surface: no id). */
export interface RoofPlane {
  /** Sloped area, m2. */
  readonly area: number;
  /** Outward (downslope) normal, degrees from north; null for a flat roof. */
  readonly azimuth: number | null;
  /** Extraction tilt: 90 - pitch (90 flat). */
  readonly tilt: number;
}

/** The minimum-area rectangle around points. */
export interface OrientedRectangle {
  /** Long side, m. */
  readonly length: number;
  /** Short side, m. */
  readonly width: number;
  /** Unit vector along the long side. */
  readonly axis: readonly [number, number];
}

function convexHull(points: readonly LocalPoint[]): LocalPoint[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: LocalPoint, a: LocalPoint, b: LocalPoint) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: LocalPoint[] = [], upper: LocalPoint[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower.at(-2)!, lower.at(-1)!, q) <= 0) lower.pop();
    lower.push(q);
  }
  for (const q of p.reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2)!, upper.at(-1)!, q) <= 0) upper.pop();
    upper.push(q);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** Extent of points along the unit vector u: [min, max]. */
function extent(points: readonly LocalPoint[], u: readonly [number, number]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const [x, y] of points) {
    const t = x * u[0] + y * u[1];
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  return [lo, hi];
}

/** The minimum-area oriented rectangle of points (one side lies on a convex hull edge). */
export function minimumAreaRectangle(points: readonly LocalPoint[]): OrientedRectangle {
  const hull = convexHull(points);
  let best: OrientedRectangle = { length: 0, width: 0, axis: [1, 0] };
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!, b = hull[(i + 1) % hull.length]!;
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (l === 0) continue;
    const u: [number, number] = [(b[0] - a[0]) / l, (b[1] - a[1]) / l];
    const v: [number, number] = [-u[1], u[0]];
    const [u0, u1] = extent(hull, u), [v0, v1] = extent(hull, v);
    const area = (u1 - u0) * (v1 - v0);
    if (area < bestArea - 1e-9) {
      bestArea = area;
      best = u1 - u0 >= v1 - v0
        ? { length: u1 - u0, width: v1 - v0, axis: u }
        : { length: v1 - v0, width: u1 - u0, axis: v };
    }
  }
  return best;
}

const COMPASS: Readonly<Record<string, number>> = Object.fromEntries(
  [
    "N",
    "NNE",
    "NE",
    "ENE",
    "E",
    "ESE",
    "SE",
    "SSE",
    "S",
    "SSW",
    "SW",
    "WSW",
    "W",
    "WNW",
    "NW",
    "NNW",
  ]
    .map((d, i) => [d, i * 22.5]),
);

/** roof:direction as degrees from north: "135", "SE"; null if unreadable. */
export function parseDirection(text: string | undefined): number | null {
  if (text === undefined) return null;
  const s = text.trim().toUpperCase();
  if (s in COMPASS) return COMPASS[s]!;
  const v = Number(s.replace(",", "."));
  return s !== "" && Number.isFinite(v) ? ((v % 360) + 360) % 360 : null;
}

const DEG = Math.PI / 180;

/**
 * The pitch, degrees, of a pitched roof: roof:angle, else atan(roof:height / run) with `run`
 * the horizontal distance from eaves to ridge, else the shape's default.
 */
export function roofPitch(
  shape: string,
  tags: Readonly<Record<string, string>>,
  run: number,
): number {
  const angle = Number((tags["roof:angle"] ?? "").replace(",", ".").replace(/\s*°$/, ""));
  if (tags["roof:angle"] !== undefined && Number.isFinite(angle) && angle > 0 && angle < 85) {
    return angle;
  }
  const roofHeight = parseLength(tags["roof:height"]);
  if (roofHeight !== null && run > 0) {
    const pitch = Math.atan(roofHeight / run) / DEG;
    if (pitch > 0 && pitch < 85) return pitch;
  }
  return DEFAULT_PITCH_DEG[shape] ?? 30;
}

/** The roof planes of a footprint and the shape used. */
export interface Roof {
  /** The shape used: the tagged one if known, else the default. */
  readonly shape: string;
  readonly planes: RoofPlane[];
}

/**
 * Roof planes of a footprint of area `footprintArea` (m2) with outer ring vertices `points`:
 * flat (one plane), gabled family (two planes along the ridge), hipped family (four planes,
 * ends 2 W^2/4 of the L x W rectangle, scaled by A / (L W); mansard as hipped at 40 deg),
 * skillion (one plane facing roof:direction, else the candidate nearest south).
 */
export function roofPlanes(
  footprintArea: number,
  points: readonly LocalPoint[],
  tags: Readonly<Record<string, string>>,
  untaggedShape: string,
): Roof {
  const tagged = tags["roof:shape"]?.trim().toLowerCase();
  const shape = tagged !== undefined && tagged in ROOF_SHAPE_FAMILY ? tagged : untaggedShape;
  const family = ROOF_SHAPE_FAMILY[shape] ?? "flat";
  if (family === "flat" || footprintArea <= 0 || points.length < 3) {
    return { shape, planes: [{ area: footprintArea, azimuth: null, tilt: 90 }] };
  }
  const rect = minimumAreaRectangle(points);
  const along = rect.axis; // the long axis
  const across: [number, number] = [-along[1], along[0]];
  const plane = (projected: number, pitch: number, normal: readonly [number, number]) => ({
    area: projected / Math.cos(pitch * DEG),
    azimuth: azimuthOf(normal[0], normal[1]),
    tilt: 90 - pitch,
  });
  if (family === "gabled") {
    const turned = tags["roof:orientation"]?.trim().toLowerCase() === "across";
    // The planes face away from the ridge: across it normally, along the long axis if turned.
    const normal = turned ? along : across;
    const run = (turned ? rect.length : rect.width) / 2;
    const pitch = roofPitch(shape, tags, run);
    return {
      shape,
      planes: [
        plane(footprintArea / 2, pitch, normal),
        plane(footprintArea / 2, pitch, [-normal[0], -normal[1]]),
      ],
    };
  }
  if (family === "hipped") {
    const { length: L, width: W } = rect;
    const pitch = shape === "mansard" && tags["roof:angle"] === undefined &&
        tags["roof:height"] === undefined
      ? 40
      : roofPitch(shape, tags, W / 2);
    const scale = L * W > 0 ? footprintArea / (L * W) : 0;
    const end = (W * W / 4) * scale, side = ((L * W - W * W / 2) / 2) * scale;
    return {
      shape,
      planes: [
        plane(side, pitch, across),
        plane(side, pitch, [-across[0], -across[1]]),
        plane(end, pitch, along),
        plane(end, pitch, [-along[0], -along[1]]),
      ],
    };
  }
  // Skillion: the tagged direction, else the rectangle normal closest to south.
  const tagged_direction = parseDirection(tags["roof:direction"] ?? tags["direction"]);
  let facing: [number, number];
  if (tagged_direction !== null) {
    facing = [Math.sin(tagged_direction * DEG), Math.cos(tagged_direction * DEG)];
  } else {
    const candidates: [number, number][] = [
      [along[0], along[1]],
      [-along[0], -along[1]],
      across,
      [-across[0], -across[1]],
    ];
    facing = candidates.reduce((a, b) => (b[1] < a[1] ? b : a));
  }
  const [lo, hi] = extent(points, facing);
  const pitch = roofPitch(shape, tags, hi - lo);
  return { shape, planes: [plane(footprintArea, pitch, facing)] };
}
