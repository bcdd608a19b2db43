/**
 * The shapes of the template library: a template's technology in Calliope 0.6 form (the keys the
 * runner reads, `lib/model/model_config.ts`), a built-in default as committed in
 * `lib/templates/templates.json` (every value with its reference, every key without a source
 * listed as missing), and the served entry (every value with `source: "catalogue" | "built-in"`).
 */
import { z } from "zod";
import { constraintsSchema, costsSchema, TECH_TYPES } from "../model/model_config.ts";
import { TEMPLATE_CATEGORIES } from "./template_ids.ts";

const constraintKeys = constraintsSchema.keyof();
const costKeys = costsSchema.keyof();

/** A template's technology in Calliope 0.6 form: essentials, constraints, costs by class. */
export const templateTechSchema = z.strictObject({
  essentials: z.strictObject({
    name: z.string().min(1),
    color: z.string().regex(/^#[0-9a-f]{6}$/),
    parent: z.enum(TECH_TYPES),
    carrier: z.string().min(1).optional(),
    carrier_in: z.string().min(1).optional(),
    carrier_out: z.string().min(1).optional(),
  }),
  // Numbers, and the words of `resource` (a `file=` series) and `resource_unit`: the runner's
  // schema checks each key's own kind when a model uses the template.
  constraints: z.partialRecord(constraintKeys, z.union([z.number(), z.string()])),
  costs: z.record(z.string().min(1), z.partialRecord(costKeys, z.number())),
});

/** A template's technology in Calliope 0.6 form. */
export type TemplateTech = z.infer<typeof templateTechSchema>;

/** One built-in default of `templates.json`. */
export const templateDefaultSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  category: z.enum(TEMPLATE_CATEGORIES),
  tech: templateTechSchema,
  sources: z.record(z.string(), z.string()).describe(
    "Reference of every value, by dotted path (`constraints.energy_eff`)",
  ),
  units: z.record(z.string(), z.string()).describe("Unit of every numeric value, by path"),
  missing: z.array(z.string()).describe(
    "Keys no source gives a value for, by dotted path; Calliope's default applies",
  ),
  notes: z.array(z.string()),
});

/** One built-in default of `templates.json`. */
export type TemplateDefault = z.infer<typeof templateDefaultSchema>;

/** The committed file: a comment and the defaults in the spec's order. */
export const templatesFileSchema = z.strictObject({
  $comment: z.string(),
  templates: z.array(templateDefaultSchema),
});

/** The committed file `lib/templates/templates.json`. */
export type TemplatesFile = z.infer<typeof templatesFileSchema>;

/** Where a served value comes from. */
export type ValueSource = "catalogue" | "built-in";

/**
 * A served template: the merged technology, and beside it, by the same dotted paths, where each
 * value comes from (`source`) and its reference. A parallel map, so `tech` stays a Calliope
 * technology a model can take as it is.
 */
export interface TemplateEntry {
  readonly id: string;
  readonly name: string;
  readonly category: z.infer<typeof templateDefaultSchema>["category"];
  readonly parent: TemplateTech["essentials"]["parent"];
  readonly tech: TemplateTech;
  /** `catalogue` (the catalogue's current value) or `built-in`, for every value of `tech`. */
  readonly source: Readonly<Record<string, ValueSource>>;
  /** The reference of every value of `tech`. */
  readonly references: Readonly<Record<string, string>>;
  readonly units: Readonly<Record<string, string>>;
  /** Keys without a value from any source. */
  readonly missing: readonly string[];
  readonly notes: readonly string[];
}

/** The dotted path and value of every leaf of a template technology. */
export function techLeaves(tech: TemplateTech): [string, string | number][] {
  const leaves: [string, string | number][] = [];
  for (const [key, value] of Object.entries(tech.essentials)) {
    if (value !== undefined) leaves.push([`essentials.${key}`, value]);
  }
  for (const [key, value] of Object.entries(tech.constraints)) {
    if (value !== undefined) leaves.push([`constraints.${key}`, value]);
  }
  for (const [costClass, costs] of Object.entries(tech.costs)) {
    for (const [key, value] of Object.entries(costs)) {
      if (value !== undefined) leaves.push([`costs.${costClass}.${key}`, value]);
    }
  }
  return leaves;
}
