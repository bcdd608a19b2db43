/**
 * The admins' edits and deletes of served technologies (OpenTech-DB frontend's
 * `PATCH`/`DELETE /admin/technologies/{id}`): checked against the served catalogue, stored in the
 * state store, then applied to it. The files are never written; every snapshot applies the
 * stored edits (`../served/catalogue_snapshot.ts`), so they survive restarts and reloads.
 *
 * The editor runs on the queue of the submission desk (`serial`, passed in): an edit checks
 * against the catalogue as it is and stores before any review or other edit runs, so none
 * overtakes another's check.
 */
import type { Enqueue } from "../../concurrency/serial_queue.ts";
import type { CatalogueService } from "../served/catalogue_service.ts";
import { type ServedTechnology, serveTechnology } from "../served/served_technology.ts";
import type { CatalogueEditRepository } from "./catalogue_edit_repository.ts";
import type { DeskResult, Refusal } from "./submission_desk.ts";
import type { Person } from "./submission_record.ts";
import { applyTechnologyPatch, type TechnologyPatch } from "./technology_patch.ts";

/** Dependencies of the editor. */
export interface CatalogueEditorDeps {
  repository: CatalogueEditRepository;
  catalogue: CatalogueService;
  now: () => Date;
  /** The submission desk's queue (`serialQueue()`), shared so edits and reviews run in turn. */
  serial: Enqueue;
}

/** What a delete answers: the technology that was removed. */
export interface RemovedTechnology {
  technology_id: string;
  technology_name: string;
}

/** Edits and deletes of served technologies, one at a time with the desk's work. */
export interface CatalogueEditor {
  /**
   * Applies `patch` to the served technology and stores the result; refused as `not_found` when
   * the technology is not served, `invalid` with every problem (`path: message`) when the
   * result is not a valid technology. Answers the technology as now served.
   */
  edit(
    technologyId: string,
    patch: TechnologyPatch,
    by: Person,
  ): Promise<DeskResult<ServedTechnology>>;
  /** Stops serving the technology (stored as a delete); `not_found` when it is not served. */
  remove(technologyId: string, by: Person): Promise<DeskResult<RemovedTechnology>>;
  /** Stops serving the profile (stored as a removal); `not_found` when it is not served. */
  removeProfile(profileId: string, by: Person): Promise<DeskResult<{ profile_id: string }>>;
}

function notFound(id: string): Refusal {
  return { ok: false, reason: "not_found", message: `Technology "${id}" not found` };
}

/** The editor over a repository and the served catalogue. */
export function createCatalogueEditor(deps: CatalogueEditorDeps): CatalogueEditor {
  const { repository, catalogue, serial } = deps;
  const at = () => deps.now().toISOString();

  return {
    edit: (technologyId, patch, by) =>
      serial(async () => {
        const current = catalogue.current().technology(technologyId);
        if (!current) return notFound(technologyId);
        const result = applyTechnologyPatch(current, patch);
        if (!result.ok) {
          return {
            ok: false,
            reason: "invalid",
            message: `The edit of technology "${technologyId}" is not a valid technology: ` +
              result.problems.join("; "),
            problems: result.problems,
          };
        }
        const edit = await repository.insertEdit({
          kind: "edit",
          technology_id: technologyId,
          technology: result.technology,
          edited_at: at(),
          edited_by: by.subject,
        });
        const served = catalogue.applyEdit(edit).technology(technologyId);
        return { ok: true, value: served ?? serveTechnology(result.technology) };
      }),

    remove: (technologyId, by) =>
      serial(async () => {
        const current = catalogue.current().technology(technologyId);
        if (!current) return notFound(technologyId);
        const edit = await repository.insertEdit({
          kind: "delete",
          technology_id: technologyId,
          technology: null,
          edited_at: at(),
          edited_by: by.subject,
        });
        catalogue.applyEdit(edit);
        return {
          ok: true,
          value: { technology_id: technologyId, technology_name: current.technology_name },
        };
      }),

    removeProfile: (profileId, by) =>
      serial(async () => {
        if (!catalogue.current().profile(profileId)) {
          return { ok: false, reason: "not_found", message: `Profile "${profileId}" not found` };
        }
        await repository.insertProfileRemoval({
          profile_id: profileId,
          removed_at: at(),
          removed_by: by.subject,
        });
        catalogue.removeProfile(profileId);
        return { ok: true, value: { profile_id: profileId } };
      }),
  };
}
