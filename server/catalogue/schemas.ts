/**
 * The catalogue's OpenAPI names, and the request and response schemas the routes share.
 *
 * The served shapes are declared once, as zod schemas in `lib/` with their TypeScript types;
 * this is the one place that names them for the OpenAPI document (`named()`). Naming makes a
 * named copy and leaves the lib schema unnamed, so a schema that should refer to a named part by
 * `$ref` is rebuilt here over the named part: e.g. a submission listing with the named `Person`.
 * `tests/server/openapi_components_test.ts` checks that no name stands for two schemas.
 */
import { z } from "@hono/zod-openapi";
import {
  additionCountsSchema,
  skippedAdditionSchema,
} from "../../lib/catalogue/served/catalogue_addition.ts";
import { reloadAttemptSchema } from "../../lib/catalogue/served/catalogue_service.ts";
import { catalogueCountsSchema } from "../../lib/catalogue/served/catalogue_snapshot.ts";
import {
  calliopeAnswerSchema as calliopeAnswerShape,
  calliopeConfigSchema as calliopeConfigShape,
  CalliopeOverridesSchema,
  calliopeTechSchema as calliopeTechShape,
  calliopeTechsSchema as calliopeTechsShape,
} from "../../lib/catalogue/calliope/mod.ts";
import { loadProblemSchema as loadProblemShape } from "../../lib/catalogue/loading/load_problem.ts";
import { pypsaResultSchema } from "../../lib/catalogue/adapters/pypsa.ts";
import { dataFileReportSchema } from "../../lib/catalogue/served/read_sources.ts";
import {
  servedProfileMetadataSchema,
  servedValuesSchema,
} from "../../lib/catalogue/served/served_profile.ts";
import {
  servedInstanceSchema,
  servedTechnologySchema,
  technologySummarySchema as technologySummaryShape,
} from "../../lib/catalogue/served/served_technology.ts";
import {
  personSchema as personShape,
  submissionStatusSchema,
} from "../../lib/catalogue/submissions/submission_record.ts";
import { technologySubmissionListingSchema } from "../../lib/catalogue/submissions/technology_submission.ts";
import { DOMAINS, LIFECYCLES } from "../../lib/catalogue/schema/technology_schema.ts";
import {
  timeseriesSubmissionListingSchema,
  timeseriesSubmissionSchema,
} from "../../lib/catalogue/submissions/timeseries_submission.ts";
import { ProfileSchema } from "../../lib/auth/principal.ts";
import {
  opentechInstanceShape,
  opentechSummaryShape,
  opentechTechnologyShape,
} from "../../lib/catalogue/opentech/opentech_technology.ts";
import { opentechUserShape } from "../../lib/catalogue/opentech/opentech_user.ts";
import { profilePointsShape } from "../../lib/catalogue/opentech/profile_points.ts";
import { approvalSchema } from "../../lib/scraper/approval.ts";
import { candidateSchema, runSummarySchema } from "../../lib/scraper/repository.ts";
import { runRequestSchema } from "../../lib/scraper/service.ts";
import { scraperStatusSchema as scraperStatusShape } from "../../lib/scraper/status.ts";
import { detailedErrorSchema, errorResponse } from "../middleware/errors.ts";
import { DECIMAL_PATTERN, DIGITS_PATTERN } from "../middleware/query.ts";

/**
 * `schema.openapi(name)`: a named copy of a lib schema. zod 4 copies the prototype's methods onto
 * each schema as it is made, so a lib schema made (with plain `zod`) before @hono/zod-openapi
 * added `.openapi` to the shared `ZodType.prototype` has no `.openapi` of its own: whether it
 * has depends on which module was evaluated first. The prototype's method works on any schema.
 */
function named<T extends z.ZodType>(schema: T, name: string): T {
  return z.ZodType.prototype.openapi.call(schema, name) as T;
}

/** The description of a lib schema as OpenAPI metadata, for a schema rebuilt here. */
function descriptionOf(schema: z.ZodType): { description?: string } {
  return schema.description === undefined ? {} : { description: schema.description };
}

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
    .regex(DIGITS_PATTERN, "must be a non-negative integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback)
    .openapi({ type: "integer", minimum: min, maximum: max, default: fallback, description });
}

/** A finite decimal query parameter in `[min, max]`, `fallback` when absent. */
export function numberQuery(description: string, min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(DECIMAL_PATTERN, "must be a decimal number")
    .transform(Number)
    .pipe(z.number().min(min).max(max))
    .default(fallback)
    .openapi({ type: "number", minimum: min, maximum: max, default: fallback, description });
}

