/**
 * Each OpenAPI component name stands for one schema. The generator keys components by name and
 * keeps the first schema it meets under a name, so a second schema given the same name is
 * silently documented as the first one. `checkApp` finds every named schema of each service's
 * app (heat, catalogue, runner, extraction, both simulations, the backend as its module builds
 * it) and fails when a name belongs to two different schemas:
 *
 * - in the document: every schema reachable from the app's registry (routes and components),
 *   and a named schema reached only as the one another extends (`allOf`); two schemas (two
 *   zod definitions), or two different generated definitions, under one name fail;
 * - in the code it is built from: every schema exported by a module of the app's import graph,
 *   where two modules exporting different schemas under one name is a duplicate waiting for the
 *   route that documents both (variants exported side by side by one module, such as the
 *   services' two `ErrorResponse` bodies, are a deliberate choice and allowed).
 *
 * A schema's name is read the way the generator reads it: by generating it alone and looking
 * for a `$ref`. A wrapper (optional, nullable, default, ...) that only passes its inner
 * schema's name on is the same schema as the inner one, and so is a copy made to describe it
 * where it is used (`.describe()` keeps its definition; the document refers to the schema).
 */
import assert from "node:assert/strict";
import { OpenAPIHono, type z } from "@hono/zod-openapi";

type Schema = z.ZodType;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && "_zod" in value &&
    typeof (value as { safeParse?: unknown }).safeParse === "function";
}

/** A schema generated alone: its name, and the components its document defines. */
interface Probe {
  name: string | undefined;
  /** The schema as generated: a `$ref` when it has a name. */
  generated: unknown;
  components: Record<string, unknown>;
}

const probes = new WeakMap<Schema, Probe>();

/** Generates `schema` alone in a document, as the response of one route. */
function probe(schema: Schema): Probe {
  const known = probes.get(schema);
  if (known) return known;
  const app = new OpenAPIHono();
  app.openAPIRegistry.registerPath({
    method: "get",
    path: "/probe",
    responses: { 200: { description: "probe", content: { "application/json": { schema } } } },
  });
  let result: Probe = { name: undefined, generated: undefined, components: {} };
  try {
    const doc = app.getOpenAPIDocument({ openapi: "3.0.3", info: { title: "", version: "" } });
    // deno-lint-ignore no-explicit-any
    const out = (doc.paths["/probe"]?.get?.responses as any)["200"].content["application/json"]
      .schema;
    result = { name: refName(out), generated: out, components: doc.components?.schemas ?? {} };
  } catch {
    // A schema the generator cannot document is in no document.
  }
  probes.set(schema, result);
  return result;
}

/** The component name the generator gives `schema`, if any. */
function nameOf(schema: Schema): string | undefined {
  return probe(schema).name;
}

/** `#/components/schemas/X` as X; also a reference made nullable or described (`allOf`). */
function refName(out: Record<string, unknown>): string | undefined {
  const ref = (o: unknown) =>
    typeof o === "object" && o !== null && typeof (o as { $ref?: unknown }).$ref === "string"
      ? (o as { $ref: string }).$ref.replace("#/components/schemas/", "")
      : undefined;
  if (ref(out)) return ref(out);
  const parts = out["allOf"];
  if (!Array.isArray(parts)) return undefined;
  const refs = parts.filter((p) => ref(p));
  const annotationOnly = parts.every((p) =>
    ref(p) || Object.keys(p).every((k) => ["nullable", "description", "default"].includes(k))
  );
  return refs.length === 1 && annotationOnly ? ref(refs[0]) : undefined;
}

/** The schema a wrapper wraps: optional, nullable, default, readonly, pipe, ... */
function innerOf(schema: Schema): Schema | undefined {
  // deno-lint-ignore no-explicit-any
  const def = schema._zod.def as any;
  if (isSchema(def.innerType)) return def.innerType;
  if (def.type === "pipe") return def.in?._zod?.def?.type === "transform" ? def.out : def.in;
  return undefined;
}

