/**
 * The frontend's `technologies` list read into canonical technologies (research notes
 * `tempo_client.md` section 1.5), with an index that resolves the many ways the frontend refers
 * to a technology (its key, `id`, `name`, the name lower-cased with `_`).
 */
import type { FrontendReadContext } from "./frontend_context.ts";
import { frontendKey } from "./frontend_ids.ts";
import { infinityCosts, infinityRecord, isPlainObject } from "./frontend_infinity.ts";
import { CARRIER_KEYS, TECH_TYPES, type TechType } from "../model_config.ts";

/** Frontend technology keys that carry model settings; every other key is frontend metadata. */
const USED_KEYS = new Set<string>([
  "name",
  "id",
  "parent",
  "type",
  "essentials",
  "constraints",
  "costs",
  "template",
  ...CARRIER_KEYS,
]);
const USED_ESSENTIALS = new Set<string>(["name", "color", "parent", ...CARRIER_KEYS]);

/** Used when a technology names no carrier, as the frontend's runner did. */
export const DEFAULT_CARRIER = "electricity";

/** Resolves frontend references to technology keys. */
export interface TechIndex {
  /** The canonical key of `ref`, or undefined when it names no technology. */
  lookup(ref: string): string | undefined;
  /** The type of the technology with key `key`. */
  typeOf(key: string): TechType | undefined;
}

/** Technologies read, as canonical objects (validated later by `modelConfigSchema`). */
export interface FrontendTechnologies {
  readonly technologies: Record<string, unknown>[];
  readonly index: TechIndex;
  /** Adds a technology defined by the reader itself (a link's transmission tech). */
  add(technology: Record<string, unknown> & { name: string; type: TechType }): void;
}

/** Reads the frontend's `technologies` (an array; `path` is its JSON path for problems). */
export function readFrontendTechnologies(
  list: unknown,
  ctx: FrontendReadContext,
  path = "technologies",
): FrontendTechnologies {
  const technologies: Record<string, unknown>[] = [];
  const types = new Map<string, TechType>();
  const aliases = new Map<string, string>();
  const laterAliases: [string, string][] = [];
  const dropped = new Set<string>();

  const add = (tech: Record<string, unknown> & { name: string; type: TechType }) => {
    technologies.push(tech);
    types.set(tech.name, tech.type);
    aliases.set(tech.name, tech.name);
  };

  if (!Array.isArray(list)) {
    ctx.problems.push({ path, message: "technologies must be a list" });
  } else {
    list.forEach((raw, i) => {
      const at = `${path}[${i}]`;
      if (!isPlainObject(raw)) {
        ctx.problems.push({ path: at, message: "a technology must be an object" });
        return;
      }
      const tech = readTechnology(raw, at, ctx, dropped);
      if (tech === undefined) return;
      if (types.has(tech.name)) {
        ctx.problems.push({
          path: `${at}.name`,
          message: `a second technology with the key "${tech.name}"; technology names must differ`,
        });
        return;
      }
      add(tech);
      for (const ref of [raw["name"], raw["id"]]) {
        if (typeof ref === "string" || typeof ref === "number") {
          laterAliases.push([String(ref), tech.name]);
        }
      }
    });
  }
  // Keys first, then names and ids, so that one technology's id cannot hide another's key.
  for (const [ref, key] of laterAliases) {
    for (const alias of [ref, ref.replaceAll(" ", "_").toLowerCase()]) {
      if (!aliases.has(alias)) aliases.set(alias, key);
    }
  }
  if (dropped.size > 0) {
    ctx.notes.push(
      `technology keys dropped as frontend metadata (not model settings): ${
        [...dropped].sort().join(", ")
      }`,
    );
  }
  const index: TechIndex = {
    lookup: (ref) =>
      aliases.get(ref) ?? aliases.get(frontendKey(ref)) ??
        aliases.get(ref.replaceAll(" ", "_").toLowerCase()),
    typeOf: (key) => types.get(key),
  };
  return { technologies, index, add };
}

