/**
 * Where the admins' edits and deletes of served technologies are kept: table `catalogue_edits`
 * of the state store, created when missing and never dropped, appended to and never changed; and
 * their removals of served profiles, table `catalogue_profile_removals`, kept the same way.
 *
 * An edit's `seq` comes from `catalogue_additions_seq`, the sequence of the approved additions
 * (`submission_repository.ts`), so edits and additions have one order between them; whichever
 * repository opens first creates the sequence. The technology is kept as JSON text, which gives
 * its numbers back exactly.
 */
import type { SqlValue, Store } from "../../store/store.ts";
import type { CatalogueEdit } from "../served/catalogue_edit.ts";
import type { ProfileRemoval } from "../served/profile_removal.ts";
import { ADDITIONS_TABLE } from "./submission_repository.ts";

/** What the catalogue editor needs from the state store. */
export interface CatalogueEditRepository {
  /** Stores an edit or delete; returns it with its sequence number. */
  insertEdit(edit: Omit<CatalogueEdit, "seq">): Promise<CatalogueEdit>;
  /** Every edit and delete, in `seq` order. */
  edits(): Promise<CatalogueEdit[]>;
  /** Stores a profile removal; returns it with its sequence number. */
  insertProfileRemoval(removal: Omit<ProfileRemoval, "seq">): Promise<ProfileRemoval>;
  /** Every profile removal, in `seq` order. */
  profileRemovals(): Promise<ProfileRemoval[]>;
}

/** Table of the admins' removals of served profiles. */
export const PROFILE_REMOVALS_TABLE = "catalogue_profile_removals";

/** Table of the admins' edits and deletes of served technologies. */
export const EDITS_TABLE = "catalogue_edits";

/** The sequence shared with the approved additions. */
const SEQUENCE = `${ADDITIONS_TABLE}_seq`;

const CREATE = [
  `CREATE SEQUENCE IF NOT EXISTS ${SEQUENCE} START 1`,
  `CREATE TABLE IF NOT EXISTS ${EDITS_TABLE} (
  seq BIGINT PRIMARY KEY DEFAULT nextval('${SEQUENCE}'),
  kind VARCHAR NOT NULL CHECK (kind IN ('edit', 'delete')),
  technology_id VARCHAR NOT NULL,
  technology_json VARCHAR,
  edited_at VARCHAR NOT NULL,
  edited_by VARCHAR NOT NULL,
  CHECK ((kind = 'edit') = (technology_json IS NOT NULL))
)`,
  `CREATE TABLE IF NOT EXISTS ${PROFILE_REMOVALS_TABLE} (
  seq BIGINT PRIMARY KEY DEFAULT nextval('${SEQUENCE}'),
  profile_id VARCHAR NOT NULL,
  removed_at VARCHAR NOT NULL,
  removed_by VARCHAR NOT NULL
)`,
];

interface EditRow {
  seq: number;
  kind: CatalogueEdit["kind"];
  technology_id: string;
  technology_json: string | null;
  edited_at: string;
  edited_by: string;
}

const COLUMNS = "seq, kind, technology_id, technology_json, edited_at, edited_by";

function toEdit(row: EditRow): CatalogueEdit {
  return {
    seq: row.seq,
    kind: row.kind,
    technology_id: row.technology_id,
    technology: row.technology_json === null ? null : JSON.parse(row.technology_json),
    edited_at: row.edited_at,
    edited_by: row.edited_by,
  };
}

/** Creates the edits table (and the shared sequence) when missing; existing rows are kept. */
export async function ensureEditTable(store: Store): Promise<void> {
  for (const sql of CREATE) await store.run(sql);
}

/** A CatalogueEditRepository over the state store; creates the table when missing. */
export async function createDuckDbCatalogueEditRepository(
  store: Store,
): Promise<CatalogueEditRepository> {
  await ensureEditTable(store);
  return {
    async insertEdit(e) {
      const params: SqlValue[] = [
        e.kind,
        e.technology_id,
        e.technology === null ? null : JSON.stringify(e.technology),
        e.edited_at,
        e.edited_by,
      ];
      const rows = await store.write<EditRow>(
        `INSERT INTO ${EDITS_TABLE} (kind, technology_id, technology_json, edited_at, ` +
          `edited_by) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        params,
      );
      const row = rows[0];
      if (!row) throw new Error(`Storing the ${e.kind} of "${e.technology_id}" returned no row`);
      return toEdit(row);
    },

    async edits() {
      const rows = await store.all<EditRow>(`SELECT ${COLUMNS} FROM ${EDITS_TABLE} ORDER BY seq`);
      return rows.map(toEdit);
    },

    async insertProfileRemoval(r) {
      const rows = await store.write<ProfileRemoval>(
        `INSERT INTO ${PROFILE_REMOVALS_TABLE} (profile_id, removed_at, removed_by) ` +
          `VALUES ($1, $2, $3) RETURNING seq, profile_id, removed_at, removed_by`,
        [r.profile_id, r.removed_at, r.removed_by],
      );
      const row = rows[0];
      if (!row) throw new Error(`Storing the removal of "${r.profile_id}" returned no row`);
      return { ...row, seq: Number(row.seq) };
    },

    async profileRemovals() {
      const rows = await store.all<ProfileRemoval>(
        `SELECT seq, profile_id, removed_at, removed_by FROM ${PROFILE_REMOVALS_TABLE} ` +
          "ORDER BY seq",
      );
      return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
    },
  };
}
