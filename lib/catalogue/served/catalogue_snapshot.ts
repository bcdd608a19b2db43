/**
 * One consistent, immutable view of the served catalogue: the technologies and profiles of the
 * source files with the approved additions, the admins' edits and deletes, and the submitted
 * profiles applied in order.
 *
 * Merge rule: approved additions and admin edits share one sequence and apply together in its
 * order, so a delete followed by an approved submission of the same id serves the submission. An
 * addition whose technology is not in the catalogue adds the technology (a technology submission
 * carries the whole record); one whose technology exists adds its instances to it, keeping the
 * technology's own fields. An edit replaces the whole technology, in its place (a later change of
 * that technology in the files stays hidden behind it); a delete removes it. An instance whose id
 * the technology already has, a scraper instance whose technology is gone, an edit or delete of
 * a technology that is not there, and a submitted profile whose id a file now uses are skipped
 * and reported (`skipped`).
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { AdditionCounts, CatalogueAddition, SkippedAddition } from "./catalogue_addition.ts";
import type { CatalogueEdit } from "./catalogue_edit.ts";
import type { SourceData } from "./read_sources.ts";
import {
  profileMetadata,
  type ServedProfile,
  type ServedProfileMetadata,
} from "./served_profile.ts";
import {
  type ServedTechnology,
  serveInstance,
  serveTechnology,
  summarise,
  type TechnologySummary,
} from "./served_technology.ts";
import type { Instance } from "../schema/technology_schema.ts";
import { withOpentechMembers } from "../opentech/opentech_technology.ts";
import { withProfilePoints } from "../opentech/profile_points.ts";

/** How much a snapshot serves. */
export const catalogueCountsSchema = z.object({
  technologies: z.number().int(),
  instances: z.number().int(),
  profiles: z.number().int(),
});

/** How much a snapshot serves. */
export type CatalogueCounts = z.infer<typeof catalogueCountsSchema>;

/** One consistent view of the served catalogue. */
export interface CatalogueSnapshot {
  /**
   * `<file versions>+<12 hex digits>`: changes with any file content, approved addition or admin
   * edit.
   */
  readonly version: string;
  readonly source: SourceData;
  readonly technologies: readonly ServedTechnology[];
  readonly summaries: readonly TechnologySummary[];
  readonly profiles: readonly ServedProfileMetadata[];
  readonly counts: CatalogueCounts;
  readonly additions: AdditionCounts;
  readonly skipped: readonly SkippedAddition[];
  technology(id: string): ServedTechnology | undefined;
  profile(id: string): ServedProfile | undefined;
  /**
   * The detail response of a technology as JSON text, made once per snapshot: the served
   * technology with OpenTech-DB's frontend members beside the spec's.
   */
  technologyJson(id: string): string | undefined;
  /** `GET /timeseries/{id}/data` as JSON text (with `points`), made once per profile. */
  profileDataJson(id: string): string | undefined;
}

/** Adds `incoming` instances to `target` where their ids are new; returns the skipped ids. */
function addInstances(target: ServedTechnology, incoming: readonly Instance[]): string[] {
  const ids = new Set(target.instances.map((i) => i.instance_id));
  const skipped: string[] = [];
  for (const instance of incoming) {
    if (ids.has(instance.instance_id)) skipped.push(instance.instance_id);
    else {
      ids.add(instance.instance_id);
      target.instances.push(serveInstance(instance));
    }
  }
  return skipped;
}

/** JSON text of each profile's data response, kept as long as the profile object lives. */
const profileJsonCache = new WeakMap<ServedProfile, string>();

/**
 * Applies an admin edit (replaces the technology in its place) or delete to `technologies` and
 * `byId`; returns why it was skipped, or undefined.
 */
function applyEdit(
  technologies: ServedTechnology[],
  byId: Map<string, ServedTechnology>,
  edit: CatalogueEdit,
): string | undefined {
  const id = edit.technology_id;
  const existing = byId.get(id);
  const at = existing ? technologies.indexOf(existing) : -1;
  if (at < 0) return `admin ${edit.kind} of technology "${id}": it is not in the catalogue`;
  if (edit.kind === "delete") {
    technologies.splice(at, 1);
    byId.delete(id);
    return undefined;
  }
  if (!edit.technology) return `admin edit of technology "${id}" has no record`;
  // Served under the id it was stored for, whatever the record says.
  const edited = serveTechnology({ ...edit.technology, technology_id: id });
  technologies[at] = edited;
  byId.set(id, edited);
  return undefined;
}

/** An approved addition or an admin edit: the steps applied over the files, by `seq`. */
type Step = { addition: CatalogueAddition; edit?: never } | { edit: CatalogueEdit };