function readTechnology(
  raw: Record<string, unknown>,
  at: string,
  ctx: FrontendReadContext,
  dropped: Set<string>,
): (Record<string, unknown> & { name: string; type: TechType }) | undefined {
  const essentials = isPlainObject(raw["essentials"]) ? raw["essentials"] : {};
  // `name` wins over `id`, as the frontend's runner chose the tech key.
  const label = firstString(raw["name"], raw["id"], essentials["name"]);
  if (label === undefined || frontendKey(label) === "") {
    ctx.problems.push({ path: `${at}.name`, message: "a technology needs a name" });
    return undefined;
  }
  const name = frontendKey(label);
  const parent = firstString(raw["parent"], essentials["parent"], raw["type"]);
  if (parent === undefined || !(TECH_TYPES as readonly string[]).includes(parent)) {
    ctx.problems.push({
      path: raw["parent"] !== undefined ? `${at}.parent` : `${at}.essentials.parent`,
      message: `technology "${name}" needs a parent, one of ${TECH_TYPES.join(", ")}` +
        (parent === undefined ? "" : ` (got "${parent}")`),
    });
    return undefined;
  }
  const type = parent as TechType;
  for (const key of Object.keys(raw)) if (!USED_KEYS.has(key)) dropped.add(key);
  for (const key of Object.keys(essentials)) {
    if (!USED_ESSENTIALS.has(key)) dropped.add(`essentials.${key}`);
  }

  const tech: Record<string, unknown> & { name: string; type: TechType } = { name, type };
  Object.assign(tech, carriersOf(type, essentials, raw, name, ctx));
  if (isPlainObject(raw["constraints"])) {
    const constraints = infinityRecord(raw["constraints"]);
    if (Object.keys(constraints).length > 0) tech["constraints"] = constraints;
  }
  if (isPlainObject(raw["costs"])) {
    const costs = infinityCosts(raw["costs"]);
    if (Object.keys(costs).length > 0) tech["costs"] = costs;
  }
  const display = firstString(essentials["name"], label !== name ? label : undefined);
  const color = firstString(essentials["color"]);
  if (display !== undefined || color !== undefined) {
    tech["essentials"] = {
      ...(display !== undefined ? { name: display } : {}),
      ...(color !== undefined ? { color } : {}),
    };
  }
  if (typeof raw["template"] === "string") tech["template"] = raw["template"];
  return tech;
}

/**
 * Carriers from `essentials` and the technology itself (the latter wins), nulls dropped; storage
 * and transmission get `carrier` (else carrier_out, carrier_in, electricity), demand gets
 * `carrier` (else carrier_in, carrier_out, electricity), supply without any carrier gets
 * `carrier_out: electricity`, as the frontend's runner did.
 */
function carriersOf(
  type: TechType,
  essentials: Record<string, unknown>,
  raw: Record<string, unknown>,
  name: string,
  ctx: FrontendReadContext,
): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  for (const source of [essentials, raw]) {
    for (const key of CARRIER_KEYS) {
      const value = source[key];
      if (value === null || value === undefined || value === "") continue;
      if (Array.isArray(value) && value.length === 0) continue;
      found[key] = value;
    }
  }
  const single = (value: unknown): unknown =>
    Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (type === "storage" || type === "transmission") {
    return {
      carrier: single(found["carrier"] ?? found["carrier_out"] ?? found["carrier_in"]) ??
        defaultCarrier(name, ctx),
    };
  }
  if (type === "demand") {
    return {
      carrier: single(found["carrier"] ?? found["carrier_in"] ?? found["carrier_out"]) ??
        defaultCarrier(name, ctx),
    };
  }
  if ((type === "supply" || type === "supply_plus") && found["carrier_out"] === undefined) {
    // Calliope's `carrier` of a supply technology is its output carrier.
    found["carrier_out"] = found["carrier"] ?? defaultCarrier(name, ctx);
    delete found["carrier"];
  }
  return found;
}

function defaultCarrier(name: string, ctx: FrontendReadContext): string {
  ctx.notes.push(`technology "${name}" names no carrier: "${DEFAULT_CARRIER}" is used`);
  return DEFAULT_CARRIER;
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === "string" && v.trim() !== "") return v;
  return undefined;
}
