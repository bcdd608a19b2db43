/**
 * A location as the LP reads it: its name, coordinates and `available_area` (Calliope's
 * `available_area`, at the location or in its `constraints`; infinite means no limit).
 */
import type { Location } from "../model_config.ts";
import type { ModelProblem } from "../model_problem.ts";
import { toNumber } from "./quantity.ts";
import type { ResolvedLocation } from "./resolved_model.ts";

/** A negative or unreadable available_area, at its path. */
export function availableAreaProblems(loc: Location, i: number): ModelProblem[] {
  const key = loc.available_area === undefined ? "constraints.available_area" : "available_area";
  const raw = loc.available_area ?? loc.constraints?.available_area;
  const area = toNumber(raw);
  if (raw === undefined || (area !== undefined && area >= 0)) return [];
  return [{
    path: `locations[${i}].${key}`,
    message: `available_area of ${loc.id} is ${JSON.stringify(raw)}; it must be 0 or more (or inf)`,
  }];
}

export function resolveLocation(loc: Location): ResolvedLocation {
  const area = toNumber(loc.available_area ?? loc.constraints?.available_area);
  return {
    id: loc.id,
    name: loc.name ?? loc.id,
    ...(loc.lat === undefined ? {} : { lat: loc.lat }),
    ...(loc.lon === undefined ? {} : { lon: loc.lon }),
    ...(loc.x === undefined ? {} : { x: loc.x }),
    ...(loc.y === undefined ? {} : { y: loc.y }),
    ...(area === undefined || area === Infinity ? {} : { available_area: area }),
  };
}
