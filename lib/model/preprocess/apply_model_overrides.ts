/**
 * `parameters.scenario`: named Calliope override groups (`parameters.overrides`) applied, in
 * order, to a ModelConfig. A group holds Calliope keys, nested or dotted (as Calliope's
 * AttrDict reads them): `techs.T.constraints.K`, `techs.T.costs.C.K`, `techs.T.essentials.name`,
 * `locations.L.techs.T[...]`, `locations.L.available_area`, `links.A,B.techs.T[...]`,
 * `model.subset_time`, `model.name`, `model.time...`, `model.random_seed`, `run.ensure_feasibility`,
 * `run.bigM`, `run.cyclic_storage`, `run.objective`, `run.objective_options.cost_class`,
 * `run.objective_options.sense`, `run.zero_threshold`, `run.solver_options.mipgap`,
 * `run.relax_constraint.demand_share_per_timestep_decision_main_constraint`. Any other key is a
 * problem naming it, never ignored.
 */
import type {
  Link,
  Location,
  LocationTechnology,
  ModelConfig,
  Parameters,
  Technology,
} from "../model_config.ts";
import { type ModelProblem, ModelValidationError } from "../model_problem.ts";
import { parseModelConfig } from "../parse_model_config.ts";
import { didYouMean } from "../key_suggestions.ts";

type Json = Record<string, unknown>;

/** One leaf of an override group: its Calliope key split at dots, and its value. */
interface Leaf {
  readonly parts: readonly string[];
  readonly value: unknown;
  /** `parameters.overrides.NAME.KEY` as written. */
  readonly path: string;
}

const MAX_DEPTH = 32;

/** The override names `parameters.scenario` lists (a list or a comma-separated string). */
export function scenarioNames(scenario: string | readonly string[] | undefined): string[] {
  if (scenario === undefined) return [];
  const list = typeof scenario === "string" ? scenario.split(",") : scenario;
  return list.map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * The config with the scenario's override groups applied and `parameters.scenario` removed (so
 * applying twice is harmless). Throws ModelValidationError listing every unusable key.
 */
export function applyScenario(config: ModelConfig): ModelConfig {
  const names = scenarioNames(config.parameters.scenario);
  if (names.length === 0) return config;
  // Overrides are read, never written: leave them out of the copy (they may nest deeply).
  const { overrides: _, scenario: __, ...params } = config.parameters;
  const out = structuredClone({ ...config, parameters: params }) as ModelConfig;
  if (config.parameters.overrides) out.parameters.overrides = config.parameters.overrides;
  const problems: ModelProblem[] = [];
  const written: { configPath: string; overridePath: string }[] = [];
  const overrides = config.parameters.overrides ?? {};
  for (const name of names) {
    const group = Object.hasOwn(overrides, name) ? overrides[name] : undefined;
    if (group === undefined) {
      problems.push({
        path: "parameters.scenario",
        message: `override "${name}" is not defined in parameters.overrides${
          didYouMean(name, Object.keys(overrides))
        }`,
      });
      continue;
    }
    const leaves: Leaf[] = [];
    flatten(group, [], `parameters.overrides.${name}`, leaves, problems, 0);
    for (const leaf of leaves) {
      const target = safeApplyLeaf(out, leaf);
      if (typeof target === "string") written.push({ configPath: target, overridePath: leaf.path });
      else problems.push(target);
    }
  }
  if (problems.length > 0) throw new ModelValidationError(problems);
  // The result must still be a valid ModelConfig; map problems back to the override keys.
  const parsed = parseModelConfig(out);
  if (!parsed.ok) {
    throw new ModelValidationError(parsed.problems.map((p) => {
      const w = written.find((x) =>
        p.path === x.configPath || p.path.startsWith(`${x.configPath}.`) ||
        p.path.startsWith(`${x.configPath}[`)
      );
      if (!w) return p;
      // A problem deeper than the key written names where (e.g. function_options.how).
      const below = p.path.slice(w.configPath.length).replace(/^\./, "");
      return { path: w.overridePath, message: below === "" ? p.message : `${below}: ${p.message}` };
    }));
  }
  delete parsed.config.parameters.scenario;
  return parsed.config;
}

function isPlainObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function flatten(
  value: unknown,
  parts: string[],
  path: string,
  out: Leaf[],
  problems: ModelProblem[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) {
    problems.push({ path, message: "override nested too deeply" });
    return;
  }
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) {
      flatten(v, [...parts, ...k.split(".")], `${path}.${k}`, out, problems, depth + 1);
    }
    return;
  }
  out.push({ parts, value, path });
}

