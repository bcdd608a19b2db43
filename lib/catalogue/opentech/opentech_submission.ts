/**
 * Submissions as OpenTech-DB's frontend lists them: a technology submission as its
 * `SubmissionRecord` (`technology_name`, `status: pending_review | approved | rejected`,
 * `rejection_reason`, the `payload` its forms edit, ...) and a profile submission as its
 * `ProfileSubmissionRecord` (metadata at the top level, `stats`). Our own members stay beside
 * them (`submitted_by`, `reviewed_by`, `technology_id`, `merge`), under names that do not collide.
 *
 * Its status words differ from ours in one place: `pending_review` is our `pending`.
 */
import type { Person, SubmissionStatus } from "../submissions/submission_record.ts";
import type { TechnologySubmission } from "../submissions/technology_submission.ts";
import type { TimeseriesSubmission } from "../submissions/timeseries_submission.ts";
import { oeoClassName, payloadFromRecord } from "./technology_payload.ts";
import { profileStatistics } from "./profile_statistics.ts";
import { stepTimes } from "./profile_points.ts";

/** The frontend's word for a review state. */
export type OpentechStatus = "pending_review" | "approved" | "rejected";

/** The frontend's word for a review state. */
export function opentechStatus(status: SubmissionStatus): OpentechStatus {
  return status === "pending" ? "pending_review" : status;
}

/** Our review state of a status word of either vocabulary; undefined when neither. */
export function statusOfWord(word: string): SubmissionStatus | undefined {
  if (word === "pending_review" || word === "pending") return "pending";
  if (word === "approved" || word === "rejected") return word;
  return undefined;
}

/**
 * Who submitted, for the frontend's one submitter field (`submitter_email`): the admin's e-mail,
 * or the name and subject (an ORCID iD) of anyone else; tokens here carry no other e-mail.
 */
export function submitterOf(person: Person): string {
  return person.subject.startsWith("admin:")
    ? person.subject.slice("admin:".length)
    : `${person.name} (${person.subject})`;
}

/** A technology submission as the frontend lists it. */
export function opentechTechnologySubmission(s: TechnologySubmission) {
  return {
    submission_id: s.submission_id,
    technology_name: s.record.technology_name,
    submitted_at: s.submitted_at,
    status: opentechStatus(s.status),
    domain: s.record.domain,
    oeo_class: oeoClassName(s.record.oeo_class),
    description: s.record.description,
    submitter_email: submitterOf(s.submitted_by),
    rejection_reason: s.review_note ?? null,
    filename: "",
    payload: payloadFromRecord(s.record),
    technology_id: s.technology_id,
    merge: s.merge,
    submitted_by: s.submitted_by,
    reviewed_by: s.reviewed_by,
    reviewed_at: s.reviewed_at,
  };
}

/** A profile submission as the frontend lists it, with the statistics of its values. */
export function opentechProfileSubmission(s: TimeseriesSubmission) {
  const p = s.profile;
  return {
    submission_id: s.submission_id,
    profile_id: p.profile_id,
    name: p.name,
    type: p.type,
    resolution: p.resolution,
    location: p.location,
    source: p.source,
    carrier: p.carrier,
    year: p.year,
    unit: p.unit,
    description: p.description ?? null,
    n_timesteps: p.values.length,
    submitted_at: s.submitted_at,
    submitter_email: submitterOf(s.submitted_by),
    status: opentechStatus(s.status),
    rejection_reason: s.review_note ?? null,
    stats: profileStatistics(
      p.values,
      stepTimes({
        start: p.start ?? null,
        end: null,
        resolution: p.resolution,
        n_timesteps: p.values.length,
      }),
    ),
    submitted_by: s.submitted_by,
    reviewed_by: s.reviewed_by,
    reviewed_at: s.reviewed_at,
  };
}
