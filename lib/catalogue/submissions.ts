/**
 * Contributor submissions and their review: the request schemas (a time-series profile; a
 * technology record in the catalogue file format), the records kept in the state store, the
 * merge plan of a technology, and the desk that checks, stores and applies them.
 *
 * The desk runs every submission, review and scraper merge one at a time (one process writes
 * the state store), so a check against the served catalogue and the stored submissions and the
 * write that follows it cannot be overtaken: ids stay unique and each approval happens once.
 */
import { z } from "@hono/zod-openapi";
import { MAX_TIMESTEPS, profileMetadataSchema } from "../profiles/profile_schema.ts";
import { normaliseCatalogueTechnology } from "./catalogue_file.ts";
import type {
  CatalogueAddition,
  CatalogueService,
  ServedProfile,
  ServedTechnology,
} from "./catalogue_service.ts";
import { serialQueue } from "../concurrency/serial_queue.ts";
import {
  type CatalogueTechnology,
  catalogueTechnologySchema,
  type Instance,
  iriLastSegment,
  type Technology,
} from "./technology_schema.ts";

/** Review states of a submission. */
export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;

/** A submission's review state. */
export type SubmissionStatus = typeof SUBMISSION_STATUSES[number];

/** Who submitted or reviewed: the token's subject and display name. */
export interface Person {
  subject: string;
  name: string;
}

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
  })
  .openapi("TimeseriesSubmissionRequest");

/** A validated time-series submission body. */
export type TimeseriesSubmissionBody = z.infer<typeof timeseriesSubmissionSchema>;

/** The submitted profile with every member filled in (null where the body has none). */
export interface SubmittedProfile {
  profile_id: string;
  name: string;
  type: string | null;
  resolution: string;
  location: string | null;
  carrier: string | null;
  year: number | null;
  source: string | null;
  unit: string | null;
  values: number[];
}

/** A stored time-series submission. */
export interface TimeseriesSubmission {
  submission_id: string;
  status: SubmissionStatus;
  profile: SubmittedProfile;
  submitted_by: Person;
  submitted_at: string;
  reviewed_by: Person | null;
  reviewed_at: string | null;
}

/** Body of `POST /technologies/submit`: one technology record of a catalogue file. */
export const technologySubmissionSchema = catalogueTechnologySchema;

/** How an approved technology record joins the catalogue. */
export type MergeKind = "new_technology" | "new_instances";

/** A stored technology submission. */
export interface TechnologySubmission {
  submission_id: string;
  status: SubmissionStatus;
  technology_id: string;
  /** The record as submitted (catalogue format). */
  record: CatalogueTechnology;
  /** How it joins (joined, once approved) the catalogue. */
  merge: MergeKind;
  submitted_by: Person;
  submitted_at: string;
  reviewed_by: Person | null;
  reviewed_at: string | null;
}

/** Result of a conditional status change in the repository. */
export type StatusUpdate<T> =
  | { ok: true; submission: T }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "conflict"; submission: T };

/** What the desk needs from the state store. */
export interface SubmissionRepository {
  insertTimeseries(submission: TimeseriesSubmission): Promise<void>;
  /** Submissions in submission order; `values` included. */
  listTimeseries(status?: SubmissionStatus): Promise<TimeseriesSubmission[]>;
  getTimeseries(id: string): Promise<TimeseriesSubmission | undefined>;
  /** Whether a pending or approved submission uses the profile id. */
  profileIdInUse(profileId: string): Promise<boolean>;
  /** Approved submissions in approval order. */
  approvedTimeseries(): Promise<TimeseriesSubmission[]>;
  /** Moves a pending submission to approved or rejected; a conflict from any other state. */
  reviewTimeseries(
    id: string,
    status: "approved" | "rejected",
    by: Person,
    at: string,
  ): Promise<StatusUpdate<TimeseriesSubmission>>;
  insertTechnology(submission: TechnologySubmission): Promise<void>;
  listTechnology(status?: SubmissionStatus): Promise<TechnologySubmission[]>;
  getTechnology(id: string): Promise<TechnologySubmission | undefined>;
  /**
   * Approves a pending technology submission and stores its addition, both or neither; returns
   * the stored addition with its sequence number.
   */
  approveTechnology(
    id: string,
    by: Person,
    at: string,
    merge: MergeKind,
    addition: Omit<CatalogueAddition, "seq">,
  ): Promise<
    | { ok: true; submission: TechnologySubmission; addition: CatalogueAddition }
    | Exclude<StatusUpdate<TechnologySubmission>, { ok: true }>
  >;
  rejectTechnology(id: string, by: Person, at: string): Promise<StatusUpdate<TechnologySubmission>>;
  /** Stores an addition; undefined when one with the same origin id exists already. */
  insertAddition(addition: Omit<CatalogueAddition, "seq">): Promise<CatalogueAddition | undefined>;
  /** Every addition in approval order. */
  additions(): Promise<CatalogueAddition[]>;
}

/** The submitted profile with its defaults (resolution `1h`) and nulls. */
export function submittedProfile(body: TimeseriesSubmissionBody): SubmittedProfile {
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
    values: body.values,
  };
}

