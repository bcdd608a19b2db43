/** Hand-made footprints for the extraction tests: metric rings placed at Triesen's latitude. */
import type { Footprint } from "../../lib/extraction/building_record.ts";
import { createLocalProjection } from "../../lib/extraction/local_projection.ts";

/** The plane the test shapes are drawn in. */
export const PLANE = createLocalProjection([9.53, 47.1]);

/** A footprint from metric rings (each [x, y][], open; closed here). */
export function footprint(
  id: string,
  tags: Record<string, string>,
  ...rings: [number, number][][]
): Footprint {
  return {
    id,
    tags: { building: "yes", ...tags },
    polygons: [rings.map((ring) => [...ring, ring[0]!].map((p) => PLANE.toLonLat(p)))],
  };
}

/** An axis-aligned box [x0, x1] x [y0, y1], counter-clockwise unless `clockwise`. */
export function box(x0: number, y0: number, x1: number, y1: number, clockwise = false) {
  const ring: [number, number][] = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  return clockwise ? ring.reverse() : ring;
}
