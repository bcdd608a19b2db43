/**
 * THE TABULA parameter schema: the one source for row validation, the nested `tabula_data` of
 * the data response and the field metadata of `/api/v1/fields`.
 *
 * Keys of `tabula_data` are the raw column names with the first letter upper-cased (`theta_i` ->
 * `Theta_i`, `c_m` -> `C_m`), except `I_Sol_Hor` -> `I_Sol_Horizontal` as the interface names it.
 */
import { z } from "@hono/zod-openapi";
import { PARAMETERS } from "./parameter_list.ts";
import type { ParameterParent } from "./parameter_spec.ts";
import type { VariantRow } from "./variant_row.ts";

export {
  isIgnoredColumn,
  parameterByColumn,
  parameterByKey,
  PARAMETERS,
} from "./parameter_list.ts";
export type { ParameterParent, ParameterSpec, ParameterType } from "./parameter_spec.ts";
export { SIZE_CLASSES, VARIANT_CODE_PATTERN } from "./parameter_building.ts";
export { columnSchema, parseNumberCell, variantRowSchema } from "./parameter_schema.ts";
export {
  isReferenceTextColumn,
  REFERENCE_COLUMNS,
  type ReferenceRow,
  referenceRowSchema,
} from "./reference_row.ts";
export type { VariantRow } from "./variant_row.ts";

/** Values of one group of `tabula_data`, by API key. */
export type TabulaGroup = Record<string, string | number | null>;

/** The full parameter set of a variant, nested as `<parent>.<group>.<key>`. */
export type TabulaData = Record<ParameterParent, Record<string, TabulaGroup>>;

/** Nests a variant row by PARAMETERS into `{BasicParameters, AdvancedParameters}`. */
export function toTabulaData(row: VariantRow): TabulaData {
  const data: TabulaData = { BasicParameters: {}, AdvancedParameters: {} };
  for (const p of PARAMETERS) {
    const group = data[p.parent][p.group] ??= {};
    group[p.key] = row[p.column] ?? null;
  }
  return data;
}

/** One item of GET /api/v1/fields: where a field sits in `tabula_data`, its unit and meaning. */
export const fieldMetadataSchema = z
  .object({
    key: z.string().openapi({ description: "Field name in tabula_data", example: "HeatingDays" }),
    group: z.string().openapi({ description: "Group name", example: "ClimateConditions" }),
    path: z.string().openapi({
      description: "Dotted path into a data response's tabula_data",
      example: "AdvancedParameters.ClimateConditions.HeatingDays",
    }),
    unit: z.string().openapi({ description: "Unit; '-' where there is none", example: "d/a" }),
    label: z.string().openapi({ description: "Short label", example: "Heating days" }),
    simple_description: z.string().optional().openapi({ description: "Plain description" }),
    expert_description: z.string().optional().openapi({ description: "Technical description" }),
    minimum: z.number().optional().openapi({
      description: "Smallest valid value in the data, in `unit` (numeric fields)",
      example: 0,
    }),
    exclusive_minimum: z.boolean().optional().openapi({
      description: "`true` when the value must be greater than `minimum`, not equal to it",
    }),
    maximum: z.number().optional().openapi({
      description: "Largest valid value in the data, in `unit` (numeric fields)",
      example: 366,
    }),
    override: z
      .object({
        member: z.string().openapi({ description: "Member of the calculate request body" }),
        minimum: z.number().openapi({ description: "Smallest accepted value, in `unit`" }),
        maximum: z.number().openapi({ description: "Largest accepted value, in `unit`" }),
      })
      .optional()
      .openapi({
        description: "Where `POST /api/v1/calculate/{code}` lets a caller replace this field: " +
          "the request member and the bounds of its value (inclusive)",
        example: { member: "HeatingDays", minimum: 0, maximum: 366 },
      }),
  })
  .openapi("FieldMetadata");

/** A field-metadata item as this service produces it (both descriptions always present). */
export interface FieldMetadata {
  readonly key: string;
  readonly group: string;
  readonly path: string;
  readonly unit: string;
  readonly label: string;
  readonly simple_description: string;
  readonly expert_description: string;
  /** Range of the data value, in `unit`, where the field has one. */
  readonly minimum?: number;
  readonly exclusive_minimum?: true;
  readonly maximum?: number;
  /** The calculate request member that replaces the field, and its bounds. */
  readonly override?: {
    readonly member: string;
    readonly minimum: number;
    readonly maximum: number;
  };
}

const FIELD_METADATA: readonly FieldMetadata[] = PARAMETERS.map((p) => ({
  key: p.key,
  group: p.group,
  path: p.path,
  unit: p.unit,
  label: p.label,
  simple_description: p.simple_description,
  expert_description: p.expert_description,
  ...(p.min === undefined ? {} : { minimum: p.min }),
  ...(p.exclusiveMin ? { exclusive_minimum: true as const } : {}),
  ...(p.max === undefined ? {} : { maximum: p.max }),
  ...(p.override
    ? { override: { member: p.override.member, minimum: p.override.min, maximum: p.override.max } }
    : {}),
}));

/** Field metadata of every parameter, in PARAMETERS order; static for all countries. */
export function fieldMetadata(): FieldMetadata[] {
  return [...FIELD_METADATA];
}
