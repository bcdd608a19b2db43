/**
 * Bounding boxes of the map routes: `minLon,minLat,maxLon,maxLat` in degrees (WGS 84), parsed
 * and checked once, compared, and clamped to the largest box the Overpass fallback asks for.
 */

/** A bounding box [minLon, minLat, maxLon, maxLat], degrees. */
export type Bbox = [number, number, number, number];

/**
 * Widest and tallest box the Overpass fallback asks for, degrees. The store has no such limit:
 * a larger box without a region is answered from the store, or (no imported region there) with
 * an empty collection and a notice.
 */
export const MAX_BBOX_SPAN_DEG = 5;

/**
 * Parses `minLon,minLat,maxLon,maxLat`: four finite numbers, longitudes in [-180, 180],
 * latitudes in [-90, 90], each minimum below its maximum. Throws a SyntaxError for text that
 * is not four numbers and a RangeError for values out of range; messages start with "bbox".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseBbox("9.47,47.04,9.64,47.27"), [9.47, 47.04, 9.64, 47.27]);
 * ```
 */
export function parseBbox(text: string): Bbox {
  const parts = text.split(",").map((p) => p.trim());
  // Number("") is 0, so empty parts are refused before converting.
  if (parts.length !== 4 || parts.some((p) => p === "")) {
    throw new SyntaxError(
      `bbox must be four comma-separated numbers minLon,minLat,maxLon,maxLat, got ${
        JSON.stringify(text.slice(0, 100))
      }`,
    );
  }
  const values = parts.map(Number);
  const bad = values.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) {
    throw new SyntaxError(
      `bbox value ${bad + 1} ${JSON.stringify(parts[bad])} is not a finite number`,
    );
  }
  const [minLon, minLat, maxLon, maxLat] = values as Bbox;
  for (
    const [name, v, limit] of [
      ["minLon", minLon, 180],
      ["maxLon", maxLon, 180],
      ["minLat", minLat, 90],
      ["maxLat", maxLat, 90],
    ] as const
  ) {
    if (v < -limit || v > limit) {
      throw new RangeError(`bbox ${name} ${v} is outside [-${limit}, ${limit}]`);
    }
  }
  if (!(minLon < maxLon)) {
    throw new RangeError(`bbox minLon ${minLon} must be less than maxLon ${maxLon}`);
  }
  if (!(minLat < maxLat)) {
    throw new RangeError(`bbox minLat ${minLat} must be less than maxLat ${maxLat}`);
  }
  return [minLon, minLat, maxLon, maxLat];
}

/** Whether `bbox` spans at most `maxDeg` degrees both ways. */
export function withinSpan(bbox: Bbox, maxDeg: number = MAX_BBOX_SPAN_DEG): boolean {
  return bbox[2] - bbox[0] <= maxDeg && bbox[3] - bbox[1] <= maxDeg;
}

/** The box's width and height in degrees as text, e.g. "60 x 35". */
export function spanText(bbox: Bbox): string {
  return `${round(bbox[2] - bbox[0])} x ${round(bbox[3] - bbox[1])}`;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Whether two boxes share any point (touching edges count). */
export function bboxesIntersect(a: Bbox, b: Bbox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/**
 * `bbox` cut to at most `maxDeg` x `maxDeg` around its centre and kept inside the world's
 * longitudes and latitudes; a box within the limit comes back unchanged.
 */
export function clampBbox(bbox: Bbox, maxDeg: number = MAX_BBOX_SPAN_DEG): Bbox {
  const clamp = (min: number, max: number, limit: number): [number, number] => {
    if (max - min <= maxDeg) return [min, max];
    const centre = (min + max) / 2;
    return [Math.max(-limit, centre - maxDeg / 2), Math.min(limit, centre + maxDeg / 2)];
  };
  const [minLon, maxLon] = clamp(bbox[0], bbox[2], 180);
  const [minLat, maxLat] = clamp(bbox[1], bbox[3], 90);
  return [minLon, minLat, maxLon, maxLat];
}

/** The canonical text of a box (numbers as JS prints them), for cache keys and queries. */
export function bboxText(bbox: Bbox): string {
  return bbox.join(",");
}