/**
 * Builds the snapshot of `source` with the additions and edits applied together in `seq` order,
 * then the submitted profiles.
 */
export function buildSnapshot(
  source: SourceData,
  additions: readonly CatalogueAddition[],
  submittedProfiles: readonly ServedProfile[],
  edits: readonly CatalogueEdit[] = [],
  hiddenFileProfiles: ReadonlySet<string> = new Set(),
): CatalogueSnapshot {
  const technologies = source.technologies.map(serveTechnology);
  const byId = new Map(technologies.map((t) => [t.technology_id, t]));
  const skipped: SkippedAddition[] = [];
  let applied = 0;
  let instancesAdded = 0;
  const steps: Step[] = [
    ...additions.map((addition) => ({ addition })),
    ...edits.map((edit) => ({ edit })),
  ];
  const seqOf = (step: Step) => step.edit ? step.edit.seq : step.addition.seq;
  steps.sort((a, b) => seqOf(a) - seqOf(b));
  for (const step of steps) {
    if (step.edit) {
      const reason = applyEdit(technologies, byId, step.edit);
      if (reason) skipped.push({ origin: "admin_edit", origin_id: String(step.edit.seq), reason });
      continue;
    }
    const { addition } = step;
    const existing = byId.get(addition.technology_id);
    const skip = (reason: string) =>
      skipped.push({ origin: addition.origin, origin_id: addition.origin_id, reason });
    if (existing) {
      const before = existing.instances.length;
      const dropped = addInstances(existing, addition.instances);
      instancesAdded += existing.instances.length - before;
      if (dropped.length > 0) {
        skip(
          `technology "${addition.technology_id}" already has instance(s) ${dropped.join(", ")}`,
        );
      }
      if (dropped.length < addition.instances.length) applied++;
    } else if (addition.technology) {
      const added = serveTechnology({ ...addition.technology, instances: addition.instances });
      technologies.push(added);
      byId.set(added.technology_id, added);
      instancesAdded += added.instances.length;
      applied++;
    } else {
      skip(`technology "${addition.technology_id}" is not in the catalogue`);
    }
  }

  // Profiles of the files an admin removed are not served (see profile_removal.ts).
  const profiles = source.profiles.filter((p) => !hiddenFileProfiles.has(p.profile_id));
  const profileById = new Map(profiles.map((p) => [p.profile_id, p]));
  let profilesAdded = 0;
  for (const profile of submittedProfiles) {
    if (profileById.has(profile.profile_id)) {
      skipped.push({
        origin: "timeseries_submission",
        origin_id: profile.profile_id,
        reason: `profile id "${profile.profile_id}" is also in the catalogue files`,
      });
      continue;
    }
    profiles.push(profile);
    profileById.set(profile.profile_id, profile);
    profilesAdded++;
  }

  const versionHash = createHash("sha256").update(source.fingerprint);
  for (const a of additions) versionHash.update(`\n${a.seq}:${a.origin_id}`);
  for (const p of submittedProfiles) versionHash.update(`\nprofile:${p.profile_id}`);
  // Stored edits never change, so the sequence number names one.
  for (const e of edits) versionHash.update(`\nedit:${e.seq}`);
  for (const id of [...hiddenFileProfiles].sort()) versionHash.update(`\nhidden:${id}`);
  const version = `${source.versions.join("/") || "0"}+${versionHash.digest("hex").slice(0, 12)}`;

  const technologyJson = new Map<string, string>();
  const metadata = profiles.map(profileMetadata);
  return {
    version,
    source,
    technologies,
    summaries: technologies.map(summarise),
    profiles: metadata,
    counts: {
      technologies: technologies.length,
      instances: technologies.reduce((n, t) => n + t.instances.length, 0),
      profiles: profiles.length,
    },
    additions: { applied, instances_added: instancesAdded, profiles_added: profilesAdded },
    skipped,
    technology: (id) => byId.get(id),
    profile: (id) => profileById.get(id),
    technologyJson(id) {
      let text = technologyJson.get(id);
      if (text === undefined) {
        const technology = byId.get(id);
        if (!technology) return undefined;
        text = JSON.stringify(withOpentechMembers(technology));
        technologyJson.set(id, text);
      }
      return text;
    },
    profileDataJson(id) {
      const profile = profileById.get(id);
      if (!profile) return undefined;
      let text = profileJsonCache.get(profile);
      if (text === undefined) {
        text = JSON.stringify(withProfilePoints(profile));
        profileJsonCache.set(profile, text);
      }
      return text;
    },
  };
}
