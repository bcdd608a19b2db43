/**
 * ModelConfig JSON -> a typed ModelConfig, or every problem by JSON path. Unknown keys are named
 * one by one with a suggestion (a MILP-only key, a key the runner does not implement, or the
 * closest known key of that object), never silently dropped.
 */
import type { z } from "zod";
import { type ModelConfig, modelConfigSchema, NOT_IMPLEMENTED_KEYS } from "./model_config.ts";
import { formatPath, type ModelProblem } from "./model_problem.ts";
import { didYouMean } from "./key_suggestions.ts";

/** The outcome of `parseModelConfig`. */
export type ParseModelConfigResult =
  | { ok: true; config: ModelConfig }
  | { ok: false; problems: ModelProblem[] };

/** Validates a request body as a ModelConfig; never throws. */
export function parseModelConfig(body: unknown): ParseModelConfigResult {
  let result;
  try {
    result = modelConfigSchema.safeParse(body);
  } catch (e) {
    // safeParse should not throw, but a hostile input (getters, proxies) must still be a 400.
    return { ok: false, problems: [{ path: "", message: `unreadable model: ${String(e)}` }] };
  }
  if (result.success) return { ok: true, config: result.data };
  const problems: ModelProblem[] = [];
  for (const issue of result.error.issues) collectIssue(issue, [], problems);
  return { ok: false, problems: dedupe(problems) };
}

/** A zod issue as far as this module reads it. */
interface Issue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
  readonly errors?: readonly (readonly Issue[])[];
}

function collectIssue(issue: Issue, prefix: readonly PropertyKey[], out: ModelProblem[]): void {
  const path = [...prefix, ...issue.path];
  if (issue.code === "unrecognized_keys" && issue.keys) {
    // A schema's own message (e.g. the time functions' "unknown option(s) ...: X takes ...")
    // knows its union branch; zod's default does not, so ours suggests from the schema.
    const custom = !issue.message.startsWith("Unrecognized key");
    for (const key of issue.keys) {
      out.push({
        path: formatPath([...path, key]),
        message: custom ? issue.message : unknownKeyMessage(key, path),
      });
    }
    return;
  }
  if (issue.code === "invalid_union" && issue.errors && issue.errors.length > 0) {
    const branches = issue.errors;
    const deep = branches.filter((b) => b.some((i) => i.path.length > 0));
    if (deep.length > 0) {
      // A branch that got inside the value (an object option) says more than a type mismatch.
      const best = deep.reduce((a, b) => (b.length < a.length ? b : a));
      for (const i of best) collectIssue(i, path, out);
      return;
    }
    const messages = [...new Set(branches.flat().map((i) => i.message))];
    out.push({ path: formatPath(path), message: messages.join("; or ") });
    return;
  }
  out.push({ path: formatPath(path), message: issue.message });
}

function unknownKeyMessage(key: string, objectPath: readonly PropertyKey[]): string {
  if ((NOT_IMPLEMENTED_KEYS as readonly string[]).includes(key)) {
    return `unknown key "${key}": this Calliope key is not implemented by the runner`;
  }
  const known = knownKeysAt(objectPath);
  return `unknown key "${key}"${didYouMean(key, known)}`;
}

/** The keys of the object schema found by following `path` through modelConfigSchema. */
export function knownKeysAt(path: readonly PropertyKey[]): string[] {
  const found = schemaAt(modelConfigSchema as unknown as z.ZodType, path);
  if (found === undefined) return [];
  const shape = objectShape(found);
  return shape ? Object.keys(shape) : [];
}

interface Def {
  type?: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  items?: readonly z.ZodType[];
  shape?: Record<string, z.ZodType>;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 10; i++) {
    const d = defOf(s);
    if (
      d.innerType && ["optional", "default", "nullable", "prefault", "readonly"].includes(
        d.type ?? "",
      )
    ) s = d.innerType;
    else break;
  }
  return s;
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const s = unwrap(schema);
  const d = defOf(s);
  if (d.type === "object" && d.shape) return d.shape;
  if (d.type === "union" && d.options) {
    for (const o of d.options) {
      const shape = objectShape(o);
      if (shape) return shape;
    }
  }
  return undefined;
}

function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const seg of path) {
    if (s === undefined) return undefined;
    s = step(unwrap(s), seg);
  }
  return s;
}

function step(s: z.ZodType, seg: PropertyKey): z.ZodType | undefined {
  const d = defOf(s);
  switch (d.type) {
    case "object":
      return typeof seg === "string" ? d.shape?.[seg] : undefined;
    case "array":
      return d.element;
    case "tuple":
      return typeof seg === "number" ? d.items?.[seg] : undefined;
    case "record":
      return d.valueType;
    case "union":
      for (const o of d.options ?? []) {
        const next = step(unwrap(o), seg);
        if (next !== undefined) return next;
      }
      return undefined;
    default:
      return undefined;
  }
}

function dedupe(problems: ModelProblem[]): ModelProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const k = `${p.path}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
