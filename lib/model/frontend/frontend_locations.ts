/**
 * The frontend's `locations` (and `locationTechAssignments`) read into canonical locations
 * (research notes `tempo_client.md` sections 1.3 and 1.6): ids through the frontend runner's
 * lower-cased safe id, coordinates from any of the spellings the frontend writes (0 included),
 * technologies from the keys of `techs` with their overrides, demand technologies placed where
 * the frontend's runner placed them, and in-memory demand profiles turned into a series.
 */
import type { FrontendReadContext } from "./frontend_context.ts";
import { frontendKey } from "./frontend_ids.ts";
import {
  infinityCosts,
  infinityRecord,
  infinityValue,
  isPlainObject,
} from "./frontend_infinity.ts";
import type { FrontendTechnologies } from "./frontend_technologies.ts";
import type { TimeSeries } from "../model_config.ts";

/** The series id of demand profiles built from `location.demandProfile`. */
export const DEMAND_PROFILES_ID = "demand_profiles";

/** A technology's override at one location (`null`: none). */
export type TechOverride = {
  constraints?: Record<string, unknown>;
  costs?: Record<string, unknown>;
};

/** A location being read: its canonical fields and its technologies by key, in order. */
export interface LocationDraft {
  readonly fields: Record<string, unknown> & { id: string };
  readonly techs: Map<string, TechOverride | null>;
}

/** Keys of a frontend location that are read; the rest is frontend metadata. */
const USED_KEYS = new Set([
  "id",
  "name",
  "lat",
  "latitude",
  "lon",
  "lng",
  "longitude",
  "coordinates",
  "x",
  "y",
  "available_area",
  "constraints",
  "techs",
  "demandProfile",
]);

/** Reads the frontend's `locations`, honouring `locationTechAssignments` as its runner did. */
export function readFrontendLocations(
  list: unknown,
  assignments: unknown,
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
): LocationDraft[] {
  const drafts: LocationDraft[] = [];
  if (!Array.isArray(list)) {
    ctx.problems.push({ path: "locations", message: "locations must be a list" });
    return drafts;
  }
  const assigned = isPlainObject(assignments) ? assignments : {};
  const usedAssignments = new Set<string>();
  const dropped = new Set<string>();
  list.forEach((raw, i) => {
    const at = `locations[${i}]`;
    if (!isPlainObject(raw)) {
      ctx.problems.push({ path: at, message: "a location must be an object" });
      return;
    }
    const label = firstText(raw["id"], raw["name"]);
    if (label === undefined || frontendKey(label) === "") {
      ctx.problems.push({ path: `${at}.name`, message: "a location needs an id or a name" });
      return;
    }
    const id = frontendKey(label);
    if (drafts.some((d) => d.fields.id === id)) {
      ctx.problems.push({
        path: `${at}.name`,
        message: `a second location with the id "${id}"; location names must differ`,
      });
      return;
    }
    for (const key of Object.keys(raw)) if (!USED_KEYS.has(key)) dropped.add(key);
    const fields: LocationDraft["fields"] = { id, ...coordinatesOf(raw) };
    const name = firstText(raw["name"]);
    if (name !== undefined) fields["name"] = name;
    if (raw["available_area"] !== undefined && raw["available_area"] !== null) {
      fields["available_area"] = infinityValue(raw["available_area"]);
    }
    if (isPlainObject(raw["constraints"])) {
      fields["constraints"] = infinityRecord(raw["constraints"]);
    }

    const assignmentKey = Object.keys(assigned).find((k) => k === label || frontendKey(k) === id);
    const assignment = assignmentKey === undefined ? undefined : assigned[assignmentKey];
    const draft: LocationDraft = { fields, techs: new Map() };
    if (assignmentKey !== undefined) usedAssignments.add(assignmentKey);
    if (Array.isArray(assignment) && assignment.length > 0) {
      // As the frontend's runner: an assignment replaces the location's own techs and overrides.
      assignment.forEach((ref, j) => {
        const text = refText(ref);
        addTech(draft, text, null, `locationTechAssignments.${assignmentKey}[${j}]`, techs, ctx);
      });
    } else {
      readTechs(raw["techs"], draft, `${at}.techs`, techs, ctx, dropped);
    }
    drafts.push(draft);
  });
  for (const key of Object.keys(assigned)) {
    if (!usedAssignments.has(key)) {
      ctx.problems.push({
        path: `locationTechAssignments.${key}`,
        message: `"${key}" names no location`,
      });
    }
  }
  if (dropped.size > 0) {
    ctx.notes.push(
      `location keys dropped as frontend metadata (not model settings): ${
        [...dropped].sort().join(", ")
      }`,
    );
  }
  return drafts;
}

