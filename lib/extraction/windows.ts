/**
 * Windows as children of the exposed walls: area = window-to-wall ratio x the wall's (gross)
 * area, with the wall's azimuth and tilt; party walls get none (buem's rule).
 */
import type { ExtractedSurface } from "./building_record.ts";
import { round2 } from "./walls.ts";

/**
 * The windows of `walls` at window-to-wall ratio `wwr` (0..0.9): one per exposed wall, id
 * "<wall id>/window", `parent` the wall's id. A ratio of 0 gives none.
 */
export function wallWindows(walls: readonly ExtractedSurface[], wwr: number): ExtractedSurface[] {
  if (!Number.isFinite(wwr) || wwr < 0 || wwr > 0.9) {
    throw new RangeError(`wallWindows: window-to-wall ratio must be in [0, 0.9], got ${wwr}`);
  }
  if (wwr === 0) return [];
  return walls
    .filter((w) => w.type === "wall" && w.adiabatic !== true && w.area > 0)
    .map((w) => ({
      id: `${w.id}/window`,
      type: "window" as const,
      area: round2(wwr * w.area),
      azimuth: w.azimuth,
      tilt: w.tilt,
      parent: w.id,
    }));
}
