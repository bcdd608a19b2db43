/**
 * Calliope 0.6 YAML files read the way Calliope's `AttrDict` reads them (`core/attrdict.py`):
 * YAML 1.2 core schema (Calliope loads with ruamel, so `1e6` is a number and a bare `inf` stays
 * text), dotted keys nest and merge (`costs.monetary.energy_cap: 1` is
 * `costs: {monetary: {energy_cap: 1}}`), and `import:` files are merged under the importing
 * file, their paths relative to it.
 */
import { dirname, isAbsolute, join } from "node:path";
import { parseDocument } from "yaml";

/** A YAML value as Calliope holds it: scalars, lists and nested `AttrDict`s. */
export type AttrValue = null | boolean | number | string | AttrValue[] | AttrDict;
/** A nested mapping with string keys (Calliope's `AttrDict`). */
export interface AttrDict {
  [key: string]: AttrValue;
}

/** True for a mapping (not a list, not null). */
export function isAttrDict(value: unknown): value is AttrDict {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Sets `key` (dotted keys nest) to `value`. Like `AttrDict.set_key`, a mapping set onto an
 * existing mapping merges into it key by key instead of replacing it.
 */
export function setKey(dict: AttrDict, key: string, value: AttrValue): void {
  const dot = key.indexOf(".");
  if (dot >= 0) {
    const head = key.slice(0, dot);
    const rest = key.slice(dot + 1);
    const current = Object.hasOwn(dict, head) ? dict[head] : undefined;
    if (current === undefined || current === null) {
      const child: AttrDict = {};
      dict[head] = child;
      setKey(child, rest, value);
    } else if (isAttrDict(current)) {
      setKey(current, rest, value);
    } else {
      throw new TypeError(`cannot set nested key "${key}": "${head}" is not a mapping`);
    }
    return;
  }
  const current = Object.hasOwn(dict, key) ? dict[key] : undefined;
  if (isAttrDict(value) && isAttrDict(current)) {
    for (const [k, v] of Object.entries(value)) setKey(current, k, v);
  } else {
    dict[key] = isAttrDict(value) ? toAttrDict(value) : value;
  }
}

/** The value at a dotted `key`, or undefined when any part of it is missing. */
export function getKey(dict: AttrDict, key: string): AttrValue | undefined {
  let node: AttrValue | undefined = dict;
  for (const part of key.split(".")) {
    if (!isAttrDict(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** Deletes a dotted `key`; parents left empty are deleted too (`AttrDict.del_key`). */
export function deleteKey(dict: AttrDict, key: string): void {
  const dot = key.indexOf(".");
  if (dot < 0) {
    delete dict[key];
    return;
  }
  const head = key.slice(0, dot);
  const child = dict[head];
  if (!isAttrDict(child)) return;
  deleteKey(child, key.slice(dot + 1));
  if (Object.keys(child).length === 0) delete dict[head];
}

/** A fresh AttrDict from a plain object, dotted keys nested in their order. */
export function toAttrDict(source: Record<string, unknown>): AttrDict {
  const out: AttrDict = {};
  for (const [k, v] of Object.entries(source)) setKey(out, k, toAttrValue(v));
  return out;
}

function toAttrValue(value: unknown): AttrValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") {
    return value;
  }
  if (Array.isArray(value)) return value.map(toAttrValue);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return toAttrDict(value as Record<string, unknown>);
  return String(value);
}

/** A deep copy. */
export function cloneAttr<T extends AttrValue>(value: T): T {
  return structuredClone(value);
}

/**
 * Every leaf key, dotted and sorted (`AttrDict.keys_nested`); an empty mapping counts as a leaf.
 */
export function keysNested(dict: AttrDict): string[] {
  const keys: string[] = [];
  for (const k of Object.keys(dict).sort()) {
    const v = dict[k];
    if (isAttrDict(v) && Object.keys(v).length > 0) {
      for (const sub of keysNested(v)) keys.push(`${k}.${sub}`);
    } else {
      keys.push(k);
    }
  }
  return keys;
}

/** Options of {@link union}, as `AttrDict.union` takes them. */
export interface UnionOptions {
  /** Let `other` redefine a leaf `target` already has (else a duplicate is an error). */
  readonly allowOverride?: boolean;
  /** A `_REPLACE_` key replaces the whole sub-dict it sits in. */
  readonly allowReplacement?: boolean;
}

/**
 * Merges `other` into `target` leaf by leaf (`AttrDict.union`): `other` wins, and a null leaf
 * in `other` never wipes a mapping `target` holds there (so `battery:` under a location keeps
 * the battery's settings).
 */
export function union(target: AttrDict, other: AttrDict, options: UnionOptions = {}): void {
  const targetKeys = new Set(keysNested(target));
  const REPLACE = "_REPLACE_";
  const otherKeys = keysNested(other);
  const overrideKeys = options.allowReplacement
    ? otherKeys.filter((k) => !k.includes(REPLACE))
    : otherKeys;
  const wipeKeys = options.allowReplacement
    ? otherKeys.filter((k) => k.includes(REPLACE)).map((k) => k.split(`.${REPLACE}`)[0] ?? k)
    : [];
  for (const key of overrideKeys) {
    if (!options.allowOverride && targetKeys.has(key)) {
      throw new RangeError(`Key defined twice: ${key}`);
    }
    const value = getKey(other, key) ?? null;
    if (value === null && isAttrDict(getKey(target, key))) continue;
    setKey(target, key, cloneAttr(value));
  }
  for (const key of wipeKeys) {
    const value = getKey(other, `${key}.${REPLACE}`) ?? null;
    deleteKey(target, key);
    setKey(target, key, cloneAttr(value));
  }
}

/**
 * Parses YAML text into an AttrDict. `source` names the text in errors; a syntax error is a
 * SyntaxError with the source, line and column.
 */
export function parseCalliopeYaml(text: string, source = "<yaml string>"): AttrDict {
  const doc = parseDocument(text, { version: "1.2", schema: "core", prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? `${source}:${pos.line}:${pos.col}` : source;
    const message = (first.message.split("\n")[0] ?? first.message)
      .replace(/ at line \d+, column \d+:?$/, "");
    throw new SyntaxError(`${where}: YAML syntax error: ${message}`);
  }
  const loaded: unknown = doc.toJS({ maxAliasCount: 1000 });
  if (loaded === null || loaded === undefined) return {};
  if (!isAttrDict(loaded)) {
    throw new SyntaxError(`${source}: could not parse as YAML: the top level is not a mapping`);
  }
  return toAttrDict(loaded);
}

/**
 * Reads a Calliope YAML file and resolves its top-level `import:` list recursively: each
 * imported file is loaded, the importing file merged over it (a key defined in both is an error,
 * as in Calliope), in list order. Paths are relative to the importing file.
 */
export async function readCalliopeYaml(path: string): Promise<AttrDict> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`Cannot read "${path}": no such file`);
    }
    throw error;
  }
  let loaded = parseCalliopeYaml(text, path);
  if (!Object.hasOwn(loaded, "import")) return loaded;
  const imports = loaded["import"];
  if (!Array.isArray(imports) || imports.some((i) => typeof i !== "string")) {
    throw new TypeError(`${path}: \`import\` must be a list of file paths`);
  }
  for (const entry of imports as string[]) {
    const importPath = isAbsolute(entry) ? entry : join(dirname(path), entry);
    const imported = await readCalliopeYaml(importPath);
    try {
      union(imported, loaded);
    } catch (error) {
      if (error instanceof RangeError) {
        throw new RangeError(`${path} (importing ${importPath}): ${error.message}`);
      }
      throw error;
    }
    loaded = imported;
  }
  delete loaded["import"];
  return loaded;
}

/** JSON as ModelConfig holds it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A YAML value as ModelConfig JSON: ±Infinity (from `.inf`) becomes "inf" / "-inf". */
export function toJson(value: AttrValue): Json {
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

/** The mapping at dotted `key`, or an empty one. */
export function dictAt(dict: AttrDict, key: string): AttrDict {
  const v = getKey(dict, key);
  return isAttrDict(v) ? v : {};
}
