/**
 * A Calliope 0.6 model directory (model.yaml, its imports, `file=` CSV series) read into the
 * runner's ModelConfig. Scenarios and `-o` overrides are applied at the Calliope level first
 * (`preprocess/model_run.apply_overrides`), then tech_groups are flattened into each technology,
 * compact location keys exploded (`preprocess/locations.py`) and the referenced series read.
 * What the runner cannot solve (operate or spores mode, group constraints, MILP keys, time
 * clustering) is an error naming its Calliope path, never dropped.
 */
import { dirname, isAbsolute, join } from "node:path";
import Papa from "papaparse";
import {
  constraintsSchema,
  costsSchema,
  MILP_ONLY_KEYS,
  type ModelConfig,
  modelConfigSchema,
  NOT_IMPLEMENTED_KEYS,
  TECH_TYPES,
  type TechType,
} from "./model_config.ts";
import { formatPath, type ModelProblem, ModelValidationError } from "./model_problem.ts";
import {
  type AttrDict,
  type AttrValue,
  cloneAttr,
  getKey,
  isAttrDict,
  keysNested,
  readCalliopeYaml,
  toAttrDict,
  union,
} from "./calliope_yaml.ts";
import { CARRIER_KEYS } from "./carriers.ts";

/** Options of {@link importCalliopeModel}. */
export interface CalliopeImportOptions {
  /** A name from `scenarios:`, or override names, comma-separated, applied in order. */
  readonly scenario?: string;
  /** Calliope-level overrides by dotted key (`model.subset_time: "2005-01-01"`), as `-o`. */
  readonly overrides?: Record<string, unknown>;
}

const CONSTRAINT_KEYS = new Set(Object.keys(constraintsSchema.shape));
const COST_KEYS = new Set(Object.keys(costsSchema.shape));
const MILP_KEYS = new Set<string>(MILP_ONLY_KEYS);
const UNIMPLEMENTED = new Set<string>(NOT_IMPLEMENTED_KEYS);
/** Keys of `run:` that only steer Calliope's own solver call, not the model. */
const RUN_KEYS_IGNORED = new Set([
  "solver",
  "solver_io",
  "solver_options",
  "zero_threshold",
  "save_logs",
  "backend",
]);
const MODEL_KEYS_IGNORED = new Set(["calliope_version", "random_seed", "file_allowed"]);

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
  if (problems.length > 0) throw new ModelValidationError(dedupe(problems));
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

function dedupe(problems: ModelProblem[]): ModelProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
// Overrides and scenarios (Calliope's apply_overrides)

function applyOverrides(
  config: AttrDict,
  modelFile: string,
  options: CalliopeImportOptions,
): AttrDict {
  const result = cloneAttr(config);
  const overrideDict = options.overrides ? toAttrDict(options.overrides) : undefined;
  // Twice, as Calliope does: before the scenario (so it can redefine scenarios) and after it.
  if (overrideDict) union(result, overrideDict, { allowOverride: true, allowReplacement: true });
  if (options.scenario) {
    const names = overridesOfScenario(result, options.scenario, modelFile, []);
    const overrides = isAttrDict(result["overrides"]) ? result["overrides"] : {};
    const combined: AttrDict = {};
    for (const name of names) {
      const group = overrides[name];
      if (!isAttrDict(group)) {
        throw new RangeError(
          `${modelFile}: scenario "${options.scenario}": override "${name}" is not defined ` +
            `(overrides: ${Object.keys(overrides).join(", ") || "none"}; scenarios: ${
              Object.keys(isAttrDict(result["scenarios"]) ? result["scenarios"] : {}).join(", ") ||
              "none"
            })`,
        );
      }
      try {
        union(combined, group);
      } catch (error) {
        if (error instanceof RangeError) {
          throw new RangeError(
            `${modelFile}: ${error.message}. Already specified but defined again in override "${name}"`,
          );
        }
        throw error;
      }
    }
    union(result, combined, { allowOverride: true, allowReplacement: true });
  }
  if (overrideDict) union(result, overrideDict, { allowOverride: true, allowReplacement: true });
  return result;
}

