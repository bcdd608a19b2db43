/**
 * The submission desk: checks, stores and applies contributor submissions, their review and the
 * scraper's merges into the served catalogue.
 *
 * The desk runs every submission, review and scraper merge one at a time (one process writes
 * the state store), so a check against the served catalogue and the stored submissions and the
 * write that follows it cannot be overtaken: ids stay unique and each approval happens once. A
 * record that no longer fits the catalogue at approval (it may have changed since the
 * submission) is refused and stays pending. A submitter has at most `maxPendingPerSubmitter`
 * submissions (technology and time series together) pending at once; more are refused until
 * some are reviewed.
 */
import { type Enqueue, serialQueue } from "../../concurrency/serial_queue.ts";
import { normaliseCatalogueTechnology } from "../loading/catalogue_file.ts";
import type { CatalogueService } from "../served/catalogue_service.ts";
import type { SubmissionRepository } from "./submission_repository.ts";
import type { Person, SubmissionStatus } from "./submission_record.ts";
import {
  checkTechnologyRecord,
  planMerge,
  type TechnologySubmission,
} from "./technology_submission.ts";
import type { CatalogueTechnology, Instance } from "../schema/technology_schema.ts";
import {
  servedSubmittedProfile,
  submittedProfile,
  type SubmittedProfileExtras,
  type TimeseriesSubmission,
  type TimeseriesSubmissionBody,
} from "./timeseries_submission.ts";

/**
 * A refused submission, review or admin edit: 404, 409 with the problems, 429 over the pending
 * limit, or 400 for an invalid request (an admin edit whose result is not a valid technology).
 */
export type Refusal =
  | { ok: false; reason: "not_found"; message: string }
  | { ok: false; reason: "conflict"; message: string; problems: string[] }
  | { ok: false; reason: "invalid"; message: string; problems: string[] }
  | { ok: false; reason: "limit"; message: string };

/** Pending submissions a submitter may have at once unless the desk is told otherwise. */
export const DEFAULT_MAX_PENDING = 100;

/** Outcome of a desk operation. */
export type DeskResult<T> = { ok: true; value: T } | Refusal;

/** A review decision. */
export type ReviewAction = "approve" | "reject";

/** Thrown by mergeScraped when the instance cannot join the catalogue. */
export class MergeConflictError extends Error {
  override name = "MergeConflictError";
}

/** Dependencies of the desk. */
export interface SubmissionDeskDeps {
  repository: SubmissionRepository;
  catalogue: CatalogueService;
  now: () => Date;
  newId?: () => string;
  /**
   * Most pending submissions (technology and time series together) of one submitter; default
   * DEFAULT_MAX_PENDING.
   */
  maxPendingPerSubmitter?: number;
  /**
   * The queue the desk's operations run on; default its own. Pass one shared with other writers
   * of the served catalogue (admin edits) so that none overtakes another's check.
   */
  serial?: Enqueue;
}

/** What a reviewer adds to a decision: a note, and (approving a technology) an edited record. */
export interface ReviewOptions {
  /** A rejection's reason or feedback on an approval, shown to the submitter. */
  note?: string | null;
  /** The record as the reviewer corrected it: checked again, approved and stored instead. */
  record?: CatalogueTechnology;
}

/** Submissions, reviews and scraper merges, one at a time. */
export interface SubmissionDesk {
  /** `extras`: what an uploaded file gives beside the body (its start, a description). */
  submitTimeseries(
    body: TimeseriesSubmissionBody,
    by: Person,
    extras?: SubmittedProfileExtras,
  ): Promise<DeskResult<TimeseriesSubmission>>;
  reviewTimeseries(
    id: string,
    action: ReviewAction,
    by: Person,
    options?: Pick<ReviewOptions, "note">,
  ): Promise<DeskResult<TimeseriesSubmission>>;
  submitTechnology(
    record: CatalogueTechnology,
    by: Person,
  ): Promise<DeskResult<TechnologySubmission>>;
  reviewTechnology(
    id: string,
    action: ReviewAction,
    by: Person,
    options?: ReviewOptions,
  ): Promise<DeskResult<TechnologySubmission>>;
  /**
   * Adds a scraper candidate's instance to its technology (once per candidate); throws
   * MergeConflictError when the technology is not served or has the instance id already.
   */
  mergeScraped(
    technologyId: string,
    instance: Instance,
    candidateId: string,
    by: Person,
  ): Promise<void>;
}

function notFound(what: string, id: string): Refusal {
  return { ok: false, reason: "not_found", message: `${what} "${id}" not found` };
}

function conflict(message: string, problems: string[] = []): Refusal {
  return { ok: false, reason: "conflict", message, problems };
}

function notPending(what: string, id: string, status: SubmissionStatus): Refusal {
  return conflict(
    `${what} "${id}" is ${status}, not pending: only pending submissions are reviewed`,
  );
}