/** The schema behind `schema`'s name: itself, or the inner schema whose name it passes on. */
function ownerOf(schema: Schema): Schema {
  const inner = innerOf(schema);
  return inner && nameOf(inner) === nameOf(schema) ? ownerOf(inner) : schema;
}

/** The schemas `schema` is made of. */
function partsOf(schema: Schema): Schema[] {
  // deno-lint-ignore no-explicit-any
  const def = schema._zod.def as any;
  const parts: Schema[] = [];
  for (const [key, value] of Object.entries(def)) {
    if (isSchema(value)) parts.push(value);
    else if (Array.isArray(value)) parts.push(...value.filter(isSchema));
    else if (key === "shape" && typeof value === "object" && value !== null) {
      parts.push(...Object.values(value).filter(isSchema));
    }
  }
  if (def.type === "lazy" && typeof def.getter === "function") parts.push(def.getter());
  return parts;
}

/**
 * name -> the schemas behind it (by definition: a copy made only to describe a schema where it
 * is used, `.describe()`, keeps its definition and is documented as a reference to it) -> where
 * each was found.
 */
type Owners = Map<string, Map<unknown, Set<string>>>;

/** name -> each component JSON generated under it -> where each was found. */
type Definitions = Map<string, Map<string, Set<string>>>;

function add<K>(map: Map<string, Map<K, Set<string>>>, name: string, key: K, where: string) {
  const byKey = map.get(name) ?? new Map<K, Set<string>>();
  map.set(name, byKey);
  byKey.set(key, (byKey.get(key) ?? new Set()).add(where));
}

/** Records the schema behind `schema`'s name, if it has one. */
function record(owners: Owners, schema: Schema, where: string): void {
  const name = nameOf(schema);
  if (name !== undefined) add(owners, name, ownerOf(schema)._zod.def, where);
}

/** JSON with sorted keys, so equal definitions compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      typeof v === "object" && v !== null && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
        : v,
  );
}

/** The name of the schema an extension (`allOf: [{ $ref }, { properties }]`) extends. */
function extendedName(generated: unknown): string | undefined {
  const parts = (generated as { allOf?: unknown })?.allOf;
  if (!Array.isArray(parts) || refName(generated as Record<string, unknown>) !== undefined) {
    return undefined;
  }
  const ref = (parts[0] as { $ref?: unknown })?.$ref;
  return typeof ref === "string" ? ref.replace("#/components/schemas/", "") : undefined;
}

/**
 * Records every named schema in `schema`, all the way down, with its definition as generated
 * from itself. A named schema that another one extends is reached only through the extension
 * (its parts are copied, not referred to), so the definition its name gets there is recorded
 * too. Wrappers are skipped for definitions: the generator makes the definition of a name from
 * whichever schema it meets first, and a `nullable()` met first adds `nullable` to it. So are
 * the copies of a definition after the first (`.describe()`: the document refers to it).
 */
function walk(
  found: { owners: Owners; definitions: Definitions; probed: Set<unknown> },
  schema: Schema,
  where: string,
  seen: Set<Schema>,
): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  record(found.owners, schema, where);
  if (ownerOf(schema) === schema && !found.probed.has(schema._zod.def)) {
    found.probed.add(schema._zod.def);
    const { name, generated, components } = probe(schema);
    if (name !== undefined) add(found.definitions, name, canonical(components[name]), where);
    const parent = extendedName(name === undefined ? generated : components[name]);
    if (parent !== undefined) {
      add(found.definitions, parent, canonical(components[parent]), `${where} (extended)`);
    }
  }
  for (const part of partsOf(schema)) walk(found, part, where, seen);
}

