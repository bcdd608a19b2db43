/**
 * Technology submissions: the request body (one technology record in the catalogue file
 * format), the record kept in the state store, the listing an admin reviews, and the rules that
 * decide whether and how a record joins the catalogue (its merge plan).
 *
 * Merge: a record whose `technology_id` is new becomes a new technology; one whose technology
 * exists adds its instances to it (same domain required, instance ids must be new; the
 * technology's own fields stay as the catalogue has them).
 */
import { z } from "zod";
import type { ServedTechnology } from "../served/served_technology.ts";
import { submissionRecordShape } from "./submission_record.ts";
import {
  type CatalogueTechnology,
  catalogueTechnologySchema,
  iriLastSegment,
  type Technology,
} from "../schema/technology_schema.ts";

/** Body of `POST /technologies/submit`: one technology record of a catalogue file. */
export const technologySubmissionSchema = catalogueTechnologySchema;

/** How an approved technology record joins the catalogue. */
export const MERGE_KINDS = ["new_technology", "new_instances"] as const;

/** How an approved technology record joins the catalogue. */
export const mergeKindSchema = z.enum(MERGE_KINDS).describe(
  "`new_technology`: the record becomes a new technology; `new_instances`: its instances are " +
    "added to the existing technology of the same id",
);

/** How an approved technology record joins the catalogue. */
export type MergeKind = z.infer<typeof mergeKindSchema>;

const technologyFields = {
  technology_id: z.string(),
  /** How it joins (joined, once approved) the catalogue. */
  merge: mergeKindSchema,
};

const recordField = technologySubmissionSchema.describe(
  "The record as submitted (catalogue format)",
);

/** A stored technology submission. */
export const technologySubmissionRecordSchema = z.object({
  ...submissionRecordShape,
  ...technologyFields,
  record: recordField,
});

/** A stored technology submission. */
export type TechnologySubmission = z.infer<typeof technologySubmissionRecordSchema>;

/** A technology submission as listed for review: the record and the instances it adds. */
export const technologySubmissionListingSchema = z.object({
  ...submissionRecordShape,
  ...technologyFields,
  instance_ids: z.array(z.string()).describe("Instances the record adds"),
  record: recordField,
});

/** A technology submission as listed for review. */
export type TechnologySubmissionListing = z.infer<typeof technologySubmissionListingSchema>;

/** A stored submission as listed for review. */
export function technologyListing(s: TechnologySubmission): TechnologySubmissionListing {
  return {
    submission_id: s.submission_id,
    status: s.status,
    submitted_by: s.submitted_by,
    submitted_at: s.submitted_at,
    reviewed_by: s.reviewed_by,
    reviewed_at: s.reviewed_at,
    technology_id: s.technology_id,
    merge: s.merge,
    instance_ids: s.record.instances.map((i) => i.instance_id),
    record: s.record,
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