function unsupported(leaf: Leaf, why = ""): ModelProblem {
  return {
    path: leaf.path,
    message: `override key "${leaf.parts.join(".")}" is not supported by the runner${why}`,
  };
}

function safeApplyLeaf(config: ModelConfig, leaf: Leaf): string | ModelProblem {
  try {
    return applyLeaf(config, leaf);
  } catch (e) {
    // structuredClone of a value nested beyond the stack: a bad request, not a crash.
    if (e instanceof RangeError) return { path: leaf.path, message: "value nested too deeply" };
    throw e;
  }
}

/** Applies one leaf; returns the config path written, or a problem. */
function applyLeaf(config: ModelConfig, leaf: Leaf): string | ModelProblem {
  const [section, ...rest] = leaf.parts;
  switch (section) {
    case "techs":
      return applyTech(config, leaf, rest);
    case "locations":
      return applyLocation(config, leaf, rest);
    case "links":
      return applyLink(config, leaf, rest);
    case "model":
      return applyModel(config, leaf, rest);
    case "run":
      return applyRun(config, leaf, rest);
    default:
      return unsupported(leaf, " (group_constraints, scenarios and the like are not implemented)");
  }
}

function applyTech(
  config: ModelConfig,
  leaf: Leaf,
  rest: readonly string[],
): string | ModelProblem {
  const [name, kind, ...keys] = rest;
  if (name === undefined) return unsupported(leaf);
  const index = config.technologies.findIndex((t) => t.name === name);
  if (index < 0) {
    return {
      path: leaf.path,
      message: `unknown technology "${name}"${
        didYouMean(name, config.technologies.map((t) => t.name))
      }`,
    };
  }
  const tech = config.technologies[index]! as Technology & Json;
  const base = `technologies[${index}]`;
  if (kind === "constraints" || kind === "costs") {
    return setSettings(tech, kind, keys, leaf, base);
  }
  if (kind === "essentials" && keys.length === 1 && (keys[0] === "name" || keys[0] === "color")) {
    const essentials = (tech.essentials ??= {}) as Json;
    setOrDelete(essentials, keys[0], leaf.value);
    return `${base}.essentials.${keys[0]}`;
  }
  return unsupported(leaf);
}

/** Sets `constraints.K[...]` or `costs.C.K` in an object holding constraints and costs. */
function setSettings(
  holder: Json,
  kind: "constraints" | "costs",
  keys: readonly string[],
  leaf: Leaf,
  base: string,
): string | ModelProblem {
  const need = kind === "costs" ? 2 : 1;
  if (keys.length < need) return unsupported(leaf);
  if (kind === "costs" && keys.length !== 2) return unsupported(leaf);
  let obj = (holder[kind] ??= {}) as Json;
  for (const k of keys.slice(0, -1)) {
    if (!isPlainObject(obj[k])) obj[k] = {};
    obj = obj[k] as Json;
  }
  setOrDelete(obj, keys.at(-1)!, leaf.value);
  return `${base}.${kind}.${keys.join(".")}`;
}

function setOrDelete(obj: Json, key: string, value: unknown): void {
  if (value === null || value === undefined) delete obj[key];
  else obj[key] = structuredClone(value);
}

/** setOrDelete at a nested `path` of `obj`, creating the objects on the way. */
function setOrDeleteAt(obj: Json, path: readonly string[], value: unknown): void {
  let at = obj;
  for (const part of path.slice(0, -1)) {
    if (typeof at[part] !== "object" || at[part] === null) at[part] = {};
    at = at[part] as Json;
  }
  setOrDelete(at, path.at(-1)!, value);
}

/** `1--3,a` -> ["1", "2", "3", "a"] (Calliope's `explode_locations`). */
function explodeLocations(key: string): string[] {
  const out: string[] = [];
  for (const part of key.split(",")) {
    const range = /^\s*(\d+)--(\d+)\s*$/.exec(part);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      for (let i = a; i <= b && out.length < 10_000; i++) out.push(String(i));
    } else out.push(part.trim());
  }
  return out;
}

