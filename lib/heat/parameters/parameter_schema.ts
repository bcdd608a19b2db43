/**
 * The zod schema of one TABULA variant row, derived from PARAMETERS.
 *
 * Input: a CSV record of strings keyed by raw column name (extra keys are stripped; the caller
 * drops `id` and `*_val_data` first). Output: a VariantRow with numbers for numeric columns.
 * Rules: a numeric cell must be a plain decimal number inside the parameter's range (an empty
 * numeric cell is an error: the calculation needs every number); a text cell is kept as written,
 * an empty one becomes null unless the column is required.
 */
import { z } from "zod";
import { VARIANT_CODE_PATTERN } from "./parameter_building.ts";
import { PARAMETERS } from "./parameter_list.ts";
import type { ParameterSpec } from "./parameter_spec.ts";
import type { VariantRow } from "./variant_row.ts";

/** Plain decimal notation with optional exponent; rejects "1,5", "0x10", "Infinity", "NaN". */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Turns a numeric cell into a number, an empty cell into null; anything else is left as is. */
export function parseNumberCell(cell: unknown): unknown {
  if (typeof cell !== "string") return cell;
  const trimmed = cell.trim();
  if (trimmed === "") return null;
  return DECIMAL.test(trimmed) ? Number(trimmed) : cell;
}

/** Turns an empty text cell into null; other values are left as they are. */
function parseTextCell(cell: unknown): unknown {
  return cell === "" ? null : cell;
}

function describe(input: unknown): string {
  if (input === undefined) return "the column is missing";
  if (input === null) return "the cell is empty";
  return `got ${JSON.stringify(input)}`;
}

function numberSchema(p: ParameterSpec) {
  let s = z.number({ error: (iss) => `expected a number, ${describe(iss.input)}` });
  if (p.type === "integer") {
    s = s.int({ error: (iss) => `expected a whole number, got ${String(iss.input)}` });
  }
  if (p.min !== undefined) {
    const min = p.min;
    s = p.exclusiveMin
      ? s.gt(min, { error: (iss) => `must be > ${min} ${p.unit}, got ${String(iss.input)}` })
      : s.gte(min, { error: (iss) => `must be >= ${min} ${p.unit}, got ${String(iss.input)}` });
  }
  if (p.max !== undefined) {
    const max = p.max;
    s = s.lte(max, { error: (iss) => `must be <= ${max} ${p.unit}, got ${String(iss.input)}` });
  }
  return s;
}

function textSchema(p: ParameterSpec) {
  if (p.values) {
    const allowed = p.values.join(", ");
    return z.enum(p.values as [string, ...string[]], {
      error: (iss) => `expected one of ${allowed}, ${describe(iss.input)}`,
    });
  }
  let s = z.string({ error: (iss) => `expected text, ${describe(iss.input)}` });
  if (p.pattern) {
    s = s.regex(p.pattern, {
      error: (iss) => `does not match ${p.pattern}: ${describe(iss.input)}`,
    });
  }
  return p.required ? s : s.nullable();
}

/** The zod schema of one column: cell parsing, type and range, with label, unit and description. */
export function columnSchema(p: ParameterSpec) {
  const meta = { title: p.label, description: `${p.expert_description} Unit: ${p.unit}.` };
  return p.type === "string"
    ? z.preprocess(parseTextCell, textSchema(p)).meta(meta)
    : z.preprocess(parseNumberCell, numberSchema(p)).meta(meta);
}

const shape = Object.fromEntries(PARAMETERS.map((p) => [p.column, columnSchema(p)]));

/**
 * Rules between columns. zod runs them even when single columns failed, so each rule looks only
 * at values that are valid on their own (one bad cell gives one issue, not a cascade).
 */
function crossCheck(row: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const code = row["Code_BuildingVariant"];
  if (typeof code === "string" && VARIANT_CODE_PATTERN.test(code)) {
    const country = row["Code_Country"];
    if (typeof country === "string" && /^[A-Z]{2}$/.test(country) && country !== code.slice(0, 2)) {
      ctx.addIssue({
        code: "custom",
        path: ["Code_Country"],
        message: `must equal the first two characters of ${code}, got ${JSON.stringify(country)}`,
      });
    }
    const building = row["Code_Building"];
    if (typeof building === "string" && building !== "" && !code.startsWith(`${building}.`)) {
      ctx.addIssue({
        code: "custom",
        path: ["Code_Building"],
        message: `must be the start of the variant code ${code}, got ${JSON.stringify(building)}`,
      });
    }
  }
  const from = row["Year1_Building"];
  const to = row["Year2_Building"];
  if (Number.isInteger(from) && Number.isInteger(to) && (from as number) > (to as number)) {
    ctx.addIssue({
      code: "custom",
      path: ["Year2_Building"],
      message: `must not be before Year1_Building (${from}), got ${to}`,
    });
  }
}

/** Parses a raw CSV record (strings by raw column name) into a validated VariantRow. */
export const variantRowSchema: z.ZodType<VariantRow> = z
  .object(shape)
  .superRefine(crossCheck)
  .meta({
    title: "TABULA building variant",
    description: "One row of data/tabula/city2tabula/<country>.csv after parsing: numeric" +
      " columns as numbers, empty text cells as null. TABULA/EPISCOPE building typology data," +
      " IWU Darmstadt, CC BY 4.0.",
  }) as unknown as z.ZodType<VariantRow>;
