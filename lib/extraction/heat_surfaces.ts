/**
 * The one conversion from extracted surfaces (extraction service conventions) to the heat
 * library's caller-supplied surfaces (lib/heat/calculation/overrides.ts `Surface`).
 *
 * The two services count tilt the opposite way: the extraction service (the spec) has 0 =
 * vertical and 90 = horizontal, the heat service (ISO 52016, buem) 0 = horizontal and 90 =
 * vertical. So heat tilt = 90 - extraction tilt: walls and windows 90, flat roof and floor 0, a
 * plane pitched 35 deg stays 35. Azimuth means the same in both (outward normal, clockwise from
 * north) and is left out where the extraction has none (horizontal surfaces).
 *
 * Areas: extracted walls are gross (their windows are children), the heat service wants net
 * opaque walls, so each wall loses its windows' area (and the door's, on the wall that holds
 * it). Party walls (`adiabatic`) carry no heat flow and are left out.
 */
import type { Surface, SurfaceType } from "../heat/calculation/overrides.ts";
import type { ExtractedSurface } from "./building_record.ts";

/** The U-value, W/(m2.K), given to every surface of each heat category. */
export type CategoryUValues = Readonly<Record<SurfaceType, number>>;

/** How the roof enters the heat calculation. */
export type RoofTreatment = "planes" | "ceiling";

/** Options of the conversion. */
export interface HeatSurfaceOptions {
  /**
   * Door area, m2, placed on the largest exposed wall (and taken from its net area); none when
   * omitted or 0. TABULA's estimate is `tabulaDoorArea(A_C_Ref)`.
   */
  readonly doorArea?: number;
  /**
   * "planes" (default): every roof plane as it is. "ceiling": the roof planes replaced by one
   * horizontal upper ceiling of their summed horizontal projection, for a building whose attic
   * is not heated (the heat then leaves through the top floor's ceiling, as TABULA's slot does).
   */
  readonly roof?: RoofTreatment;
}

/** Surfaces smaller than this, m2, are dropped (the heat service's lower area bound). */
export const MIN_HEAT_SURFACE_AREA = 0.01;

/** The heat service's tilt (0 = horizontal, 90 = vertical) of an extraction tilt (0 = vertical). */
export function heatTilt(extractionTilt: number): number {
  return 90 - extractionTilt;
}

/** TABULA's door area estimate, m2, from the reference floor area A_C_Ref (m2): 0.01 A + 1.5. */
export function tabulaDoorArea(aRef: number): number {
  return 0.01 * aRef + 1.5;
}

/**
 * The heat service's surfaces of one building: net exposed walls, windows, roof planes (or the
 * upper ceiling), the floor and the door, each with its category's U-value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const u = { roof: 0.2, wall: 0.3, floor: 0.4, window: 1.4, door: 1.7 };
 * const surfaces = [
 *   { id: "b/wall/0", type: "wall", area: 30, azimuth: 180, tilt: 0 },
 *   { id: "b/wall/0/window", type: "window", area: 6, azimuth: 180, tilt: 0, parent: "b/wall/0" },
 *   { id: "b/floor", type: "floor", area: 100, azimuth: null, tilt: 90 },
 * ] as const;
 * // The wall loses its window and the door (TABULA's estimate for A_C_Ref = 50 m2: 2 m2).
 * assert.deepEqual(toHeatSurfaces(surfaces, u, { doorArea: tabulaDoorArea(50) }), [
 *   { id: "b/wall/0", type: "wall", area: 22, u_value: 0.3, azimuth: 180, tilt: 90 },
 *   { id: "b/wall/0/window", type: "window", area: 6, u_value: 1.4, azimuth: 180, tilt: 90 },
 *   { id: "b/wall/0/door", type: "door", area: 2, u_value: 1.7, azimuth: 180, tilt: 90 },
 *   { id: "b/floor", type: "floor", area: 100, u_value: 0.4, tilt: 0 },
 * ]);
 * ```
 */
export function toHeatSurfaces(
  surfaces: readonly ExtractedSurface[],
  u: CategoryUValues,
  options: HeatSurfaceOptions = {},
): Surface[] {
  const byId = new Map(surfaces.map((s) => [s.id, s]));
  // Windows and door come off their wall's gross area; windows on a party wall are dropped with
  // it (the extraction puts none there; should one appear, it is not a heat loss either).
  const takenFromWall = new Map<string, number>();
  const windows: ExtractedSurface[] = [];
  for (const s of surfaces) {
    if (s.type !== "window") continue;
    const parent = s.parent === undefined ? undefined : byId.get(s.parent);
    if (parent?.adiabatic === true) continue;
    windows.push(s);
    if (s.parent !== undefined) {
      takenFromWall.set(s.parent, (takenFromWall.get(s.parent) ?? 0) + s.area);
    }
  }
  const exposedWalls = surfaces.filter((s) => s.type === "wall" && s.adiabatic !== true);
  const doorArea = options.doorArea ?? 0;
  const doorWall = doorArea > 0 ? largest(exposedWalls) : undefined;
  if (doorWall) {
    takenFromWall.set(doorWall.id, (takenFromWall.get(doorWall.id) ?? 0) + doorArea);
  }

  const out: Surface[] = [];
  const push = (id: string, type: SurfaceType, area: number, from: ExtractedSurface | null) => {
    if (!(area >= MIN_HEAT_SURFACE_AREA)) return;
    const surface: Surface = { id, type, area, u_value: u[type] };
    if (from) {
      if (from.azimuth !== null) surface.azimuth = from.azimuth;
      surface.tilt = heatTilt(from.tilt);
    } else surface.tilt = 0;
    out.push(surface);
  };

  for (const wall of exposedWalls) {
    push(wall.id, "wall", wall.area - (takenFromWall.get(wall.id) ?? 0), wall);
  }
  for (const window of windows) push(window.id, "window", window.area, window);
  if (doorWall) push(`${doorWall.id}/door`, "door", doorArea, doorWall);

  const roofs = surfaces.filter((s) => s.type === "roof");
  if (options.roof === "ceiling" && roofs.length > 0) {
    // A plane of extraction tilt t (pitch 90 - t) projects to area x sin(t).
    const projected = roofs.reduce((sum, r) => sum + r.area * Math.sin(r.tilt * Math.PI / 180), 0);
    const [first] = roofs;
    push(`${first!.id.replace(/\/roof\/\d+$/, "")}/ceiling`, "roof", projected, null);
  } else {
    for (const roof of roofs) push(roof.id, "roof", roof.area, roof);
  }
  for (const floor of surfaces) {
    if (floor.type === "floor") push(floor.id, "floor", floor.area, floor);
  }
  return out;
}

/** The surface of greatest area (the first of equals); undefined for none. */
function largest(surfaces: readonly ExtractedSurface[]): ExtractedSurface | undefined {
  let best: ExtractedSurface | undefined;
  for (const s of surfaces) if (!best || s.area > best.area) best = s;
  return best;
}
