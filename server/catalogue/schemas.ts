/**
 * Request and response schemas shared by the catalogue routes, built on the domain schemas in
 * `lib/` so that validation, TypeScript types and `/openapi.json` have one source.
 */
import { z } from "@hono/zod-openapi";
import { SPEC_INSTANCE_FIELDS } from "../../lib/catalogue/catalogue_service.ts";
import {
  DOMAINS,
  instanceSchema,
  LIFECYCLES,
  technologySchema,
} from "../../lib/catalogue/technology_schema.ts";
import { profileMetadataSchema } from "../../lib/profiles/profile_schema.ts";
import { detailedErrorSchema, errorResponse } from "../middleware/errors.ts";

/** An error response entry in the catalogue's format `{ error, details? }`. */
export function apiError(description: string) {
  return errorResponse(description, detailedErrorSchema);
}

/** Largest `limit` of the paginated lists. */
export const MAX_LIMIT = 200;
/** `limit` when none is given. */
export const DEFAULT_LIMIT = 50;

/** A non-negative integer query parameter in `[min, max]`, `fallback` when absent. */
export function intQuery(description: string, min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(/^\d+$/, "must be a non-negative integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback)
    .openapi({ type: "integer", minimum: min, maximum: max, default: fallback, description });
}

/** A finite decimal query parameter in `[min, max]`, `fallback` when absent. */
export function numberQuery(description: string, min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, "must be a decimal number")
    .transform(Number)
    .pipe(z.number().min(min).max(max))
    .default(fallback)
    .openapi({ type: "number", minimum: min, maximum: max, default: fallback, description });
}

/** `skip` and `limit` of the paginated lists. */
export const pageQueryShape = {
  skip: intQuery("Number of items to skip", 0, Number.MAX_SAFE_INTEGER, 0),
  limit: intQuery(`Items per page, at most ${MAX_LIMIT}`, 1, MAX_LIMIT, DEFAULT_LIMIT),
};

/** Filters of the technology lists. */
export const technologyQuerySchema = z.object({
  ...pageQueryShape,
  tag: z.string().min(1).optional().openapi({ description: "Technology tag, e.g. `renewable`" }),
  lifecycle: z.enum(LIFECYCLES).optional().openapi({
    description: "Matches a technology whose own lifecycle or any instance's `lifecycle_stage` " +
      "has this value",
  }),
});

/** Path parameter of a technology. */
export const technologyParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "onshore_wind" }),
});

/** Path parameter of a category. */
export const categoryParamsSchema = z.object({
  cat: z.enum(DOMAINS).openapi({ param: { name: "cat", in: "path" }, example: "generation" }),
});

/** Query of the adapters: which instance. */
export const instanceIndexQuery = intQuery(
  "Index of the instance in the technology's `instances` (404 when there is none)",
  0,
  Number.MAX_SAFE_INTEGER,
  0,
);

/** An instance as served. */
export const servedInstanceSchema = instanceSchema.extend({
  missing_fields: z.array(z.enum(SPEC_INSTANCE_FIELDS)).describe(
    "Spec instance fields the source does not give: they are null in this response",
  ),
}).openapi("Instance");

const technologyFields = technologySchema.omit({ instances: true }).shape;

/** A technology with all instances. */
export const technologyDetailSchema = z.object({
  ...technologyFields,
  instances: z.array(servedInstanceSchema),
}).openapi("TechnologyDetail");

/** A technology in a list. */
export const technologySummarySchema = z.object({
  ...technologyFields,
  instance_count: z.number().int().describe("Number of instances"),
}).openapi("TechnologySummary");

/** A page of technologies. */
export const technologyListSchema = z.object({
  total: z.number().int().describe("Technologies matching the filters"),
  skip: z.number().int(),
  limit: z.number().int(),
  technologies: z.array(technologySummarySchema),
}).openapi("TechnologyList");

/** Served profile metadata: a member the source lacks is null. */
export const servedProfileMetadataSchema = z.object({
  profile_id: profileMetadataSchema.shape.profile_id,
  name: profileMetadataSchema.shape.name,
  type: z.string().nullable().describe("`capacity_factor`, `load`, `price`, ...; null if unknown"),
  resolution: z.string().describe("Step length, e.g. `1h`"),
  location: z.string().nullable().describe("Country or region code; null if unknown"),
  carrier: z.string().nullable().describe("Energy carrier; null if unknown"),
  year: z.number().int().nullable().describe("Data year; null if unknown"),
  n_timesteps: z.number().int().describe("Number of steps, equal to the number of values"),
  source: z.string().nullable().describe("Source reference; null if unknown"),
  unit: z.string().nullable().describe("Unit of the values; null if unknown"),
  start: z.string().nullable().describe("Start of the first step, UTC; null if unknown"),
  end: z.string().nullable().describe("Start of the last step, UTC; null if unknown"),
  notes: z.array(z.string()).describe("What was done to the source data"),
  origin: z.enum(["catalogue", "submission"]).describe(
    "`catalogue`: from the data files; `submission`: an approved contributor submission",
  ),
}).openapi("ProfileMetadata");

/** A full profile. */
export const profileDataSchema = servedProfileMetadataSchema.extend({
  values: z.array(z.number()).describe("One value per step"),
}).openapi("ProfileData");

/** A submitter or reviewer. */
export const personSchema = z.object({
  subject: z.string().describe("Token subject: ORCID iD, admin:<e-mail> or session-store id"),
  name: z.string(),
}).openapi("Person");

/** Fields every submission record has. */
export const submissionShape = {
  submission_id: z.string().describe("Identifier (UUID)"),
  status: z.enum(["pending", "approved", "rejected"]),
  submitted_by: personSchema,
  submitted_at: z.string().describe("ISO 8601"),
  reviewed_by: personSchema.nullable(),
  reviewed_at: z.string().nullable().describe("ISO 8601; null while pending"),
};

/** The answer to a submission: 202 with its id. */
export const submitResponseSchema = z.object({
  submission_id: z.string(),
  status: z.literal("pending"),
}).openapi("SubmitResponse");
