/**
 * A Calliope 0.6 model directory (model.yaml, its imports, `file=` CSV series) read into the
 * runner's ModelConfig. Scenarios and `-o` overrides are applied at the Calliope level first
 * (`preprocess/model_run.apply_overrides`), then tech_groups are flattened into each technology,
 * compact location keys exploded (`preprocess/locations.py`) and the referenced series read.
 * What the runner cannot solve (operate or spores mode, group-constraint families not built yet,
 * time clustering) is an error naming its Calliope path, never dropped.
 */
import { join } from "node:path";
import {
  CARRIER_KEYS,
  constraintsSchema,
  costsSchema,
  type ModelConfig,
  modelConfigSchema,
  NOT_IMPLEMENTED_KEYS,
  TECH_TYPES,
  type TechType,
} from "../model_config.ts";
import {
  dedupeProblems,
  formatPath,
  type ModelProblem,
  ModelValidationError,
  type ReportProblem as Report,
} from "../model_problem.ts";
import {
  type AttrDict,
  cloneAttr,
  dictAt,
  getKey,
  isAttrDict,
  readCalliopeYaml,
  toJson,
  union,
} from "./calliope_yaml.ts";
import { convertGroupConstraints } from "./calliope_group_constraints.ts";
import { checkRunAndModel, convertParameters } from "./calliope_run_settings.ts";
import { applyOverrides } from "./calliope_scenario.ts";
import { readReferencedSeries, timeseriesDir } from "./calliope_series.ts";

/** Options of {@link importCalliopeModel}. */
export interface CalliopeImportOptions {
  /** A name from `scenarios:`, or override names, comma-separated, applied in order. */
  readonly scenario?: string;
  /** Calliope-level overrides by dotted key (`model.subset_time: "2005-01-01"`), as `-o`. */
  readonly overrides?: Record<string, unknown>;
}

const CONSTRAINT_KEYS = new Set(Object.keys(constraintsSchema.shape));
const COST_KEYS = new Set(Object.keys(costsSchema.shape));
const UNIMPLEMENTED = new Set<string>(NOT_IMPLEMENTED_KEYS);

/**
 * Reads the Calliope 0.6 model in `dir` (its `model.yaml`, or `dir` itself when it names a YAML
 * file) into a ModelConfig, which is validated with {@link modelConfigSchema} before return.
 */
export async function importCalliopeModel(
  dir: string,
  options: CalliopeImportOptions = {},
): Promise<ModelConfig> {
  const modelFile = await findModelFile(dir);
  const config = await readCalliopeYaml(modelFile);
  const applied = applyOverrides(config, modelFile, options);
  const problems: ModelProblem[] = [];
  const model = convert(applied, problems);
  if (problems.length > 0) throw new ModelValidationError(dedupeProblems(problems));
  const tsDir = timeseriesDir(applied, modelFile);
  model.timeSeries = await readReferencedSeries(model, tsDir);
  const parsed = modelConfigSchema.safeParse(model);
  if (!parsed.success) {
    throw new ModelValidationError(
      parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })),
    );
  }
  return parsed.data;
}

async function findModelFile(dir: string): Promise<string> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch {
    throw new Deno.errors.NotFound(`Cannot read Calliope model "${dir}": no such directory`);
  }
  return info.isDirectory ? join(dir, "model.yaml") : dir;
}

// ---------------------------------------------------------------------------------------------
// Conversion