/**
 * `limit` of the public lists, whose maximum the spec states without an error: a larger one is
 * served at the maximum, and the answer's `limit` says so.
 */
export const clampedLimitQuery = z
  .string()
  .regex(DIGITS_PATTERN, "must be a non-negative integer")
  .transform(Number)
  .pipe(z.number().int().min(1))
  .transform((n) => Math.min(n, MAX_LIMIT))
  .default(DEFAULT_LIMIT)
  .openapi({
    type: "integer",
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `Items per page, at most ${MAX_LIMIT}: a larger limit is served as ` +
      `${MAX_LIMIT} (the answer's \`limit\` says so), not refused`,
  });

/** `skip` and `limit` of the public lists (technologies, categories, profiles). */
export const publicPageQueryShape = {
  skip: intQuery("Number of items to skip", 0, Number.MAX_SAFE_INTEGER, 0),
  limit: clampedLimitQuery,
};

/** `skip` and `limit` of the paginated lists. */
export const pageQueryShape = {
  skip: intQuery("Number of items to skip", 0, Number.MAX_SAFE_INTEGER, 0),
  limit: intQuery(`Items per page, at most ${MAX_LIMIT}`, 1, MAX_LIMIT, DEFAULT_LIMIT),
};

/** Filters of the technology lists. */
export const technologyQuerySchema = z.object({
  ...publicPageQueryShape,
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

/** Path parameter of a submission, profile or candidate. */
export const idParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
});

/** Query of the admin lists of submissions: which review state, and the page. */
export function submissionStatusQuery(description?: string) {
  return z.object({
    status: submissionStatusSchema.default("pending").openapi({
      default: "pending",
      ...(description ? { description } : {}),
    }),
    ...pageQueryShape,
  });
}

/** The members of a page of a paginated list besides its items. */
export const pageShape = {
  total: z.number().int().describe("Items matching the filters, on all pages"),
  skip: z.number().int(),
  limit: z.number().int(),
};

/** Query of the adapters: which instance. */
export const instanceIndexQuery = intQuery(
  "Index of the instance in the technology's `instances` (404 when there is none)",
  0,
  Number.MAX_SAFE_INTEGER,
  0,
);

/** Query of the adapters: whether to add the fuel's price and CO2 (default true). */
export const fuelQuery = z
  .enum(["true", "false"])
  .default("true")
  .transform((value) => value === "true")
  .openapi({
    type: "string",
    enum: ["true", "false"],
    default: "true",
    description: "`false`: leave the fuel out (PyPSA marginal_cost is variable O&M only and no " +
      "fuel Carrier; Calliope no om_con and no co2 cost class), for callers that price fuel " +
      "themselves",
  });

// Technologies ------------------------------------------------------------------------------

/** An instance as served, with OpenTech-DB's frontend members beside the spec's. */
export const instanceSchema = servedInstanceSchema
  .extend(opentechInstanceShape)
  .openapi("Instance", descriptionOf(servedInstanceSchema));

/** A technology with all instances. */
export const technologyDetailSchema = servedTechnologySchema
  .extend({ ...opentechTechnologyShape, instances: z.array(instanceSchema) })
  .openapi("TechnologyDetail");

/** A technology in a list, with OpenTech-DB's frontend members beside the spec's. */
export const technologySummarySchema = technologySummaryShape
  .extend(opentechSummaryShape)
  .openapi("TechnologySummary");

/** A page of technologies. */
export const technologyListSchema = z.object({
  total: z.number().int().describe("Technologies matching the filters"),
  skip: z.number().int(),
  limit: z.number().int(),
  technologies: z.array(technologySummarySchema),
}).openapi("TechnologyList");

// Adapters ----------------------------------------------------------------------------------

/** PyPSA parameters of one instance. */
export const pypsaSchema = named(pypsaResultSchema, "PyPSAParameters");

/** One technology in Calliope 0.6 form. */
export const calliopeTechSchema = named(calliopeTechShape, "CalliopeTech");

/** Calliope technologies keyed by technology id. */
export const calliopeConfigSchema = z.record(z.string(), calliopeTechSchema).openapi(
  "CalliopeConfig",
  descriptionOf(calliopeConfigShape),
);