/** Override names of a scenario, nested scenarios expanded, each once, in order. */
function overridesOfScenario(
  config: AttrDict,
  scenario: string,
  modelFile: string,
  seen: string[],
): string[] {
  const scenarios = isAttrDict(config["scenarios"]) ? config["scenarios"] : {};
  let list: AttrValue[];
  if (Object.hasOwn(scenarios, scenario)) {
    if (seen.includes(scenario)) {
      throw new RangeError(`${modelFile}: scenario "${scenario}" refers to itself`);
    }
    const entry = scenarios[scenario] ?? null;
    list = Array.isArray(entry) ? entry : [entry];
  } else {
    list = scenario.split(",").map((s) => s.trim()).filter((s) => s !== "");
  }
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== "string") {
      throw new TypeError(
        `${modelFile}: scenario "${scenario}" must be a list of override or scenario names`,
      );
    }
    const names = Object.hasOwn(scenarios, item) && item !== scenario
      ? overridesOfScenario(config, item, modelFile, [...seen, scenario])
      : [item];
    for (const n of names) if (!out.includes(n)) out.push(n);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Conversion

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A YAML value as ModelConfig JSON: ±Infinity (from `.inf`) becomes "inf" / "-inf". */
function toJson(value: AttrValue): Json {
  if (typeof value === "number") {
    if (value === Infinity) return "inf";
    if (value === -Infinity) return "-inf";
    return value;
  }
  if (Array.isArray(value)) return value.map(toJson);
  if (isAttrDict(value)) {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJson(v);
    return out;
  }
  return value;
}

function dictAt(dict: AttrDict, key: string): AttrDict {
  const v = getKey(dict, key);
  return isAttrDict(v) ? v : {};
}

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
  return model as unknown as ModelConfig;
}

type Report = (path: string, message: string) => void;

function checkRunAndModel(config: AttrDict, problem: Report): void {
  const mode = getKey(config, "run.mode");
  if (mode !== undefined && mode !== null && mode !== "plan") {
    problem("run.mode", `run mode "${String(mode)}" is not supported: the runner solves plan mode`);
  }
  const groups = getKey(config, "group_constraints");
  if (isAttrDict(groups) && Object.keys(groups).length > 0) {
    problem(
      "group_constraints",
      `group constraints (${Object.keys(groups).join(", ")}) are not supported by the runner`,
    );
  }
  const objective = getKey(config, "run.objective");
  if (objective !== undefined && objective !== null && objective !== "minmax_cost_optimization") {
    problem(
      "run.objective",
      `objective "${String(objective)}" is not supported (only minmax_cost_optimization)`,
    );
  }
  const sense = getKey(config, "run.objective_options.sense");
  if (sense !== undefined && sense !== null && sense !== "minimize" && sense !== "minimise") {
    problem("run.objective_options.sense", `objective sense "${String(sense)}" is not supported`);
  }
  const known = new Set([
    "mode",
    "ensure_feasibility",
    "bigM",
    "cyclic_storage",
    "objective",
    "objective_options",
  ]);
  for (const key of Object.keys(dictAt(config, "run"))) {
    if (!known.has(key) && !RUN_KEYS_IGNORED.has(key)) {
      problem(`run.${key}`, `run setting "${key}" is not supported by the runner`);
    }
  }
  for (const key of Object.keys(dictAt(config, "run.objective_options"))) {
    if (key !== "cost_class" && key !== "sense") {
      problem(`run.objective_options.${key}`, `objective option "${key}" is not supported`);
    }
  }
  const modelKnown = new Set(["name", "timeseries_data_path", "subset_time", "time"]);
  for (const key of Object.keys(dictAt(config, "model"))) {
    if (!modelKnown.has(key) && !MODEL_KEYS_IGNORED.has(key) && key !== "timeseries_dateformat") {
      problem(`model.${key}`, `model setting "${key}" is not supported by the runner`);
    }
  }
}

