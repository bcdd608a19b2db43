/**
 * Reviewing candidates: approval turns a candidate into a new catalogue instance that cites the
 * paper, rejection archives it.
 *
 * Approval claims the candidate first (pending -> approved in one conditional update, so two
 * admins cannot both merge it), then hands the instance to the caller's `merge`; if the merge
 * fails the claim is undone and the candidate is pending again.
 */
import { z } from "zod";
import {
  type Instance,
  INSTANCE_NUMBER_FIELDS,
  instanceSchema,
} from "../catalogue/schema/technology_schema.ts";
import {
  type Candidate,
  candidateSchema,
  type ScraperRepository,
  type StatusChange,
} from "./repository.ts";

/** Adds the instance to the technology in the catalogue; throws when it cannot. */
export type MergeInstance = (
  technology_id: string,
  instance: Instance,
  candidate: Candidate,
) => Promise<void>;

/** An approval as served: the approved candidate and the instance added to its technology. */
export const approvalSchema = z.object({
  candidate: candidateSchema,
  technology_id: z.string(),
  instance: instanceSchema,
});

/** An approval: the approved candidate and the instance added to its technology. */
export type Approval = z.infer<typeof approvalSchema>;

/** Result of approveCandidate. */
export type ApprovalResult =
  | ({ ok: true } & Approval)
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "conflict"; candidate: Candidate }
  /** The value has no catalogue field (e.g. EUR without an exchange rate) or breaks its range. */
  | { ok: false; reason: "not_convertible"; candidate: Candidate; message: string };

const NAME_LENGTH = 80;

/** A citation of the candidate's paper: authors (year). Title. DOI link, else its page. */
export function referenceSource(candidate: Candidate): string {
  const authors = candidate.authors.length > 2
    ? `${candidate.authors[0]} et al.`
    : candidate.authors.join(" and ");
  const year = candidate.year ?? "n.d.";
  const link = candidate.doi ? `https://doi.org/${candidate.doi}` : candidate.url;
  return `${authors ? `${authors} ` : ""}(${year}). ${candidate.title}. ${link}`;
}

/** Instance id for a candidate: `<technology_id>-scraper-<candidate id>`, in catalogue id form. */
export function candidateInstanceId(candidate: Pick<Candidate, "id" | "technology_id">): string {
  const id = candidate.id.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `${candidate.technology_id}-scraper-${id}`;
}

/**
 * The catalogue instance a candidate becomes: every figure null except the candidate's field,
 * citing the paper in `reference_source` and recording the extraction in `notes`; undefined
 * when the value has no catalogue field.
 */
export function candidateInstance(candidate: Candidate): Instance | undefined {
  if (candidate.catalogue_field === null || candidate.catalogue_value === null) return undefined;
  const title = candidate.title.length > NAME_LENGTH
    ? `${candidate.title.slice(0, NAME_LENGTH - 1)}…`
    : candidate.title;
  const figures = Object.fromEntries(INSTANCE_NUMBER_FIELDS.map((f) => [f, null])) as {
    [K in typeof INSTANCE_NUMBER_FIELDS[number]]: number | null;
  };
  figures[candidate.catalogue_field] = candidate.catalogue_value;
  const stated = candidate.unit === "%"
    ? `${candidate.value}%`
    : `${candidate.value} ${candidate.unit}`;
  return {
    instance_id: candidateInstanceId(candidate),
    instance_name: `${title} (${candidate.year ?? "n.d."})`,
    // The paper's publication year is not necessarily the year its figure stands for.
    year: null,
    lifecycle_stage: null,
    capacity_basis: null,
    ...figures,
    reference_source: referenceSource(candidate),
    source_technologies: [],
    notes: [
      `Literature value from scraper candidate ${candidate.id} (${candidate.extractor} ` +
      `extractor, confidence ${candidate.confidence}), found via ${candidate.source} ` +
      `${candidate.source_id}: "${candidate.matched_text}".`,
      `Stated as ${stated}; ${candidate.catalogue_field} = ${candidate.catalogue_value}.`,
    ],
  };
}

/** Inputs of approveCandidate. */
export interface ApprovalInputs {
  repository: ScraperRepository;
  id: string;
  merge: MergeInstance;
  now?: () => Date;
}

/** Approves a pending candidate and merges it into the catalogue as a new instance. */
export async function approveCandidate(inputs: ApprovalInputs): Promise<ApprovalResult> {
  const { repository, id } = inputs;
  const candidate = await repository.getCandidate(id);
  if (!candidate) return { ok: false, reason: "not_found" };
  if (candidate.status !== "pending") return { ok: false, reason: "conflict", candidate };
  const instance = candidateInstance(candidate);
  if (!instance) {
    const message = `${candidate.value} ${candidate.unit} has no catalogue field` +
      (candidate.currency && candidate.currency !== "USD"
        ? ` (no exchange rate for ${candidate.currency} was configured)`
        : "");
    return { ok: false, reason: "not_convertible", candidate, message };
  }
  const valid = instanceSchema.safeParse(instance);
  if (!valid.success) {
    const message = z.prettifyError(valid.error);
    return { ok: false, reason: "not_convertible", candidate, message };
  }
  const at = (inputs.now ?? (() => new Date()))().toISOString();
  const claimed = await repository.setCandidateStatus(id, "approved", {
    at,
    instance_id: instance.instance_id,
  });
  if (!claimed.ok) return claimed;
  try {
    await inputs.merge(candidate.technology_id, instance, claimed.candidate);
  } catch (error) {
    await repository.reopenCandidate(id);
    throw error;
  }
  return {
    ok: true,
    candidate: claimed.candidate,
    technology_id: candidate.technology_id,
    instance,
  };
}

/** Rejects (archives) a pending candidate. */
export async function rejectCandidate(
  repository: ScraperRepository,
  id: string,
  now: () => Date = () => new Date(),
): Promise<StatusChange> {
  return await repository.setCandidateStatus(id, "rejected", { at: now().toISOString() });
}
