/**
 * The technology template library (issue 10 section 5): the built-in defaults of
 * `templates.json`, with the technology catalogue's current values merged over them when it
 * answers. The catalogue's Calliope adapter is the one mapping from catalogue figures to Calliope
 * keys, so the library asks the catalogue for its `techs` block
 * (`GET {catalogueUrl}/api/v1/technologies/calliope`: every technology, instance 0 each, in one
 * request) and takes the values of the template ids it finds there. Offline or failing: the
 * built-in values, silently, with one log line.
 *
 * Every served value carries `source: "catalogue" | "built-in"` and its reference in parallel
 * maps keyed by dotted path, so `tech` stays a Calliope technology a model can use as it is.
 */
import { z } from "zod";
import {
  constraintsSchema,
  costsSchema,
  SERIES_REFERENCE_PATTERN,
  TECH_TYPES,
} from "../model/model_config.ts";
import { type ResolvedTemplates, resolveTemplates } from "./resolve_templates.ts";
import {
  techLeaves,
  type TemplateDefault,
  type TemplateEntry,
  type TemplatesFile,
  templatesFileSchema,
  type TemplateTech,
  type ValueSource,
} from "./template_entry.ts";
import committed from "./templates.json" with { type: "json" };

/** The catalogue route whose answer is merged. */
export const CATALOGUE_CALLIOPE_PATH = "/api/v1/technologies/calliope";

/** Options of createTemplateLibrary. */
export interface TemplateLibraryOptions {
  /** The catalogue service's base URL; without it only the built-in values are served. */
  catalogueUrl?: string;
  fetch?: typeof fetch;
  log?: (line: string) => void;
  /** Deadline of the catalogue request, ms (default 5000). */
  timeoutMs?: number;
  /** Built-in defaults (default: the committed `templates.json`). */
  defaults?: readonly TemplateDefault[];
}

/** The library the backend serves and resolves models with. */
export interface TemplateLibrary {
  /** Every entry, in the spec's order. */
  list(): TemplateEntry[];
  get(id: string): TemplateEntry | undefined;
  /**
   * Merges the catalogue's current values over the defaults again. `catalogue`: whether it
   * answered; `updated`: how many entries took at least one value from it.
   */
  refresh(): Promise<{ catalogue: boolean; updated: number }>;
  /** The model with its technologies' templates applied (a new object), or every problem. */
  resolveModel(model: unknown): ResolvedTemplates;
}

/** The committed built-in defaults, validated. */
export function builtInTemplates(): TemplateDefault[] {
  return (templatesFileSchema.parse(committed) as TemplatesFile).templates;
}

const constraintKeys = new Set(Object.keys(constraintsSchema.shape));
const costKeys = new Set(Object.keys(costsSchema.shape));
const ESSENTIAL_KEYS = new Set(["name", "color", "parent", "carrier", "carrier_in", "carrier_out"]);

const RESOURCE_UNITS: ReadonlySet<unknown> = new Set(
  constraintsSchema.shape.resource_unit.unwrap().options,
);

/** Whether a catalogue constraint value is one the runner reads under `key`. */
function constraintValue(key: string, value: unknown): value is number | string {
  if (typeof value === "number") return Number.isFinite(value) && key !== "resource_unit";
  if (key === "resource") return typeof value === "string" && SERIES_REFERENCE_PATTERN.test(value);
  return key === "resource_unit" && RESOURCE_UNITS.has(value);
}

/** The part of the catalogue's answer the merge reads; unknown members are ignored. */
const catalogueTechsSchema = z.object({
  techs: z.record(
    z.string(),
    z.object({
      essentials: z.record(z.string(), z.unknown()).optional(),
      constraints: z.record(z.string(), z.unknown()).optional(),
      costs: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    }),
  ),
});

/** A served entry of a default, every value built-in. */
export function builtInEntry(template: TemplateDefault): TemplateEntry {
  const tech = structuredClone(template.tech);
  const source: Record<string, ValueSource> = {};
  for (const [path] of techLeaves(tech)) source[path] = "built-in";
  return {
    id: template.id,
    name: template.name,
    category: template.category,
    parent: tech.essentials.parent,
    tech,
    source,
    references: { ...template.sources },
    units: { ...template.units },
    missing: [...template.missing],
    notes: [...template.notes],
  };
}

/**
 * `entry` with the catalogue's values of its technology set over it (source "catalogue"). Only
 * keys the runner reads are taken, as numbers (a `resource` may be a series reference, a
 * `resource_unit` one of its words); a value of the wrong kind is skipped. Returns the entry and
 * how many values came from the catalogue.
 */