function readTechs(
  value: unknown,
  draft: LocationDraft,
  at: string,
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
  dropped: Set<string>,
): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((ref, j) => addTech(draft, refText(ref), null, `${at}[${j}]`, techs, ctx));
    return;
  }
  if (!isPlainObject(value)) {
    ctx.problems.push({ path: at, message: "techs must be an object keyed by technology" });
    return;
  }
  for (const [ref, override] of Object.entries(value)) {
    let read: TechOverride | null = null;
    if (isPlainObject(override)) {
      read = {};
      if (isPlainObject(override["constraints"])) {
        const c = infinityRecord(override["constraints"]);
        if (Object.keys(c).length > 0) read.constraints = c;
      }
      if (isPlainObject(override["costs"])) {
        const c = infinityCosts(override["costs"]);
        if (Object.keys(c).length > 0) read.costs = c;
      }
      for (const key of Object.keys(override)) {
        if (key !== "constraints" && key !== "costs") dropped.add(`techs.*.${key}`);
      }
      if (read.constraints === undefined && read.costs === undefined) read = null;
    }
    addTech(draft, ref, read, `${at}.${ref}`, techs, ctx);
  }
}

function addTech(
  draft: LocationDraft,
  ref: string | undefined,
  override: TechOverride | null,
  at: string,
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
): void {
  const key = ref === undefined ? undefined : techs.index.lookup(ref);
  if (key === undefined) {
    ctx.problems.push({
      path: at,
      message: ref === undefined
        ? "a technology reference must be a name"
        : `"${ref}" names no technology of the model`,
    });
    return;
  }
  draft.techs.set(key, override);
}

/**
 * Demand technologies placed at no location go to every location that has a technology other
 * than transmission, as the frontend's runner did.
 */
export function placeUnlocatedDemand(
  drafts: readonly LocationDraft[],
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
): void {
  const demand = techs.technologies
    .map((t) => t["name"] as string)
    .filter((k) => techs.index.typeOf(k) === "demand");
  const unplaced = demand.filter((k) => !drafts.some((d) => d.techs.has(k)));
  if (unplaced.length === 0) return;
  const hosts = drafts.filter((d) =>
    [...d.techs.keys()].some((k) => techs.index.typeOf(k) !== "transmission")
  );
  for (const d of hosts) for (const k of unplaced) d.techs.set(k, null);
  ctx.notes.push(
    `demand technologies placed at no location (${unplaced.join(", ")}) were added to every ` +
      `location with technologies: ${hosts.map((d) => d.fields.id).join(", ") || "none"}`,
  );
}

/**
 * `location.demandProfile` (`{timeseries: kW[], dates: string[]}`, kept in the frontend's memory
 * only) as the series `demand_profiles` with one negated column per location, referenced from
 * each demand technology there as `file=demand_profiles.csv:<location>` with `force_resource`,
 * as the frontend's runner did. Profiles without dates are ignored with a note.
 */