function convert(config: AttrDict, problems: ModelProblem[]): ModelConfig {
  const problem = (path: string, message: string) => problems.push({ path, message });
  checkRunAndModel(config, problem);

  const techsIn = dictAt(config, "techs");
  const groupsIn = dictAt(config, "tech_groups");
  const technologies: Record<string, unknown>[] = [];
  const techNames = new Set<string>();
  for (const [name, raw] of Object.entries(techsIn)) {
    if (!isAttrDict(raw)) {
      problem(`techs.${name}`, "a technology must be a mapping with essentials.parent");
      continue;
    }
    if (raw["exists"] === false) continue;
    const tech = flattenTechnology(name, raw, groupsIn, problem);
    if (tech) {
      technologies.push(tech);
      techNames.add(name);
    }
  }
  const removedTechs = new Set(
    Object.entries(techsIn).filter(([, t]) => isAttrDict(t) && t["exists"] === false).map((
      [n],
    ) => n),
  );

  const { locations, removedLocations } = convertLocations(
    dictAt(config, "locations"),
    techNames,
    removedTechs,
    problem,
  );
  const locationIds = new Set(locations.map((l) => String(l["id"])));
  const links = convertLinks(
    dictAt(config, "links"),
    locationIds,
    removedLocations,
    techNames,
    removedTechs,
    problem,
  );

  const model: Record<string, unknown> = {
    name: typeof getKey(config, "model.name") === "string"
      ? getKey(config, "model.name")
      : "Unnamed model",
    locations,
    links,
    technologies,
    timeSeries: [],
    parameters: convertParameters(config, problem),
  };
  const groupConstraints = convertGroupConstraints(
    config,
    { known: techNames, removed: removedTechs },
    { known: locationIds, removed: removedLocations },
    problem,
  );
  if (groupConstraints !== undefined) model["groupConstraints"] = groupConstraints;
  return model as unknown as ModelConfig;
}

/** Checks constraint and cost keys against what the runner implements, at Calliope paths. */
function checkSettings(settings: AttrDict, path: string, problem: Report): void {
  for (const key of Object.keys(dictAt(settings, "constraints"))) {
    const at = `${path}.constraints.${key}`;
    if (UNIMPLEMENTED.has(key)) problem(at, `"${key}" is not implemented by the runner`);
    else if (!CONSTRAINT_KEYS.has(key)) problem(at, `unknown or unsupported constraint "${key}"`);
  }
  for (const [costClass, costs] of Object.entries(dictAt(settings, "costs"))) {
    if (!isAttrDict(costs)) {
      problem(`${path}.costs.${costClass}`, "a cost class must be a mapping of cost keys");
      continue;
    }
    for (const key of Object.keys(costs)) {
      const at = `${path}.costs.${costClass}.${key}`;
      if (!COST_KEYS.has(key)) problem(at, `unknown or unsupported cost "${key}"`);
    }
  }
}

function flattenTechnology(
  name: string,
  tech: AttrDict,
  groups: AttrDict,
  problem: Report,
): Record<string, unknown> | undefined {
  // Inheritance chain: the tech's parent, its parent, ... up to a built-in group.
  const chain: string[] = [];
  let parent = getKey(tech, "essentials.parent");
  let at = `techs.${name}.essentials.parent`;
  while (true) {
    if (typeof parent !== "string") {
      problem(at, "a parent (a built-in group such as supply, or a tech_group) is required");
      return undefined;
    }
    if ((TECH_TYPES as readonly string[]).includes(parent)) break;
    if (chain.includes(parent)) {
      problem(at, `tech_group "${parent}" inherits from itself`);
      return undefined;
    }
    const group = groups[parent];
    if (!isAttrDict(group)) {
      problem(at, `unknown parent "${parent}": not a built-in group nor a tech_group`);
      return undefined;
    }
    chain.push(parent);
    at = `tech_groups.${parent}.essentials.parent`;
    parent = getKey(group, "essentials.parent");
  }
  const type = parent as TechType;

  const merged: AttrDict = {};
  for (const group of [...chain].reverse()) {
    const settings = cloneAttr(groups[group] as AttrDict);
    checkSettings(settings, `tech_groups.${group}`, problem);
    union(merged, settings, { allowOverride: true });
  }
  checkSettings(tech, `techs.${name}`, problem);
  union(merged, cloneAttr(tech), { allowOverride: true });

  for (const key of Object.keys(merged)) {
    if (!["essentials", "constraints", "costs", "exists"].includes(key)) {
      problem(`techs.${name}.${key}`, `unknown technology setting "${key}"`);
    }
  }
  const essentials = dictAt(merged, "essentials");
  const out: Record<string, unknown> = { name, type };
  for (const key of CARRIER_KEYS) {
    const v = essentials[key];
    if (v !== undefined && v !== null) out[key] = toJson(v);
  }
  for (const key of Object.keys(essentials)) {
    if (
      !(CARRIER_KEYS as readonly string[]).includes(key) &&
      !["name", "color", "parent", "stack_weight"].includes(key)
    ) {
      problem(`techs.${name}.essentials.${key}`, `unknown essentials key "${key}"`);
    }
  }
  const display: Record<string, string> = {};
  if (essentials["name"] !== undefined && essentials["name"] !== null) {
    display["name"] = String(essentials["name"]);
  }
  if (essentials["color"] !== undefined && essentials["color"] !== null) {
    display["color"] = String(essentials["color"]);
  }
  if (Object.keys(display).length > 0) out["essentials"] = display;
  const constraints = dictAt(merged, "constraints");
  if (Object.keys(constraints).length > 0) out["constraints"] = toJson(constraints);
  const costs = dictAt(merged, "costs");
  if (Object.keys(costs).length > 0) out["costs"] = toJson(costs);
  return out;
}