function applyLocation(
  config: ModelConfig,
  leaf: Leaf,
  rest: readonly string[],
): string | ModelProblem {
  const [key, kind, techName, sub, ...keys] = rest;
  if (key === undefined) return unsupported(leaf);
  let written = "";
  for (const id of explodeLocations(key)) {
    const index = config.locations.findIndex((l) => l.id === id);
    if (index < 0) {
      return {
        path: leaf.path,
        message: `unknown location "${id}"${didYouMean(id, config.locations.map((l) => l.id))}`,
      };
    }
    const loc = config.locations[index]! as Location;
    const base = `locations[${index}]`;
    if (kind === "available_area" && techName === undefined) {
      setOrDelete(loc as unknown as Json, "available_area", leaf.value);
      written = `${base}.available_area`;
    } else if (
      kind === "constraints" && techName === "available_area" && sub === undefined
    ) {
      setOrDelete(loc as unknown as Json, "available_area", leaf.value);
      written = `${base}.available_area`;
    } else if (kind === "techs" && techName !== undefined) {
      let ti = loc.technologies.findIndex((t) => techNameOf(t) === techName);
      if (ti < 0) {
        loc.technologies.push(techName);
        ti = loc.technologies.length - 1;
      }
      const tbase = `${base}.technologies[${ti}]`;
      if (sub === undefined) {
        // `locations.L.techs.T: null` only places the technology there.
        if (leaf.value !== null && !isPlainObject(leaf.value)) return unsupported(leaf);
        written = tbase;
        continue;
      }
      if (sub !== "constraints" && sub !== "costs") return unsupported(leaf);
      const entry = loc.technologies[ti]!;
      const obj: Json = typeof entry === "string" ? { name: entry } : entry as Json;
      loc.technologies[ti] = obj as LocationTechnology;
      const w = setSettings(obj, sub, keys, leaf, tbase);
      if (typeof w !== "string") return w;
      written = w;
    } else return unsupported(leaf);
  }
  return written;
}

function techNameOf(t: LocationTechnology): string {
  return typeof t === "string" ? t : t.name;
}

function linkTechs(link: Link): string[] {
  return typeof link.technology === "string" ? [link.technology] : [...link.technology];
}

function applyLink(
  config: ModelConfig,
  leaf: Leaf,
  rest: readonly string[],
): string | ModelProblem {
  const [pair, kind, techName, sub, ...keys] = rest;
  const ends = pair?.split(",").map((s) => s.trim());
  if (!ends || ends.length !== 2 || kind !== "techs" || techName === undefined) {
    return unsupported(leaf);
  }
  const [a, b] = ends as [string, string];
  const links = config.links;
  let index = links.findIndex((l) =>
    ((l.source === a && l.target === b) || (l.source === b && l.target === a)) &&
    linkTechs(l).includes(techName)
  );
  if (index < 0) {
    links.push({ source: a, target: b, technology: techName });
    index = links.length - 1;
  } else if (linkTechs(links[index]!).length > 1) {
    // The override concerns one technology of a shared link: give it a link of its own.
    const shared = links[index]!;
    shared.technology = linkTechs(shared).filter((t) => t !== techName);
    links.push({ ...structuredClone(shared), technology: techName });
    index = links.length - 1;
  }
  const link = links[index]! as Link & Json;
  const base = `links[${index}]`;
  if (sub === undefined) {
    if (leaf.value !== null && !isPlainObject(leaf.value)) return unsupported(leaf);
    return base;
  }
  if (sub === "distance" && keys.length === 0) {
    setOrDelete(link, "distance", leaf.value);
    return `${base}.distance`;
  }
  if (sub === "constraints" || sub === "costs") return setSettings(link, sub, keys, leaf, base);
  return unsupported(leaf);
}

/** Hours of a pandas frequency such as `6H`, `30min`, `1D`. */
export function frequencyHours(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)?\s*(h|hour|hours|t|min|d|day|days|s)\s*$/i.exec(text);
  if (!m) return undefined;
  const n = m[1] === undefined ? 1 : Number(m[1]);
  const unit = m[2]!.toLowerCase();
  const hours = unit.startsWith("h")
    ? n
    : unit === "t" || unit === "min"
    ? n / 60
    : unit.startsWith("d")
    ? n * 24
    : n / 3600;
  return hours > 0 ? hours : undefined;
}

function applyModel(
  config: ModelConfig,
  leaf: Leaf,
  rest: readonly string[],
): string | ModelProblem {
  const key = rest.join(".");
  switch (key) {
    case "name":
      if (typeof leaf.value !== "string") return { path: leaf.path, message: "expected a string" };
      config.name = leaf.value;
      return "name";
    case "subset_time":
      setOrDelete(config.parameters as Json, "subset_time", leaf.value);
      return "parameters.subset_time";
    case "random_seed":
      setOrDelete(config.parameters as Json, "random_seed", leaf.value);
      return "parameters.random_seed";
    default:
      if (rest[0] === "time" && rest.length > 1) return applyTime(config, leaf, rest.slice(1));
      if (rest.length === 2 && rest[0] === "reserve_margin") {
        const margins = { ...(config.parameters.reserve_margin ?? {}) } as Json;
        setOrDelete(margins, rest[1]!, leaf.value);
        config.parameters.reserve_margin = margins as Record<string, number>;
        return `parameters.reserve_margin.${rest[1]}`;
      }
      return unsupported(leaf);
  }
}

