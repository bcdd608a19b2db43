/**
 * Caller-supplied surfaces, collapsed to one equivalent element per category.
 */
import type { Surface, SurfaceType } from "./overrides.ts";
import type { Orientation } from "../parameters/slots.ts";

/** One category's surfaces collapsed: summed area (m2) and area-weighted U (W/(m2.K)). */
export interface CollapsedCategory {
  area: number;
  u_value: number;
  count: number;
}

/** Collapsed surfaces by category, plus the window area per solar orientation (m2). */
export interface CollapsedSurfaces {
  categories: Partial<Record<SurfaceType, CollapsedCategory>>;
  windowOrientation: Record<Orientation, number> | undefined;
}

/** Windows within this many degrees of horizontal count as horizontal (skylights). */
const HORIZONTAL_TILT_DEG = 5;

/**
 * Solar-gain bucket of a window: tilt within 5 degrees of 0 is Horizontal, otherwise the
 * azimuth (0 = N, 90 = E, 180 = S, 270 = W; default South) rounded to the nearest of the four.
 */
export function windowOrientation(
  azimuth: number | undefined,
  tilt: number | undefined,
): Orientation {
  if (tilt !== undefined && Math.abs(tilt) <= HORIZONTAL_TILT_DEG) return "Horizontal";
  if (azimuth === undefined) return "South";
  const quadrant = Math.round((((azimuth % 360) + 360) % 360) / 90) % 4;
  return (["North", "East", "South", "West"] as const)[quadrant]!;
}

/** Groups surfaces by type and collapses each group to summed area and area-weighted U. */
export function collapseSurfaces(surfaces: readonly Surface[]): CollapsedSurfaces {
  const sums: Partial<Record<SurfaceType, { area: number; ua: number; count: number }>> = {};
  let windowOrientationAreas: Record<Orientation, number> | undefined;
  for (const s of surfaces) {
    const sum = sums[s.type] ?? { area: 0, ua: 0, count: 0 };
    sum.area += s.area;
    sum.ua += s.area * s.u_value;
    sum.count += 1;
    sums[s.type] = sum;
    if (s.type === "window") {
      windowOrientationAreas ??= { Horizontal: 0, East: 0, South: 0, West: 0, North: 0 };
      windowOrientationAreas[windowOrientation(s.azimuth, s.tilt)] += s.area;
    }
  }
  const categories: Partial<Record<SurfaceType, CollapsedCategory>> = {};
  for (
    const [type, sum] of Object.entries(sums) as [
      SurfaceType,
      { area: number; ua: number; count: number },
    ][]
  ) {
    categories[type] = { area: sum.area, u_value: sum.ua / sum.area, count: sum.count };
  }
  return { categories, windowOrientation: windowOrientationAreas };
}