/** `a,b`, `1--3` and mixes (`1--3,6,a`) exploded into location ids (`explode_locations`). */
export function explodeLocationKey(key: string): string[] {
  const out: string[] = [];
  for (const part of key.split(",")) {
    const range = part.split("--");
    if (range.length === 2) {
      const begin = Number.parseInt(range[0]!.trim(), 10);
      const end = Number.parseInt(range[1]!.trim(), 10);
      if (!Number.isInteger(begin) || !Number.isInteger(end) || end < begin) {
        throw new RangeError(`location key "${key}": "${part}" is not a range like 1--3`);
      }
      for (let i = begin; i <= end; i++) out.push(String(i));
    } else {
      out.push(part.trim());
    }
  }
  if (out.length === 0 || out.every((k) => k === "")) {
    throw new RangeError(`location key "${key}" is empty`);
  }
  return out;
}

function convertLocations(
  locationsIn: AttrDict,
  techNames: Set<string>,
  removedTechs: Set<string>,
  problem: Report,
): { locations: Record<string, unknown>[]; removedLocations: Set<string> } {
  // Explode compact keys and merge in file order (Calliope's _set_loc_key).
  const merged = new Map<string, AttrDict>();
  for (const [key, value] of Object.entries(locationsIn)) {
    if (!isAttrDict(value) || Object.keys(value).length === 0) {
      if (value !== null && !isAttrDict(value)) {
        problem(`locations.${key}`, "a location must be a mapping");
      }
      continue;
    }
    let ids: string[];
    try {
      ids = key.includes(",") || key.includes("--") ? explodeLocationKey(key) : [key];
    } catch (error) {
      problem(`locations.${key}`, (error as Error).message);
      continue;
    }
    for (const id of ids) {
      const current = merged.get(id);
      if (!current) merged.set(id, cloneAttr(value));
      else {
        try {
          union(current, cloneAttr(value));
        } catch (error) {
          problem(`locations.${key}`, `at location ${id}: ${(error as Error).message}`);
        }
      }
    }
  }
  const locations: Record<string, unknown>[] = [];
  const removedLocations = new Set<string>();
  for (const [id, loc] of merged) {
    if (loc["exists"] === false) {
      removedLocations.add(id);
      continue;
    }
    const path = `locations.${id}`;
    const out: Record<string, unknown> = { id };
    for (const key of Object.keys(loc)) {
      if (!["coordinates", "techs", "available_area", "exists"].includes(key)) {
        problem(`${path}.${key}`, `location setting "${key}" is not supported by the runner`);
      }
    }
    const coords = loc["coordinates"];
    if (coords !== undefined && coords !== null) {
      if (!isAttrDict(coords)) problem(`${path}.coordinates`, "coordinates must be a mapping");
      else {
        for (const [k, v] of Object.entries(coords)) {
          if (!["lat", "lon", "x", "y"].includes(k)) {
            problem(`${path}.coordinates.${k}`, "coordinates are {lat, lon} or {x, y}");
          } else if (typeof v !== "number") {
            problem(`${path}.coordinates.${k}`, "a coordinate must be a number");
          } else out[k] = v;
        }
      }
    }
    const area = loc["available_area"];
    if (area !== undefined && area !== null) out["available_area"] = toJson(area);
    const technologies: unknown[] = [];
    for (const [techName, settings] of Object.entries(dictAt(loc, "techs"))) {
      const at = `${path}.techs.${techName}`;
      if (removedTechs.has(techName)) continue;
      if (!techNames.has(techName)) {
        problem(at, `technology "${techName}" is not defined under techs`);
        continue;
      }
      if (settings === null || (isAttrDict(settings) && Object.keys(settings).length === 0)) {
        technologies.push(techName);
        continue;
      }
      if (!isAttrDict(settings)) {
        problem(at, "a technology at a location is null or a mapping of constraints and costs");
        continue;
      }
      if (settings["exists"] === false) continue;
      checkSettings(settings, at, problem);
      const entry: Record<string, unknown> = { name: techName };
      for (const key of Object.keys(settings)) {
        if (!["constraints", "costs", "exists"].includes(key)) {
          problem(`${at}.${key}`, `"${key}" cannot be set per location`);
        }
      }
      // Calliope drops *_systemwide keys from per-location settings (cleanup_undesired_keys).
      const constraints = Object.fromEntries(
        Object.entries(dictAt(settings, "constraints")).filter(([k]) => !k.endsWith("_systemwide")),
      );
      if (Object.keys(constraints).length > 0) entry["constraints"] = toJson(constraints);
      const costs = dictAt(settings, "costs");
      if (Object.keys(costs).length > 0) entry["costs"] = toJson(costs);
      technologies.push(Object.keys(entry).length === 1 ? techName : entry);
    }
    out["technologies"] = technologies;
    locations.push(out);
  }
  return { locations, removedLocations };
}