/** One technology in Calliope 0.6 form with notes, omitted keys and units beside it. */
export const calliopeAnswerSchema = calliopeAnswerShape
  .catchall(calliopeTechSchema)
  .openapi("CalliopeAnswer");

/** A Calliope `techs` block. */
export const calliopeTechsSchema = calliopeTechsShape
  .extend({ techs: calliopeConfigSchema })
  .openapi("CalliopeTechs");

/** Constraint and cost overrides of a Calliope technology. */
export const calliopeOverridesSchema = named(CalliopeOverridesSchema, "CalliopeOverrides");

// Time series -------------------------------------------------------------------------------

/** Served profile metadata: a member the source lacks is null. */
export const profileMetadataSchema = named(servedProfileMetadataSchema, "ProfileMetadata");

/** A full profile: `values`, and `points` for OpenTech-DB's frontend. */
export const profileDataSchema = profileMetadataSchema
  .extend({ values: servedValuesSchema, ...profilePointsShape })
  .openapi("ProfileData");

// Submissions -------------------------------------------------------------------------------

/** A submitter or reviewer. */
export const personSchema = named(personShape, "Person");

/** The submitter and reviewer fields of a submission, with the named Person. */
const people = { submitted_by: personSchema, reviewed_by: personSchema.nullable() };

/** The answer to a submission: 202 with its id. */
export const submitResponseSchema = z.object({
  submission_id: z.string(),
  status: z.literal("pending"),
}).openapi("SubmitResponse");

/** Body of `POST /timeseries/submit`. */
export const timeseriesSubmissionRequestSchema = named(
  timeseriesSubmissionSchema,
  "TimeseriesSubmissionRequest",
);

/** A time-series submission as listed for review. */
export const timeseriesSubmissionRecordSchema = timeseriesSubmissionListingSchema
  .extend(people)
  .openapi("TimeseriesSubmission");

/** A technology submission as listed for review. */
export const technologySubmissionRecordSchema = technologySubmissionListingSchema
  .extend(people)
  .openapi("TechnologySubmission");

/** A page of time-series submissions. */
export const timeseriesSubmissionListSchema = z.object({
  ...pageShape,
  submissions: z.array(timeseriesSubmissionRecordSchema),
}).openapi("TimeseriesSubmissionList");

/** A page of technology submissions. */
export const technologySubmissionListSchema = z.object({
  ...pageShape,
  submissions: z.array(technologySubmissionRecordSchema),
}).openapi("TechnologySubmissionList");

// Diagnostics -------------------------------------------------------------------------------

/** How much the catalogue serves. */
export const countsShape = catalogueCountsSchema.shape;

/** One data file's loading status. */
export const dataFileSchema = named(dataFileReportSchema, "DataFile");

/** A problem in the data files. */
export const loadProblemSchema = named(loadProblemShape, "LoadProblem");

/** The approved additions applied, and those skipped. */
export const additionsSchema = additionCountsSchema.extend({
  skipped: z.array(skippedAdditionSchema).describe(
    "Approved additions not applied because the files now conflict with them",
  ),
});

/** The last reload attempt, with the named LoadProblem. */
export const reloadAttemptReportSchema = reloadAttemptSchema.extend({
  problems: z.array(loadProblemSchema),
});

// Sign-in -----------------------------------------------------------------------------------

/** The `/auth/me` profile, with OpenTech-DB's frontend members beside the spec's. */
export const userProfileSchema = ProfileSchema.extend(opentechUserShape).openapi("UserProfile");

// Scraper -----------------------------------------------------------------------------------

/** The scraper's status object. */
export const scraperStatusSchema = named(scraperStatusShape, "ScraperStatus");

/** Body of a scraper run request. */
export const scraperRunRequestSchema = named(runRequestSchema, "ScraperRunRequest");

/** What a finished run reports. */
export const scraperRunSummarySchema = named(runSummarySchema, "ScraperRunSummary");

/** A candidate the scraper found. */
export const scraperCandidateSchema = named(candidateSchema, "ScraperCandidate");

/** A page of candidates. */
export const scraperCandidateListSchema = z.object({
  total: z.number().int(),
  skip: z.number().int(),
  limit: z.number().int(),
  candidates: z.array(scraperCandidateSchema),
}).openapi("ScraperCandidateList");

/** An approved candidate and the instance added, with the named ScraperCandidate. */
export const scraperApprovalSchema = approvalSchema
  .extend({ candidate: scraperCandidateSchema })
  .openapi("ScraperApproval");