/** Checks constraint and cost keys against what the runner implements, at Calliope paths. */
function checkSettings(settings: AttrDict, path: string, problem: Report): void {
  for (const key of Object.keys(dictAt(settings, "constraints"))) {
    const at = `${path}.constraints.${key}`;
    if (MILP_KEYS.has(key)) {
      problem(at, `"${key}" makes the model a MILP; the runner solves linear programs only`);
    } else if (UNIMPLEMENTED.has(key)) problem(at, `"${key}" is not implemented by the runner`);
    else if (!CONSTRAINT_KEYS.has(key)) problem(at, `unknown or unsupported constraint "${key}"`);
  }
  for (const [costClass, costs] of Object.entries(dictAt(settings, "costs"))) {
    if (!isAttrDict(costs)) {
      problem(`${path}.costs.${costClass}`, "a cost class must be a mapping of cost keys");
      continue;
    }
    for (const key of Object.keys(costs)) {
      const at = `${path}.costs.${costClass}.${key}`;
      if (MILP_KEYS.has(key)) {
        problem(at, `"${key}" makes the model a MILP; the runner solves linear programs only`);
      } else if (!COST_KEYS.has(key)) problem(at, `unknown or unsupported cost "${key}"`);
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

/** Hours of a pandas frequency such as `6H`, `30min`, `15T`, `1D`. */
export function resolutionHours(freq: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)?\s*(H|h|T|min|D|d)\s*$/.exec(freq);
  if (!m) return undefined;
  const n = m[1] === undefined ? 1 : Number(m[1]);
  const unit = m[2];
  if (unit === "H" || unit === "h") return n;
  if (unit === "D" || unit === "d") return n * 24;
  return n / 60;
}

function convertParameters(config: AttrDict, problem: Report): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const subset = getKey(config, "model.subset_time");
  if (typeof subset === "string" || typeof subset === "number") params["subset_time"] = `${subset}`;
  else if (Array.isArray(subset)) {
    if (
      subset.length === 2 && subset.every((s) => typeof s === "string" || typeof s === "number")
    ) {
      params["subset_time"] = subset.map(String);
    } else problem("model.subset_time", "subset_time is a date or a [start, end] pair");
  } else if (subset !== undefined && subset !== null) {
    problem("model.subset_time", "subset_time is a date or a [start, end] pair");
  }
  const time = getKey(config, "model.time");
  if (time !== undefined && time !== null) {
    const fn = isAttrDict(time) ? time["function"] : undefined;
    const extra = isAttrDict(time)
      ? Object.keys(time).filter((k) => k !== "function" && k !== "function_options")
      : [];
    const freq = getKey(isAttrDict(time) ? time : {}, "function_options.resolution");
    const hours = typeof freq === "string" ? resolutionHours(freq) : undefined;
    if (fn !== "resample" || extra.length > 0) {
      problem(
        "model.time",
        `time function "${String(fn)}"${
          extra.length > 0 ? ` with ${extra.join(", ")}` : ""
        } is not supported: only resampling (function: resample) is`,
      );
    } else if (hours === undefined || !(hours > 0)) {
      problem("model.time.function_options.resolution", `cannot read resolution "${freq}"`);
    } else params["time_resolution_h"] = hours;
  }
  const flag = (key: string, name: string) => {
    const v = getKey(config, key);
    if (v === undefined || v === null) return;
    if (typeof v !== "boolean") problem(key, `${name} must be true or false`);
    else params[name] = v;
  };
  flag("run.ensure_feasibility", "ensure_feasibility");
  flag("run.cyclic_storage", "cyclic_storage");
  const bigM = getKey(config, "run.bigM");
  if (bigM !== undefined && bigM !== null) {
    const n = typeof bigM === "string" ? Number(bigM) : bigM;
    if (typeof n !== "number" || !Number.isFinite(n)) problem("run.bigM", "bigM must be a number");
    else params["bigM"] = n;
  }
  const costClass = getKey(config, "run.objective_options.cost_class");
  if (costClass !== undefined && costClass !== null) {
    if (!isAttrDict(costClass) || Object.values(costClass).some((v) => typeof v !== "number")) {
      problem("run.objective_options.cost_class", "cost_class maps cost classes to weights");
    } else params["objective_cost_class"] = { ...costClass };
  }
  const overrides = getKey(config, "overrides");
  if (isAttrDict(overrides) && Object.keys(overrides).length > 0) {
    // Kept as dotted keys per group, so the exporter can write them back unchanged.
    const flat: Record<string, Record<string, Json>> = {};
    for (const [name, group] of Object.entries(overrides)) {
      if (!isAttrDict(group)) continue;
      const entries: Record<string, Json> = {};
      for (const key of keysNested(group)) entries[key] = toJson(getKey(group, key) ?? null);
      flat[name] = entries;
    }
    params["overrides"] = flat;
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// Time series

function timeseriesDir(config: AttrDict, modelFile: string): string {
  const path = getKey(config, "model.timeseries_data_path");
  const dir = typeof path === "string" ? path : ".";
  return isAbsolute(dir) ? dir : join(dirname(modelFile), dir);
}

const FILE_REFERENCE = /^file=([^:]+)(?::(.+))?$/;

/** Every `file=` name referenced by a value of the model, in first-seen order. */
function referencedFiles(model: ModelConfig): string[] {
  const files: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      const m = FILE_REFERENCE.exec(value.trim());
      if (m && !files.includes(m[1]!)) files.push(m[1]!);
      else if (value.startsWith("df=")) {
        throw new TypeError(`"${value}": df= references (Python dataframes) are not supported`);
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(model.technologies);
  walk(model.locations);
  walk(model.links);
  return files;
}

async function readReferencedSeries(model: ModelConfig, dir: string) {
  const series = [];
  for (const file of referencedFiles(model)) {
    series.push(await readSeriesFile(join(dir, file), file.replace(/\.csv$/i, "")));
  }
  return series;
}

/** `2005-01-01 00:00[:00]` (or with `T`, or a bare date) as `2005-01-01T00:00:00`. */
export function isoTimestamp(text: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?$/.exec(
    text.trim(),
  );
  if (!m) return undefined;
  return `${m[1]}T${m[2] ?? "00"}:${m[3] ?? "00"}:${m[4] ?? "00"}`;
}

/** Reads a Calliope time-series CSV (first column the timestamps) into a timeSeries entry. */
export async function readSeriesFile(
  path: string,
  id: string,
): Promise<{ id: string; timestamps: string[]; columns: Record<string, number[]> }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`Cannot read time series "${path}": no such file`);
    }
    throw error;
  }
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  const rows = parsed.data;
  const header = rows[0];
  if (!header || header.length < 2) {
    throw new SyntaxError(`${path}: a time series needs a header of timestamp and value columns`);
  }
  const names = header.slice(1).map((h) => h.trim());
  const timestamps: string[] = [];
  const columns: Record<string, number[]> = {};
  for (const name of names) columns[name] = [];
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!;
    const stamp = isoTimestamp(row[0] ?? "");
    if (!stamp) throw new SyntaxError(`${path}:${r + 1}: cannot read timestamp "${row[0]}"`);
    timestamps.push(stamp);
    names.forEach((name, c) => {
      const cell = (row[c + 1] ?? "").trim();
      const value = Number(cell);
      if (cell === "" || Number.isNaN(value)) {
        throw new SyntaxError(`${path}:${r + 1}: column "${name}": "${cell}" is not a number`);
      }
      // -0 (as in "-0.0") is 0: keeps series equal after a CSV round trip.
      columns[name]!.push(value === 0 ? 0 : value);
    });
  }
  if (timestamps.length === 0) throw new SyntaxError(`${path}: no rows`);
  return { id, timestamps, columns };
}