/** The served profile of an approved submission. */
export function servedSubmittedProfile(submission: TimeseriesSubmission): ServedProfile {
  const { profile } = submission;
  const reviewer = submission.reviewed_by;
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
    start: null,
    end: null,
    notes: [
      `Submitted by ${submission.submitted_by.name} (${submission.submitted_by.subject}) at ` +
      `${submission.submitted_at}, submission ${submission.submission_id}` +
      (reviewer ? `; approved by ${reviewer.name} at ${submission.reviewed_at}` : ""),
    ],
    origin: "submission",
    values: profile.values,
  };
}

/** Rules beyond the schema for one submitted record: unique instance ids, one OEO class. */
export function checkTechnologyRecord(record: CatalogueTechnology): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  record.instances.forEach((instance, i) => {
    const first = seen.get(instance.instance_id);
    if (first === undefined) seen.set(instance.instance_id, i);
    else {
      problems.push(
        `instances[${i}].instance_id: "${instance.instance_id}" is also instances[${first}]`,
      );
    }
  });
  const { oeo_class, oeo_uri } = record;
  if (oeo_class && oeo_uri && iriLastSegment(oeo_class) !== iriLastSegment(oeo_uri)) {
    problems.push(
      `oeo_uri: names class ${iriLastSegment(oeo_uri)} but oeo_class names ` +
        iriLastSegment(oeo_class),
    );
  }
  return problems;
}

/** How a record would join the catalogue, or why it cannot. */
export type MergePlan =
  | { ok: true; merge: MergeKind; instance_ids: string[] }
  | { ok: false; problems: string[] };

/**
 * The merge of `incoming` into the catalogue whose technology of the same id is `existing`: a
 * new technology, or new instances of the existing one (same domain, no instance id taken).
 */
export function planMerge(
  existing: Pick<ServedTechnology, "domain" | "instances"> | undefined,
  incoming: Technology,
): MergePlan {
  const instance_ids = incoming.instances.map((i) => i.instance_id);
  if (!existing) return { ok: true, merge: "new_technology", instance_ids };
  const problems: string[] = [];
  if (existing.domain !== incoming.domain) {
    problems.push(
      `domain: "${incoming.domain}" differs from the catalogue's "${existing.domain}" for ` +
        `technology "${incoming.technology_id}"`,
    );
  }
  const taken = new Set(existing.instances.map((i) => i.instance_id));
  incoming.instances.forEach((instance, i) => {
    if (taken.has(instance.instance_id)) {
      problems.push(
        `instances[${i}].instance_id: technology "${incoming.technology_id}" already has ` +
          `instance "${instance.instance_id}"`,
      );
    }
  });
  return problems.length
    ? { ok: false, problems }
    : { ok: true, merge: "new_instances", instance_ids };
}

/** A refused submission or review: 404 or 409 with the problems. */
export type Refusal =
  | { ok: false; reason: "not_found"; message: string }
  | { ok: false; reason: "conflict"; message: string; problems: string[] };

/** Outcome of a desk operation. */
export type DeskResult<T> = { ok: true; value: T } | Refusal;

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
}

/** Submissions, reviews and scraper merges, one at a time. */
export interface SubmissionDesk {
  submitTimeseries(
    body: TimeseriesSubmissionBody,
    by: Person,
  ): Promise<DeskResult<TimeseriesSubmission>>;
  reviewTimeseries(
    id: string,
    action: "approve" | "reject",
    by: Person,
  ): Promise<DeskResult<TimeseriesSubmission>>;
  submitTechnology(
    record: CatalogueTechnology,
    by: Person,
  ): Promise<DeskResult<TechnologySubmission>>;
  reviewTechnology(
    id: string,
    action: "approve" | "reject",
    by: Person,
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
  const serial = serialQueue();
  const at = () => deps.now().toISOString();

  return {
    submitTimeseries: (body, by) =>
      serial(async () => {
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
          profile: submittedProfile(body),
          submitted_by: by,
          submitted_at: at(),
          reviewed_by: null,
          reviewed_at: null,
        };
        await repository.insertTimeseries(submission);
        return { ok: true, value: submission };
      }),

    reviewTimeseries: (id, action, by) =>
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
        const update = await repository.reviewTimeseries(id, status, by, at());
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

    reviewTechnology: (id, action, by) =>
      serial(async () => {
        const current = await repository.getTechnology(id);
        if (!current) return notFound("Technology submission", id);
        if (current.status !== "pending") return notPending("Submission", id, current.status);
        const when = at();
        if (action === "reject") {
          const update = await repository.rejectTechnology(id, by, when);
          if (!update.ok) {
            return update.reason === "not_found"
              ? notFound("Technology submission", id)
              : notPending("Submission", id, update.submission.status);
          }
          return { ok: true, value: update.submission };
        }
        const technology = normaliseCatalogueTechnology(current.record);
        const plan = planMerge(
          catalogue.current().technology(technology.technology_id),
          technology,
        );
        if (!plan.ok) {
          return conflict(
            `Technology submission "${id}" no longer fits the catalogue; reject it`,
            plan.problems,
          );
        }
        const result = await repository.approveTechnology(id, by, when, plan.merge, {
          origin: "technology_submission",
          origin_id: id,
          technology_id: technology.technology_id,
          technology,
          instances: technology.instances,
          added_at: when,
          added_by: by.subject,
        });
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
