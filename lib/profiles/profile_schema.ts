/**
 * The zod schemas of hourly profiles: profile metadata (the spec's nine members plus unit, start,
 * end and notes), a full profile (metadata plus `values`), a catalogue profile file and the
 * catalogue index. One source for file validation, TypeScript types and JSON Schema; the served
 * shapes (`lib/catalogue/served/served_profile.ts`) take their members from here.
 *
 * Rules beyond the shape: every value a finite number, 1 to 35,136 values, `n_timesteps` equal to
 * the number of values, capacity factors within [0, 1], `end` not before `start`.
 */
import { z } from "zod";

/** Most steps a profile may have: a leap year of quarter hours (366 × 96), the submission limit. */
export const MAX_TIMESTEPS = 35_136;

/** A step length: a whole number of minutes or hours, `1h`, `15min`. */
export const RESOLUTION_PATTERN = /^([1-9][0-9]*)(min|h)$/;

/** Out-of-range capacity factors reported one by one before the rest are summed up in one line. */
const MAX_VALUE_ISSUES = 20;

/** Members beyond the spec's nine: optional in general, required in catalogue files. */
const extraShape = {
  unit: z
    .string()
    .min(1)
    .describe("Unit of the values: `per_unit`, `MW`, `EUR/MWh`, `MWh/MW` (per step), ..."),
  start: z.iso.datetime().describe("Start of the first step, UTC (ISO 8601)"),
  end: z.iso.datetime().describe("Start of the last step, UTC (ISO 8601)"),
  notes: z
    .array(z.string().min(1))
    .describe("What was done to the source data (dropped days, clipping, coverage)"),
};

const specShape = {
  profile_id: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "must be letters, digits, '_', '.' or '-'")
    .describe("Unique identifier, used in the path, e.g. `DE_solar_pv_2016`"),
  name: z.string().min(1).describe("Human-readable name"),
  type: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, "must be lower-case snake_case")
    .describe(
      "`capacity_factor` (per unit of installed capacity, 0 to 1), `load`, `price`, `inflow`, ...",
    ),
  resolution: z
    .string()
    .regex(RESOLUTION_PATTERN, "must be a step length such as 1h or 15min")
    .describe("Step length, e.g. `1h`"),
  location: z.string().min(1).describe("Country (ISO 3166-1 alpha-2) or region code"),
  carrier: z.string().min(1).describe("Energy carrier, e.g. `solar`, `wind`, `electricity`"),
  year: z.number().int().describe("Data year"),
  n_timesteps: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMESTEPS)
    .describe("Number of steps, equal to the number of values; typically 8760"),
  source: z.string().min(1).describe("Source reference with citation and licence"),
};

const metadataShape = {
  ...specShape,
  unit: extraShape.unit.optional(),
  start: extraShape.start.optional(),
  end: extraShape.end.optional(),
  notes: extraShape.notes.optional(),
};

const valuesSchema = z
  .array(z.number())
  .min(1)
  .max(MAX_TIMESTEPS)
  .describe("One finite number per step, in `unit`; capacity factors lie between 0 and 1");

/** Profile metadata as listed by the catalogue index and `GET /timeseries`. */
export const profileMetadataSchema = z
  .strictObject(metadataShape)
  .superRefine(checkSpan);

/** A full profile: the metadata plus `values`. */
export const profileSchema = z
  .strictObject({ ...metadataShape, values: valuesSchema })
  .superRefine(checkSpan)
  .superRefine(checkValues);

/** Metadata of a catalogue profile: unit, start, end and notes are required. */
export const catalogueMetadataSchema = z
  .strictObject({ ...specShape, ...extraShape })
  .superRefine(checkSpan);

/** A catalogue profile file, `catalogues/profiles/<profile_id>.json`. */
export const catalogueProfileSchema = z
  .strictObject({ ...specShape, ...extraShape, values: valuesSchema })
  .superRefine(checkSpan)
  .superRefine(checkValues);

/** A series the source has no data for, listed in the index instead of a file. */
export const unpublishedSeriesSchema = z.strictObject({
  profile_id: specShape.profile_id,
  reason: z.string().min(1).describe("Why no profile is published"),
});

/** The catalogue index, `catalogues/profiles/index.json`. */
export const profileIndexSchema = z.strictObject({
  profiles: z.array(catalogueMetadataSchema).describe("Metadata of every profile file, by id"),
  not_published: z
    .array(unpublishedSeriesSchema)
    .describe("Series the source leaves blank, so no file is written"),
});

export type ProfileMetadata = z.infer<typeof profileMetadataSchema>;
export type Profile = z.infer<typeof profileSchema>;
export type CatalogueMetadata = z.infer<typeof catalogueMetadataSchema>;
export type CatalogueProfile = z.infer<typeof catalogueProfileSchema>;
export type UnpublishedSeries = z.infer<typeof unpublishedSeriesSchema>;
export type ProfileIndex = z.infer<typeof profileIndexSchema>;

type Ctx = z.RefinementCtx;

function checkSpan(p: { start?: string | undefined; end?: string | undefined }, ctx: Ctx): void {
  if (p.start !== undefined && p.end !== undefined && Date.parse(p.end) < Date.parse(p.start)) {
    ctx.addIssue({ code: "custom", path: ["end"], message: `${p.end} is before start ${p.start}` });
  }
}

function checkValues(p: { type: string; n_timesteps: number; values: number[] }, ctx: Ctx): void {
  if (p.n_timesteps !== p.values.length) {
    ctx.addIssue({
      code: "custom",
      path: ["n_timesteps"],
      message: `is ${p.n_timesteps} but values has ${p.values.length} entries`,
    });
  }
  if (p.type !== "capacity_factor") return;
  let outside = 0;
  p.values.forEach((v, i) => {
    if (v >= 0 && v <= 1) return;
    outside++;
    if (outside > MAX_VALUE_ISSUES) return;
    const side = v < 0 ? "below 0" : "above 1";
    ctx.addIssue({
      code: "custom",
      path: ["values", i],
      message: `${v} is ${side} for a capacity factor`,
    });
  });
  if (outside > MAX_VALUE_ISSUES) {
    ctx.addIssue({
      code: "custom",
      path: ["values"],
      message: `${outside - MAX_VALUE_ISSUES} more values outside [0, 1] for a capacity factor`,
    });
  }
}

/** Issues as `values[123]: 1.2 is above 1 for a capacity factor`, one line each. */
export function describeProfileIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = z.core.toDotPath(issue.path);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}