function convertLinks(
  linksIn: AttrDict,
  locationIds: Set<string>,
  removedLocations: Set<string>,
  techNames: Set<string>,
  removedTechs: Set<string>,
  problem: Report,
): Record<string, unknown>[] {
  const links: Record<string, unknown>[] = [];
  for (const [key, link] of Object.entries(linksIn)) {
    const path = `links.${key}`;
    const ends = key.split(",").map((s) => s.trim());
    if (ends.length !== 2 || !ends[0] || !ends[1]) {
      problem(path, "a link key is two location ids separated by a comma");
      continue;
    }
    const [source, target] = ends as [string, string];
    if (!isAttrDict(link) || link["exists"] === false) continue;
    if (removedLocations.has(source) || removedLocations.has(target)) continue;
    for (const end of ends) {
      if (!locationIds.has(end)) problem(path, `location "${end}" is not defined`);
    }
    for (const key2 of Object.keys(link)) {
      if (key2 !== "techs" && key2 !== "exists") {
        problem(`${path}.${key2}`, `link setting "${key2}" is not supported`);
      }
    }
    for (const [techName, settings] of Object.entries(dictAt(link, "techs"))) {
      const at = `${path}.techs.${techName}`;
      if (removedTechs.has(techName)) continue;
      if (!techNames.has(techName)) {
        problem(at, `technology "${techName}" is not defined under techs`);
        continue;
      }
      const out: Record<string, unknown> = { source, target, technology: techName };
      if (isAttrDict(settings)) {
        if (settings["exists"] === false) continue;
        checkSettings(settings, at, problem);
        for (const k of Object.keys(settings)) {
          if (!["constraints", "costs", "distance", "exists"].includes(k)) {
            problem(`${at}.${k}`, `"${k}" cannot be set on a link`);
          }
        }
        const distance = settings["distance"];
        if (distance !== undefined && distance !== null) {
          if (typeof distance !== "number") problem(`${at}.distance`, "distance is a number");
          else out["distance"] = distance;
        }
        const constraints = dictAt(settings, "constraints");
        if (Object.keys(constraints).length > 0) out["constraints"] = toJson(constraints);
        const costs = dictAt(settings, "costs");
        if (Object.keys(costs).length > 0) out["costs"] = toJson(costs);
      } else if (settings !== null) {
        problem(at, "a link technology is null or a mapping");
        continue;
      }
      links.push(out);
    }
  }
  return links;
}

// ---------------------------------------------------------------------------------------------
// Time series