/**
 * A `model.time...` key merged into Calliope's `model.time` as the config holds it: plain
 * resampling as `time_resolution_h`, anything else as `parameters.time` (checked with the rest
 * of the config once every override is in).
 */
function applyTime(config: ModelConfig, leaf: Leaf, path: readonly string[]): string {
  const p = config.parameters;
  const time = (structuredClone(p.time) ??
    (p.time_resolution_h === undefined ? {} : {
      function: "resample",
      function_options: { resolution: `${p.time_resolution_h}H` },
    })) as Json;
  setOrDeleteAt(time, path, leaf.value);
  const options = time["function_options"] as Json | undefined;
  const plainResample = time["function"] === "resample" && time["masks"] === undefined &&
    Object.keys(options ?? {}).every((k) => k === "resolution");
  const hours = plainResample && typeof options?.["resolution"] === "string"
    ? frequencyHours(options["resolution"])
    : undefined;
  if (hours !== undefined) {
    delete (p as Json)["time"];
    p.time_resolution_h = hours;
    return "parameters.time_resolution_h";
  }
  delete p.time_resolution_h;
  (p as Json)["time"] = time;
  return "parameters.time";
}

function applyRun(config: ModelConfig, leaf: Leaf, rest: readonly string[]): string | ModelProblem {
  const key = rest.join(".");
  const p = config.parameters as Json;
  switch (key) {
    case "ensure_feasibility":
    case "bigM":
    case "cyclic_storage":
    case "objective":
    case "zero_threshold":
      setOrDelete(p, key, leaf.value);
      return `parameters.${key}`;
    case "mode":
      if (!["plan", "operate", "spores"].includes(String(leaf.value)) && leaf.value !== null) {
        return unsupported(
          leaf,
          ` (run mode ${JSON.stringify(leaf.value)}: plan, operate, spores)`,
        );
      }
      setOrDelete(p, key, leaf.value);
      return "parameters.mode";
    case "objective_options.sense": {
      // Calliope's British spellings are the same sense.
      const sense = leaf.value === "maximise"
        ? "maximize"
        : leaf.value === "minimise"
        ? "minimize"
        : leaf.value;
      setOrDelete(p, "objective_sense", sense);
      return "parameters.objective_sense";
    }
  }
  if (rest[0] === "operation" && rest.length === 2) {
    const operation = { ...(config.parameters.operation ?? {}) } as Json;
    setOrDelete(operation, rest[1]!, leaf.value);
    (p as Json)["operation"] = operation;
    return "parameters.operation";
  }
  if (rest[0] === "spores_options" && rest.length >= 2) {
    // Calliope's run.spores_options merged key by key (objective_cost_class as a whole or per class).
    const spores = structuredClone(config.parameters.spores ?? {}) as Json;
    setOrDeleteAt(spores, rest.slice(1), leaf.value);
    (p as Json)["spores"] = spores;
    return "parameters.spores";
  }
  if (rest[0] === "objective_options" && rest[1] === "cost_class") {
    const weights = { ...(config.parameters.objective_cost_class ?? { monetary: 1 }) } as Json;
    if (rest.length === 3) setOrDelete(weights, rest[2]!, leaf.value);
    else if (rest.length !== 2 || !isPlainObject(leaf.value)) return unsupported(leaf);
    config.parameters.objective_cost_class = weights as Record<string, number>;
    return "parameters.objective_cost_class";
  }
  if (key === "relax_constraint.demand_share_per_timestep_decision_main_constraint") {
    const relax = { ...(config.parameters.relax_constraint ?? {}) } as Json;
    setOrDelete(relax, rest[1]!, leaf.value);
    config.parameters.relax_constraint = relax as Parameters["relax_constraint"];
    return "parameters.relax_constraint";
  }
  if (key === "solver_options.mipgap") {
    // A MIP's stopping gap (the milp example's override sets it); other solver options are refused.
    const solver = { ...(config.parameters.solver ?? {}) } as Json;
    setOrDelete(solver, "mip_rel_gap", leaf.value);
    config.parameters.solver = solver as NonNullable<ModelConfig["parameters"]["solver"]>;
    return "parameters.solver.mip_rel_gap";
  }
  if (key === "mode" && leaf.value === "plan") return "parameters";
  return unsupported(leaf, key === "mode" ? " (plan mode only)" : "");
}
