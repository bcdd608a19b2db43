/**
 * What every contributor submission records besides its content: its review state, who
 * submitted and who reviewed it, and when.
 */
import { z } from "zod";

/** Review states of a submission. */
export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;

/** A submission's review state. */
export const submissionStatusSchema = z.enum(SUBMISSION_STATUSES);

/** A submission's review state. */
export type SubmissionStatus = z.infer<typeof submissionStatusSchema>;

/** Who submitted or reviewed: the token's subject and display name. */
export const personSchema = z.object({
  subject: z.string().describe("Token subject: ORCID iD, admin:<e-mail> or session-store id"),
  name: z.string(),
});

/** Who submitted or reviewed. */
export type Person = z.infer<typeof personSchema>;

/** Fields every submission record has. */
export const submissionRecordShape = {
  submission_id: z.string().describe("Identifier (UUID)"),
  status: submissionStatusSchema,
  submitted_by: personSchema,
  submitted_at: z.string().describe("ISO 8601"),
  reviewed_by: personSchema.nullable(),
  reviewed_at: z.string().nullable().describe("ISO 8601; null while pending"),
  review_note: z.string().optional().describe(
    "The reviewer's note: a rejection's reason or feedback on an approval (absent when none)",
  ),
};