export function mergeCatalogueTech(
  entry: TemplateEntry,
  answer: z.infer<typeof catalogueTechsSchema>["techs"][string],
  reference: string,
): { entry: TemplateEntry; values: number } {
  const tech: TemplateTech = structuredClone(entry.tech);
  const source = { ...entry.source };
  const references = { ...entry.references };
  let values = 0;
  const take = (path: string) => {
    source[path] = "catalogue";
    references[path] = reference;
    values++;
  };
  for (const [key, value] of Object.entries(answer.essentials ?? {})) {
    if (!ESSENTIAL_KEYS.has(key) || typeof value !== "string" || value === "") continue;
    if (key === "parent" && !(TECH_TYPES as readonly string[]).includes(value)) continue;
    if (key === "color" && !/^#[0-9a-f]{6}$/.test(value)) continue;
    (tech.essentials as Record<string, string>)[key] = value;
    take(`essentials.${key}`);
  }
  for (const [key, value] of Object.entries(answer.constraints ?? {})) {
    if (!constraintKeys.has(key) || !constraintValue(key, value)) continue;
    (tech.constraints as Record<string, number | string>)[key] = value;
    take(`constraints.${key}`);
  }
  for (const [costClass, costs] of Object.entries(answer.costs ?? {})) {
    for (const [key, value] of Object.entries(costs)) {
      if (!costKeys.has(key) || typeof value !== "number" || !Number.isFinite(value)) continue;
      const bucket = (tech.costs[costClass] ??= {}) as Record<string, number>;
      bucket[key] = value;
      take(`costs.${costClass}.${key}`);
    }
  }
  const present = new Set(techLeaves(tech).map(([path]) => path));
  return {
    entry: {
      ...entry,
      name: tech.essentials.name,
      parent: tech.essentials.parent,
      tech,
      source,
      references,
      missing: entry.missing.filter((path) => !present.has(path)),
    },
    values,
  };
}

/** The library over the defaults, with the catalogue's values merged in when it answers. */
export async function createTemplateLibrary(
  options: TemplateLibraryOptions = {},
): Promise<TemplateLibrary> {
  const defaults = options.defaults ?? builtInTemplates();
  const doFetch = options.fetch ?? fetch;
  const log = options.log ?? ((line: string) => console.error(line));
  const timeoutMs = options.timeoutMs ?? 5000;
  const base = options.catalogueUrl?.replace(/\/+$/, "");
  const ids = defaults.map((d) => d.id);
  let entries = new Map(defaults.map((d) => [d.id, builtInEntry(d)]));
  // Logged when the catalogue stops answering, not again while it stays down.
  let reachable: boolean | undefined;

  async function catalogueTechs() {
    if (base === undefined) return undefined;
    const url = `${base}${CATALOGUE_CALLIOPE_PATH}`;
    try {
      const response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      }
      const parsed = catalogueTechsSchema.safeParse(await response.json());
      if (!parsed.success) throw new Error("the answer is not a Calliope techs block");
      if (reachable === false) log(`templates: the catalogue at ${url} answers again`);
      reachable = true;
      return { url, techs: parsed.data.techs };
    } catch (error) {
      if (reachable !== false) {
        const reason = error instanceof Error ? error.message : String(error);
        log(`templates: catalogue at ${url} unavailable (${reason}); built-in values served`);
      }
      reachable = false;
      return undefined;
    }
  }

  async function merge(): Promise<{ catalogue: boolean; updated: number }> {
    const answer = await catalogueTechs();
    const next = new Map(defaults.map((d) => [d.id, builtInEntry(d)]));
    let updated = 0;
    if (answer !== undefined) {
      for (const [id, entry] of next) {
        const tech = answer.techs[id];
        if (tech === undefined) continue;
        const merged = mergeCatalogueTech(
          entry,
          tech,
          `catalogue:${id} at ${answer.url} (the catalogue's Calliope adapter, instance 0)`,
        );
        next.set(id, merged.entry);
        if (merged.values > 0) updated++;
      }
    }
    entries = next;
    return { catalogue: answer !== undefined, updated };
  }

  await merge();
  return {
    list: () => [...entries.values()],
    get: (id) => entries.get(id),
    refresh: merge,
    resolveModel: (model) => resolveTemplates(model, (id) => entries.get(id)?.tech, ids),
  };
}