/** The desk over a repository and the served catalogue. */
export function createSubmissionDesk(deps: SubmissionDeskDeps): SubmissionDesk {
  const { repository, catalogue } = deps;
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const maxPending = deps.maxPendingPerSubmitter ?? DEFAULT_MAX_PENDING;
  const serial = deps.serial ?? serialQueue();
  const at = () => deps.now().toISOString();

  /** The refusal of a submitter at the pending limit, or undefined. */
  const overLimit = async (by: Person): Promise<Refusal | undefined> => {
    const pending = await repository.countPendingBy(by.subject);
    if (pending < maxPending) return undefined;
    return {
      ok: false,
      reason: "limit",
      message: `${by.subject} has ${pending} submissions pending review, the most allowed is ` +
        `${maxPending}: submit more once some are reviewed`,
    };
  };

  return {
    submitTimeseries: (body, by, extras) =>
      serial(async () => {
        const limited = await overLimit(by);
        if (limited) return limited;
        const id = body.profile_id;
        if (catalogue.current().profile(id)) {
          return conflict(`Profile id "${id}" is already in the catalogue`);
        }
        if (await repository.profileIdInUse(id)) {
          return conflict(`Profile id "${id}" is already used by a pending or approved submission`);
        }
        const submission: TimeseriesSubmission = {
          submission_id: newId(),
          status: "pending",
          profile: submittedProfile(body, extras),
          submitted_by: by,
          submitted_at: at(),
          reviewed_by: null,
          reviewed_at: null,
        };
        await repository.insertTimeseries(submission);
        return { ok: true, value: submission };
      }),

    reviewTimeseries: (id, action, by, options = {}) =>
      serial(async () => {
        const current = await repository.getTimeseries(id);
        if (!current) return notFound("Time-series submission", id);
        if (current.status !== "pending") return notPending("Submission", id, current.status);
        const profileId = current.profile.profile_id;
        if (action === "approve" && catalogue.current().profile(profileId)) {
          return conflict(
            `Profile id "${profileId}" is now in the catalogue; reject this submission`,
          );
        }
        const status = action === "approve" ? "approved" : "rejected";
        const update = await repository.reviewTimeseries(id, status, by, at(), options.note);
        if (!update.ok) {
          return update.reason === "not_found"
            ? notFound("Time-series submission", id)
            : notPending("Submission", id, update.submission.status);
        }
        if (status === "approved") catalogue.addProfile(servedSubmittedProfile(update.submission));
        return { ok: true, value: update.submission };
      }),

    submitTechnology: (record, by) =>
      serial(async () => {
        const limited = await overLimit(by);
        if (limited) return limited;
        const problems = checkTechnologyRecord(record);
        const technology = normaliseCatalogueTechnology(record);
        const plan = planMerge(
          catalogue.current().technology(technology.technology_id),
          technology,
        );
        if (!plan.ok) problems.push(...plan.problems);
        if (problems.length > 0 || !plan.ok) {
          return conflict(
            `Technology "${record.technology_id}" cannot join the catalogue`,
            problems,
          );
        }
        const submission: TechnologySubmission = {
          submission_id: newId(),
          status: "pending",
          technology_id: record.technology_id,
          record,
          merge: plan.merge,
          submitted_by: by,
          submitted_at: at(),
          reviewed_by: null,
          reviewed_at: null,
        };
        await repository.insertTechnology(submission);
        return { ok: true, value: submission };
      }),

    reviewTechnology: (id, action, by, options = {}) =>
      serial(async () => {
        const current = await repository.getTechnology(id);
        if (!current) return notFound("Technology submission", id);
        if (current.status !== "pending") return notPending("Submission", id, current.status);
        const when = at();
        if (action === "reject") {
          const update = await repository.rejectTechnology(id, by, when, options.note);
          if (!update.ok) {
            return update.reason === "not_found"
              ? notFound("Technology submission", id)
              : notPending("Submission", id, update.submission.status);
          }
          return { ok: true, value: update.submission };
        }
        const record = options.record ?? current.record;
        const problems = options.record ? checkTechnologyRecord(options.record) : [];
        const technology = normaliseCatalogueTechnology(record);
        const plan = planMerge(
          catalogue.current().technology(technology.technology_id),
          technology,
        );
        if (!plan.ok) problems.push(...plan.problems);
        if (problems.length > 0 || !plan.ok) {
          return conflict(
            options.record
              ? `The edited record of technology submission "${id}" cannot join the catalogue`
              : `Technology submission "${id}" no longer fits the catalogue; reject it`,
            problems,
          );
        }
        const review = {
          note: options.note ?? null,
          ...(options.record ? { record: options.record } : {}),
        };
        const result = await repository.approveTechnology(id, by, when, plan.merge, {
          origin: "technology_submission",
          origin_id: id,
          technology_id: technology.technology_id,
          technology,
          instances: technology.instances,
          added_at: when,
          added_by: by.subject,
        }, review);
        if (!result.ok) {
          return result.reason === "not_found"
            ? notFound("Technology submission", id)
            : notPending("Submission", id, result.submission.status);
        }
        catalogue.addAddition(result.addition);
        return { ok: true, value: result.submission };
      }),

    mergeScraped: (technologyId, instance, candidateId, by) =>
      serial(async () => {
        const technology = catalogue.current().technology(technologyId);
        if (!technology) {
          throw new MergeConflictError(
            `Technology "${technologyId}" is not in the served catalogue`,
          );
        }
        if (technology.instances.some((i) => i.instance_id === instance.instance_id)) {
          throw new MergeConflictError(
            `Technology "${technologyId}" already has instance "${instance.instance_id}"`,
          );
        }
        const when = at();
        const addition = await repository.insertAddition({
          origin: "scraper_candidate",
          origin_id: candidateId,
          technology_id: technologyId,
          technology: null,
          instances: [instance],
          added_at: when,
          added_by: by.subject,
        });
        if (addition) catalogue.addAddition(addition);
      }),
  };
}
