/**
 * A technology as the catalogue serves it: every instance lists the spec fields its source does
 * not give (`missing_fields`), and a list shows a summary with the instance count instead of the
 * instances. The zod schemas are the one declaration of these shapes; the server names them in
 * its OpenAPI document.
 */
import { z } from "zod";
import {
  type Instance,
  instanceSchema,
  SPEC_INSTANCE_NUMBER_FIELDS,
  type Technology,
  technologySchema,
} from "../schema/technology_schema.ts";

/** The spec's instance fields: a null among them is listed in `missing_fields`. */
export const SPEC_INSTANCE_FIELDS = [
  ...SPEC_INSTANCE_NUMBER_FIELDS,
  "reference_source",
] as const satisfies readonly (keyof Instance)[];

/** A spec instance field. */
export type SpecInstanceField = typeof SPEC_INSTANCE_FIELDS[number];

/** An instance as served: its fields plus the spec fields the source lacks. */
export const servedInstanceSchema = instanceSchema.extend({
  // Always present when served (null when none).
  capacity_unit: instanceSchema.shape.capacity_unit.unwrap(),
  fuel: instanceSchema.shape.fuel.unwrap(),
  missing_fields: z.array(z.enum(SPEC_INSTANCE_FIELDS)).describe(
    "Spec instance fields the source does not give: they are null in this response",
  ),
});

/** An instance as served. */
export type ServedInstance = z.infer<typeof servedInstanceSchema>;

/** The fields of a technology besides its instances. */
export const technologyFieldsShape = technologySchema.omit({ instances: true }).shape;

/** A technology as served (detail): all fields and its instances. */
export const servedTechnologySchema = z.object({
  ...technologyFieldsShape,
  instances: z.array(servedInstanceSchema),
});

/** A technology as served (detail). */
export type ServedTechnology = z.infer<typeof servedTechnologySchema>;

/** A technology in a list: its fields without the instances, and how many it has. */
export const technologySummarySchema = z.object({
  ...technologyFieldsShape,
  instance_count: z.number().int().describe("Number of instances"),
});

/** A technology in a list. */
export type TechnologySummary = z.infer<typeof technologySummarySchema>;

/** The spec instance fields an instance leaves null. */
export function missingFields(instance: Instance): SpecInstanceField[] {
  return SPEC_INSTANCE_FIELDS.filter((field) => instance[field] === null);
}

/** An instance with its `missing_fields`. */
export function serveInstance(instance: Instance): ServedInstance {
  return {
    ...instance,
    capacity_unit: instance.capacity_unit ?? null,
    fuel: instance.fuel ?? null,
    missing_fields: missingFields(instance),
  };
}

/** A technology with every instance served. */
export function serveTechnology(t: Technology): ServedTechnology {
  return { ...t, instances: t.instances.map(serveInstance) };
}

/** The summary of a served technology. */
export function summarise(t: ServedTechnology): TechnologySummary {
  const { instances, ...fields } = t;
  return { ...fields, instance_count: instances.length };
}
