/**
 * Time-series submissions: the request body (a profile with its values), the record kept in the
 * state store, the listing an admin reviews (metadata and statistics, not the values) and the
 * profile an approved submission serves.
 *
 * A profile uploaded as a file (OpenTech-DB's `POST /timeseries/upload`) also keeps the time of
 * its first step and a description, beside the spec's body. The spec's JSON submissions have
 * neither: their stored profile has no such members, and rows stored before the members existed
 * read back with both null (`readSubmittedProfile`). A profile with a start is served with its
 * `start` and `end`; one without, with both null as before.
 */
import { z } from "zod";
import { MAX_TIMESTEPS, profileMetadataSchema } from "../../profiles/profile_schema.ts";
import { max, mean, min } from "../../profiles/statistics.ts";
import { stepMs } from "../opentech/profile_points.ts";
import { isoUtc } from "../opentech/utc_timestamp.ts";
import type { ServedProfile } from "../served/served_profile.ts";
import { submissionRecordShape } from "./submission_record.ts";

/** Most out-of-range capacity factors named one by one. */
const MAX_VALUE_ISSUES = 20;

const profileShape = profileMetadataSchema.shape;

/** Body of `POST /timeseries/submit`. */
export const timeseriesSubmissionSchema = z
  .strictObject({
    profile_id: profileShape.profile_id,
    name: profileShape.name,
    type: profileShape.type.optional().describe(
      "`capacity_factor` (values must lie in [0, 1]), `load`, `price`, ...; null when omitted",
    ),
    resolution: profileShape.resolution.optional().describe("Step length; default `1h`"),
    location: profileShape.location.optional().describe("Country or region code"),
    carrier: profileShape.carrier.optional().describe("Energy carrier, e.g. `solar`"),
    year: profileShape.year.optional().describe("Data year"),
    source: profileShape.source.optional().describe("Source reference"),
    unit: z.string().min(1).optional().describe("Unit of the values, e.g. `per_unit`, `MW`"),
    values: z
      .array(z.number())
      .min(1)
      .max(MAX_TIMESTEPS)
      .describe(`One finite number per step, 1 to ${MAX_TIMESTEPS} values`),
  })
  .superRefine((body, ctx) => {
    if (body.type !== "capacity_factor") return;
    let outside = 0;
    body.values.forEach((v, i) => {
      if (v >= 0 && v <= 1) return;
      outside++;
      if (outside <= MAX_VALUE_ISSUES) {
        ctx.addIssue({
          code: "custom",
          path: ["values", i],
          message: `${v} is outside [0, 1] for a capacity factor`,
        });
      }
    });
    if (outside > MAX_VALUE_ISSUES) {
      ctx.addIssue({
        code: "custom",
        path: ["values"],
        message: `${outside - MAX_VALUE_ISSUES} more values outside [0, 1] for a capacity factor`,
      });
    }
  });

/** A validated time-series submission body. */
export type TimeseriesSubmissionBody = z.infer<typeof timeseriesSubmissionSchema>;

/** The submitted profile with every member filled in (null where the body has none). */
export const submittedProfileSchema = z.object({
  profile_id: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  resolution: z.string(),
  location: z.string().nullable(),
  carrier: z.string().nullable(),
  year: z.number().int().nullable(),
  source: z.string().nullable(),
  unit: z.string().nullable(),
  start: z.string().nullable().optional().describe(
    "Start of the first step, UTC (ISO 8601), of an uploaded file; null or absent if unknown",
  ),
  description: z.string().nullable().optional().describe(
    "The uploader's description; null or absent if none",
  ),
  values: z.array(z.number()),
});

/** The submitted profile with every member filled in. */
export type SubmittedProfile = z.infer<typeof submittedProfileSchema>;

/** A stored time-series submission. */
export const timeseriesSubmissionRecordSchema = z.object({
  ...submissionRecordShape,
  profile: submittedProfileSchema,
});

/** A stored time-series submission. */
export type TimeseriesSubmission = z.infer<typeof timeseriesSubmissionRecordSchema>;

