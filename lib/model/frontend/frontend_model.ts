/**
 * The model JSON the existing modelling frontend really sends (research notes `tempo_client.md`
 * section 1) read into the canonical ModelConfig form, so both forms become one internal model
 * (issue 9 section 1). Decisions the reader takes are returned as notes; anything it cannot
 * place is a problem by JSON path of the submitted body, never silently ignored. The result
 * still has to pass `modelConfigSchema` (an unknown constraint key is reported there, at the
 * same index path).
 */
import { newFrontendContext } from "./frontend_context.ts";
import { isPlainObject } from "./frontend_infinity.ts";
import { readFrontendLinks } from "./frontend_links.ts";
import {
  applyDemandProfiles,
  finishLocations,
  placeUnlocatedDemand,
  readFrontendLocations,
} from "./frontend_locations.ts";
import { readFrontendParameters } from "./frontend_parameters.ts";
import { readFrontendSeries } from "./frontend_series.ts";
import { readFrontendTechnologies } from "./frontend_technologies.ts";
import type { ModelConfigInput } from "../model_config.ts";
import type { ModelProblem } from "../model_problem.ts";

/** What reading a frontend model gives. */
export type FrontendModelResult =
  | { ok: true; config: ModelConfigInput; notes: string[] }
  | { ok: false; problems: ModelProblem[] };

/** Top-level keys of the frontend's model that are read or knowingly dropped. */
const KNOWN_KEYS = new Set([
  "id",
  "name",
  "description",
  "createdAt",
  "updatedAt",
  "locations",
  "links",
  "parameters",
  "technologies",
  "timeSeries",
  "overrides",
  "scenarios",
  "metadata",
  "locationTechAssignments",
  "solver",
  "modelConfig",
]);

/**
 * True when `body` has a mark of the frontend's form: `parameters` as a list, a location with a
 * `techs` key, a link with `from`/`to`, or `modelConfig`, `metadata` or `locationTechAssignments`.
 * The canonical form has none of these.
 */
export function isFrontendModel(body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  if (Array.isArray(body["parameters"])) return true;
  if (["modelConfig", "metadata", "locationTechAssignments"].some((k) => k in body)) return true;
  const locations = body["locations"];
  if (Array.isArray(locations) && locations.some((l) => isPlainObject(l) && "techs" in l)) {
    return true;
  }
  const links = body["links"];
  return Array.isArray(links) && links.some((l) => isPlainObject(l) && ("from" in l || "to" in l));
}

/**
 * The frontend's model JSON as a canonical ModelConfig input, with notes on every decision
 * taken; or every problem found, by JSON path of `body`.
 */
export function readFrontendModel(body: unknown): FrontendModelResult {
  if (!isPlainObject(body)) {
    return { ok: false, problems: [{ path: "", message: "the model must be a JSON object" }] };
  }
  const ctx = newFrontendContext();
  const techs = readFrontendTechnologies(body["technologies"], ctx);
  const drafts = readFrontendLocations(
    body["locations"],
    body["locationTechAssignments"],
    techs,
    ctx,
  );
  const links = readFrontendLinks(body["links"], drafts, techs, ctx);
  placeUnlocatedDemand(drafts, techs, ctx);
  const profiles = applyDemandProfiles(body["locations"], drafts, techs, ctx);
  const read = readFrontendSeries(body["timeSeries"]);
  ctx.notes.push(...read.notes);
  ctx.problems.push(...read.problems);
  const timeSeries = [...read.series];
  if (profiles !== undefined) {
    if (timeSeries.some((s) => s.id === profiles.id)) {
      ctx.problems.push({
        path: "timeSeries",
        message: `a series "${profiles.id}" clashes with the one built from demandProfile`,
      });
    } else timeSeries.push(profiles);
  }
  const parameters = readFrontendParameters(body, ctx);

  const unknown = Object.keys(body).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0) {
    ctx.notes.push(`top-level keys dropped as frontend metadata: ${unknown.sort().join(", ")}`);
  }
  if (ctx.problems.length > 0) return { ok: false, problems: ctx.problems };

  const metadata = isPlainObject(body["metadata"]) ? body["metadata"] : {};
  const description = [body["description"], metadata["description"]]
    .find((d): d is string => typeof d === "string" && d !== "");
  const id = body["id"];
  const config = {
    ...(typeof id === "string" || typeof id === "number" ? { id } : {}),
    ...(typeof body["name"] === "string" && body["name"] !== "" ? { name: body["name"] } : {}),
    ...(description !== undefined ? { description } : {}),
    locations: finishLocations(drafts),
    links,
    technologies: techs.technologies,
    timeSeries,
    parameters,
  };
  // The values are still unchecked JSON (constraint keys, numbers): `modelConfigSchema` decides.
  return { ok: true, config: config as unknown as ModelConfigInput, notes: ctx.notes };
}
