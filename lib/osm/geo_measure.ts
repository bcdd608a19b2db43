/**
 * Measures of lon/lat geometry: geodesic ring area (spherical, the formula of turf/d3 area),
 * signed planar area for orientation, area-weighted centroid, bounding box.
 */

/** A position: [longitude, latitude] in degrees. */
export type Position = [number, number];

/** Earth radius used for areas, in metres (WGS84 equatorial, as turf uses). */
export const EARTH_RADIUS_M = 6378137;

const RAD = Math.PI / 180;

/**
 * Area of a closed ring on the sphere in m², unsigned (Chamberlain & Duquette, "Some algorithms
 * for polygons on a sphere", 2007; the formula turf's area uses).
 */
export function ringAreaM2(ring: readonly Position[]): number {
  const n = ring.length;
  if (n < 4) return 0;
  let total = 0;
  for (let i = 0; i < n - 1; i++) {
    const [lon1, lat1] = ring[i] as Position;
    const [lon2, lat2] = ring[i + 1] as Position;
    total += (lon2 - lon1) * RAD * (2 + Math.sin(lat1 * RAD) + Math.sin(lat2 * RAD));
  }
  return Math.abs((total * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** Signed planar (shoelace) area in degrees²: positive for a counterclockwise ring. */
export function signedPlanarArea(ring: readonly Position[]): number {
  let total = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x1, y1] = ring[i] as Position;
    const [x2, y2] = ring[i + 1] as Position;
    total += x1 * y2 - x2 * y1;
  }
  return total / 2;
}

/** Area in m² of polygons given as rings (the first of each is the exterior, then holes). */
export function polygonsAreaM2(polygons: readonly (readonly Position[][])[]): number {
  let total = 0;
  for (const rings of polygons) {
    rings.forEach((ring, i) => total += (i === 0 ? 1 : -1) * ringAreaM2(ring));
  }
  return total;
}

/**
 * Area-weighted centroid of polygons (holes subtract), computed in lon/lat, which is close
 * enough for the small areas OSM features cover. Degenerate shapes fall back to the average
 * of their exterior vertices.
 */
export function polygonsCentroid(polygons: readonly (readonly Position[][])[]): Position {
  // Work relative to the first vertex: cross products of absolute degrees lose all precision
  // for rings a few metres across (a solar panel at lon 9.6 came out 100 m off).
  const [ox, oy] = polygons[0]?.[0]?.[0] ?? [0, 0];
  let a = 0, cx = 0, cy = 0;
  for (const rings of polygons) {
    rings.forEach((ring, index) => {
      // Orientation-independent: each ring counts by the sign of its role, not its winding.
      const s = (index === 0 ? 1 : -1) * Math.sign(signedPlanarArea(ring) || 1);
      for (let i = 0; i < ring.length - 1; i++) {
        const [ax, ay] = ring[i] as Position;
        const [bx, by] = ring[i + 1] as Position;
        const [x1, y1, x2, y2] = [ax - ox, ay - oy, bx - ox, by - oy];
        const cross = x1 * y2 - x2 * y1;
        a += s * cross;
        cx += s * (x1 + x2) * cross;
        cy += s * (y1 + y2) * cross;
      }
    });
  }
  if (Math.abs(a) < 1e-18) return vertexAverage(polygons.flatMap((rings) => rings[0] ?? []));
  return [ox + cx / (3 * a), oy + cy / (3 * a)];
}

/** Average of positions (the centroid of a line or a degenerate ring). */
export function vertexAverage(points: readonly Position[]): Position {
  let x = 0, y = 0;
  for (const [lon, lat] of points) {
    x += lon;
    y += lat;
  }
  return points.length === 0 ? [NaN, NaN] : [x / points.length, y / points.length];
}

/** Bounding box [minLon, minLat, maxLon, maxLat] of positions. */
export function bboxOf(points: Iterable<Position>): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of points) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}