type Route = {
  method: string;
  path: string;
  request?: Record<string, unknown> & { body?: { content?: Record<string, { schema?: unknown }> } };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

/** Every named schema reachable from the app's registry (its routes and components). */
function documentSchemas(app: OpenAPIHono): { owners: Owners; definitions: Definitions } {
  const found = { owners: new Map(), definitions: new Map(), probed: new Set() };
  const seen = new Set<Schema>();
  const visit = (value: unknown, where: string) => {
    if (isSchema(value)) walk(found, value, where, seen);
  };
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type === "route") {
      const route = definition.route as unknown as Route;
      const where = `${route.method.toUpperCase()} ${route.path}`;
      const { body, ...parts } = route.request ?? {};
      for (const part of Object.values(parts)) visit(part, where);
      for (const media of Object.values(body?.content ?? {})) visit(media.schema, where);
      for (const response of Object.values(route.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) visit(media.schema, where);
      }
    } else if (definition.type === "component") {
      visit(definition.component, `component ${definition.name}`);
    } else if (definition.type === "schema" || definition.type === "parameter") {
      visit(definition.schema, definition.type);
    }
  }
  return found;
}

const ROOT = new URL("../../", import.meta.url);
const IMPORT =
  /^\s*(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+\.ts)["']/gm;

/** The repository modules `entry` imports at run time, itself included, found from the text. */
async function moduleGraph(entry: URL): Promise<URL[]> {
  const found = new Map<string, URL>([[entry.href, entry]]);
  for (const url of found.values()) {
    const text = await Deno.readTextFile(url);
    for (const [, specifier] of text.matchAll(IMPORT)) {
      const target = new URL(specifier!, url);
      if (!found.has(target.href)) found.set(target.href, target);
    }
  }
  return [...found.values()];
}

/** Every named schema exported by a module of the graph (or by a plain object it exports). */
async function exportedOwners(entry: URL): Promise<Owners> {
  const owners: Owners = new Map();
  for (const url of await moduleGraph(entry)) {
    const where = url.href.replace(ROOT.href, "");
    const module: Record<string, unknown> = await import(url.href);
    for (const [key, value] of Object.entries(module)) {
      if (isSchema(value)) record(owners, value, where);
      else if (
        typeof value === "object" && value !== null &&
        Object.getPrototypeOf(value) === Object.prototype
      ) {
        for (const member of Object.values(value)) {
          if (isSchema(member)) record(owners, member, `${where} (${key})`);
        }
      }
    }
  }
  return owners;
}

/** `name: where, where | where` for each name with more than one schema or definition. */
function duplicates<K>(
  map: Map<string, Map<K, Set<string>>>,
  sameModuleAllowed = false,
): string[] {
  const found: string[] = [];
  for (const [name, byKey] of map) {
    if (byKey.size < 2) continue;
    const places = [...byKey.values()];
    if (sameModuleAllowed) {
      const modules = places.map((p) => new Set([...p].map((w) => w.replace(/ \(.*\)$/, ""))));
      const shared = [...modules[0]!].some((m) => modules.every((set) => set.has(m)));
      if (shared) continue;
    }
    found.push(`${name}: ${places.map((p) => [...p].join(", ")).join(" | ")}`);
  }
  return found;
}

/** The two checks of this file's header, as steps of the calling test. */
export async function checkApp(
  t: Deno.TestContext,
  app: OpenAPIHono,
  entry: string,
): Promise<void> {
  await t.step("no name stands for two schemas in the document", () => {
    const { owners, definitions } = documentSchemas(app);
    assert.deepEqual(duplicates(owners), [], "one schema object per name");
    assert.deepEqual(duplicates(definitions), [], "one definition per name");
    const doc = app.getOpenAPIDocument({ openapi: "3.0.3", info: { title: "", version: "" } });
    const documented = Object.keys(doc.components?.schemas ?? {});
    assert.ok(documented.length > 0);
    for (const name of documented) assert.ok(owners.has(name), `${name} is found by the walk`);
  });
  await t.step("no two modules the app is built from give one name to two schemas", async () => {
    assert.deepEqual(duplicates(await exportedOwners(new URL(entry, ROOT)), true), []);
  });
}