/** A submission as listed for review: the metadata and statistics of its values. */
export const timeseriesSubmissionListingSchema = z.object({
  ...submissionRecordShape,
  profile: submittedProfileSchema.omit({ values: true }).extend({
    start: z.string().nullable().describe("Start of the first step, UTC; null if unknown"),
    description: z.string().nullable().describe("The uploader's description; null if none"),
    n_timesteps: z.number().int(),
    statistics: z.object({ min: z.number(), max: z.number(), mean: z.number() }).describe(
      "Of the submitted values, for the review",
    ),
  }).describe("The submitted metadata (values left out)"),
});

/** A submission as listed for review. */
export type TimeseriesSubmissionListing = z.infer<typeof timeseriesSubmissionListingSchema>;

/** What an uploaded file adds to a submission body. */
export interface SubmittedProfileExtras {
  /** Start of the first step, UTC (ISO 8601). */
  start?: string | null;
  description?: string | null;
}

/**
 * The submitted profile with its defaults (resolution `1h`) and nulls. With `extras` (an
 * uploaded file) it carries `start` and `description` too, null where not given; without, it has
 * neither member, as a JSON submission of the spec's body.
 */
export function submittedProfile(
  body: TimeseriesSubmissionBody,
  extras?: SubmittedProfileExtras,
): SubmittedProfile {
  const uploaded = extras === undefined
    ? {}
    : { start: extras.start ?? null, description: extras.description ?? null };
  return {
    profile_id: body.profile_id,
    name: body.name,
    type: body.type ?? null,
    resolution: body.resolution ?? "1h",
    location: body.location ?? null,
    carrier: body.carrier ?? null,
    year: body.year ?? null,
    source: body.source ?? null,
    unit: body.unit ?? null,
    ...uploaded,
    values: body.values,
  };
}

/**
 * A stored profile read back from its JSON text: `start` and `description` null where the row
 * has none (JSON submissions, and rows stored before uploads existed). Not validated again: the
 * text was written from a checked profile.
 */
export function readSubmittedProfile(json: string): SubmittedProfile {
  const profile = JSON.parse(json) as SubmittedProfile;
  return { ...profile, start: profile.start ?? null, description: profile.description ?? null };
}

/** Start of the last of `n` steps of `resolution` from `start`, UTC; null when not computable. */
function lastStep(start: string | null, resolution: string, n: number): string | null {
  const step = stepMs(resolution);
  const t = start === null ? NaN : Date.parse(start);
  if (step === undefined || Number.isNaN(t)) return null;
  return isoUtc(t + (n - 1) * step);
}

/** A submission as listed: the metadata and statistics of its values, not the values. */
export function timeseriesListing(s: TimeseriesSubmission): TimeseriesSubmissionListing {
  const { values, ...metadata } = s.profile;
  return {
    submission_id: s.submission_id,
    status: s.status,
    submitted_by: s.submitted_by,
    submitted_at: s.submitted_at,
    reviewed_by: s.reviewed_by,
    reviewed_at: s.reviewed_at,
    profile: {
      ...metadata,
      start: metadata.start ?? null,
      description: metadata.description ?? null,
      n_timesteps: values.length,
      statistics: { min: min(values), max: max(values), mean: mean(values) },
    },
  };
}

/**
 * The served profile of an approved submission: with a known start, its `end` is the start of
 * the last step (start + (n - 1) × resolution; uploads are evenly spaced); the uploader's
 * description becomes one of its notes.
 */
export function servedSubmittedProfile(submission: TimeseriesSubmission): ServedProfile {
  const { profile } = submission;
  const reviewer = submission.reviewed_by;
  const start = profile.start ?? null;
  return {
    profile_id: profile.profile_id,
    name: profile.name,
    type: profile.type,
    resolution: profile.resolution,
    location: profile.location,
    carrier: profile.carrier,
    year: profile.year,
    n_timesteps: profile.values.length,
    source: profile.source,
    unit: profile.unit,
    start,
    end: lastStep(start, profile.resolution, profile.values.length),
    notes: [
      `Submitted by ${submission.submitted_by.name} (${submission.submitted_by.subject}) at ` +
      `${submission.submitted_at}, submission ${submission.submission_id}` +
      (reviewer ? `; approved by ${reviewer.name} at ${submission.reviewed_at}` : ""),
      ...(profile.description ? [`Submitter's description: ${profile.description}`] : []),
    ],
    origin: "submission",
    values: profile.values,
  };
}