export function applyDemandProfiles(
  list: unknown,
  drafts: readonly LocationDraft[],
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
): TimeSeries | undefined {
  if (!Array.isArray(list)) return undefined;
  let timestamps: string[] | undefined;
  const columns: Record<string, number[]> = {};
  list.forEach((raw, i) => {
    if (!isPlainObject(raw) || raw["demandProfile"] === undefined) return;
    const at = `locations[${i}].demandProfile`;
    const draft = drafts.find((d) =>
      d.fields.id === frontendKey(firstText(raw["id"], raw["name"]) ?? "")
    );
    if (draft === undefined) return;
    const profile = raw["demandProfile"];
    const values = isPlainObject(profile) ? profile["timeseries"] : undefined;
    const dates = isPlainObject(profile) ? profile["dates"] : undefined;
    const usable = Array.isArray(values) && values.length > 0 &&
      values.every((v) => typeof v === "number" && Number.isFinite(v)) &&
      Array.isArray(dates) && dates.length === values.length &&
      dates.every((d) => typeof d === "string");
    if (!usable) {
      ctx.notes.push(`${at} ignored: it has no timeseries with one date per value`);
      return;
    }
    if (timestamps !== undefined && !sameList(timestamps, dates as string[])) {
      ctx.problems.push({
        path: `${at}.dates`,
        message: "every location's demandProfile must cover the same dates",
      });
      return;
    }
    const demand = [...draft.techs.keys()].filter((k) => techs.index.typeOf(k) === "demand");
    if (demand.length === 0) {
      ctx.notes.push(`${at} ignored: location "${draft.fields.id}" has no demand technology`);
      return;
    }
    timestamps = dates as string[];
    // The profile is demand in kW (positive); Calliope's demand resource is negative.
    columns[draft.fields.id] = (values as number[]).map((v) => v === 0 ? 0 : -v);
    for (const k of demand) {
      const override = draft.techs.get(k) ?? {};
      override.constraints = {
        ...override.constraints,
        resource: `file=${DEMAND_PROFILES_ID}.csv:${draft.fields.id}`,
        force_resource: true,
      };
      draft.techs.set(k, override);
    }
  });
  if (timestamps === undefined) return undefined;
  ctx.notes.push(
    `demand profiles of ${Object.keys(columns).join(", ")} became the series ` +
      `"${DEMAND_PROFILES_ID}" (negated, as Calliope's demand resource)`,
  );
  return { id: DEMAND_PROFILES_ID, timestamps, columns };
}

/** The canonical location objects. */
export function finishLocations(drafts: readonly LocationDraft[]): Record<string, unknown>[] {
  return drafts.map((d) => ({
    ...d.fields,
    technologies: [...d.techs].map(([name, o]) => o === null ? name : { name, ...o }),
  }));
}

/** Coordinates from `lat`/`latitude`/`coordinates.lat` and `lon`/`lng`/`longitude`, 0 kept. */
function coordinatesOf(raw: Record<string, unknown>): Record<string, number> {
  const c = isPlainObject(raw["coordinates"]) ? raw["coordinates"] : {};
  const out: Record<string, number> = {};
  const lat = firstNumber(raw["lat"], raw["latitude"], c["lat"], c["latitude"]);
  const lon = firstNumber(
    raw["lon"],
    raw["lng"],
    raw["longitude"],
    c["lon"],
    c["lng"],
    c["longitude"],
  );
  if (lat !== undefined && lon !== undefined) {
    out["lat"] = lat;
    out["lon"] = lon;
  }
  const x = firstNumber(raw["x"], c["x"]);
  const y = firstNumber(raw["y"], c["y"]);
  if (lat === undefined && x !== undefined && y !== undefined) {
    out["x"] = x;
    out["y"] = y;
  }
  return out;
}

function firstNumber(...values: unknown[]): number | undefined {
  for (const v of values) {
    if (typeof v === "number" && Number.isFinite(v)) return v;
    if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  }
  return undefined;
}

function firstText(...values: unknown[]): string | undefined {
  for (const v of values) {
    if (typeof v === "string" && v.trim() !== "") return v;
    if (typeof v === "number") return String(v);
  }
  return undefined;
}

function refText(ref: unknown): string | undefined {
  if (typeof ref === "string") return ref;
  if (isPlainObject(ref)) return firstText(ref["name"], ref["id"], ref["tech"]);
  return undefined;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
