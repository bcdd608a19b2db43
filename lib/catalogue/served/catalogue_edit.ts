/**
 * An admin's edit or delete of a served technology, as stored in the state store and applied on
 * every snapshot (the catalogue files are never written).
 *
 * An edit stores the whole technology as it is after the edit, so applying it needs nothing but
 * the record; a delete stores none. Edits take their `seq` from the same sequence as the approved
 * additions (`catalogue_additions_seq`), so both apply in the one order they happened in.
 */
import type { Technology } from "../schema/technology_schema.ts";

/** What an admin did to a technology. */
export type CatalogueEditKind = "edit" | "delete";

/** An admin's edit or delete of a served technology, as stored. */
export interface CatalogueEdit {
  /** Order among edits and approved additions (one sequence for both). */
  seq: number;
  kind: CatalogueEditKind;
  technology_id: string;
  /** The whole technology after the edit (served/stored form); null for a delete. */
  technology: Technology | null;
  /** ISO 8601. */
  edited_at: string;
  /** Subject of the admin who made it. */
  edited_by: string;
}
