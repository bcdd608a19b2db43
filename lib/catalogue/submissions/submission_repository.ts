/**
 * What the submission desk needs from the state store (`SubmissionRepository`), and its DuckDB
 * implementation: tables `timeseries_submissions`, `technology_submissions` and
 * `catalogue_additions`, created when missing and never dropped.
 *
 * User state lives in its own DuckDB file, `STATE_PATH` (default `data/state.duckdb`), apart
 * from the store that `pipelines/build_store.ts` rebuilds from the source files: a rebuild writes
 * a fresh file and renames it into place, which would drop any table written by users.
 *
 * Status changes are single conditional UPDATEs (`WHERE status = 'pending'`), so of two
 * concurrent reviews exactly one wins; approving a technology updates the submission and stores
 * its addition in one transaction. Inside a transaction (or `exclusive` task) only store calls
 * are awaited: parameters are serialised before it and rows converted after it. Records and
 * values are kept as JSON text, which gives numbers back exactly.
 *
 * A page of a list reads the ids of the page first and the records (their JSON text) of those
 * ids only, so listing never reads the values of submissions outside the page.
 */
import type { SqlValue, Store } from "../../store/store.ts";
import {
  checkPage,
  countRows,
  listRows,
  type PageRequest,
  type SubmissionFilter,
} from "./submission_pages.ts";

export { checkPage, type PageRequest, type SubmissionFilter };
import type { CatalogueAddition } from "../served/catalogue_addition.ts";
import type { Person, SubmissionStatus } from "./submission_record.ts";
import type { MergeKind, TechnologySubmission } from "./technology_submission.ts";
import type { CatalogueTechnology } from "../schema/technology_schema.ts";
import { readSubmittedProfile, type TimeseriesSubmission } from "./timeseries_submission.ts";

/** Result of a conditional status change in the repository. */
export type StatusUpdate<T> =
  | { ok: true; submission: T }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "conflict"; submission: T };

/** What the submission desk needs from the state store. */
export interface SubmissionRepository {
  insertTimeseries(submission: TimeseriesSubmission): Promise<void>;
  /** Submissions in submission order (or as `filter` says), all or one page; with `values`. */
  listTimeseries(
    status?: SubmissionStatus,
    page?: PageRequest,
    filter?: Omit<SubmissionFilter, "status">,
  ): Promise<TimeseriesSubmission[]>;
  /** How many time-series submissions have the status (all when undefined). */
  countTimeseries(
    status?: SubmissionStatus,
    filter?: Omit<SubmissionFilter, "status">,
  ): Promise<number>;
  getTimeseries(id: string): Promise<TimeseriesSubmission | undefined>;
  /** Whether a pending or approved submission uses the profile id. */
  profileIdInUse(profileId: string): Promise<boolean>;
  /** Approved submissions in approval order. */
  approvedTimeseries(): Promise<TimeseriesSubmission[]>;
  /**
   * Moves a pending submission to approved or rejected, with the reviewer's note; a conflict
   * from any other state.
   */
  reviewTimeseries(
    id: string,
    status: "approved" | "rejected",
    by: Person,
    at: string,
    note?: string | null,
  ): Promise<StatusUpdate<TimeseriesSubmission>>;
  insertTechnology(submission: TechnologySubmission): Promise<void>;
  /** Submissions in submission order (or as `filter` says), all or one page. */
  listTechnology(
    status?: SubmissionStatus,
    page?: PageRequest,
    filter?: Omit<SubmissionFilter, "status">,
  ): Promise<TechnologySubmission[]>;
  /** How many technology submissions have the status (all when undefined). */
  countTechnology(
    status?: SubmissionStatus,
    filter?: Omit<SubmissionFilter, "status">,
  ): Promise<number>;
  /** Pending submissions, technology and time series together, of one submitter (subject). */
  countPendingBy(subject: string): Promise<number>;
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
    /** The reviewer's note, and the record as the reviewer edited it (stored in its place). */
    review?: { note?: string | null; record?: CatalogueTechnology },
  ): Promise<
    | { ok: true; submission: TechnologySubmission; addition: CatalogueAddition }
    | Exclude<StatusUpdate<TechnologySubmission>, { ok: true }>
  >;
  rejectTechnology(
    id: string,
    by: Person,
    at: string,
    note?: string | null,
  ): Promise<StatusUpdate<TechnologySubmission>>;
  /** Stores an addition; undefined when one with the same origin id exists already. */
  insertAddition(addition: Omit<CatalogueAddition, "seq">): Promise<CatalogueAddition | undefined>;
  /** Every addition in approval order. */
  additions(): Promise<CatalogueAddition[]>;
}

/** Table of time-series submissions. */
export const TIMESERIES_TABLE = "timeseries_submissions";
/** Table of technology submissions. */
export const TECHNOLOGY_TABLE = "technology_submissions";
/** Table of approved additions to the technology catalogue. */
export const ADDITIONS_TABLE = "catalogue_additions";

const STATUS_CHECK = "CHECK (status IN ('pending', 'approved', 'rejected'))";

const CREATE = [
  `CREATE TABLE IF NOT EXISTS ${TIMESERIES_TABLE} (
  submission_id VARCHAR PRIMARY KEY,
  status VARCHAR NOT NULL ${STATUS_CHECK},
  profile_id VARCHAR NOT NULL,
  profile_json VARCHAR NOT NULL,
  submitted_by VARCHAR NOT NULL,
  submitted_at VARCHAR NOT NULL,
  reviewed_by VARCHAR,
  reviewed_at VARCHAR
)`,
  `CREATE TABLE IF NOT EXISTS ${TECHNOLOGY_TABLE} (
  submission_id VARCHAR PRIMARY KEY,
  status VARCHAR NOT NULL ${STATUS_CHECK},
  technology_id VARCHAR NOT NULL,
  record_json VARCHAR NOT NULL,
  merge VARCHAR NOT NULL CHECK (merge IN ('new_technology', 'new_instances')),
  submitted_by VARCHAR NOT NULL,
  submitted_at VARCHAR NOT NULL,
  reviewed_by VARCHAR,
  reviewed_at VARCHAR
)`,
  // The reviewer's note (a reason for a rejection, feedback on an approval), added after the
  // first release: tables made before it get the column, empty.
  `ALTER TABLE ${TIMESERIES_TABLE} ADD COLUMN IF NOT EXISTS review_note VARCHAR`,
  `ALTER TABLE ${TECHNOLOGY_TABLE} ADD COLUMN IF NOT EXISTS review_note VARCHAR`,
  `CREATE SEQUENCE IF NOT EXISTS ${ADDITIONS_TABLE}_seq START 1`,
  `CREATE TABLE IF NOT EXISTS ${ADDITIONS_TABLE} (
  seq BIGINT PRIMARY KEY DEFAULT nextval('${ADDITIONS_TABLE}_seq'),
  origin VARCHAR NOT NULL CHECK (origin IN ('technology_submission', 'scraper_candidate')),
  origin_id VARCHAR NOT NULL UNIQUE,
  technology_id VARCHAR NOT NULL,
  technology_json VARCHAR,
  instances_json VARCHAR NOT NULL,
  added_at VARCHAR NOT NULL,
  added_by VARCHAR NOT NULL
)`,
];

interface TimeseriesRow {
  submission_id: string;
  status: SubmissionStatus;
  profile_json: string;
  submitted_by: string;
  submitted_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  review_note: string | null;
}

interface TechnologyRow {
  submission_id: string;
  status: SubmissionStatus;
  technology_id: string;
  record_json: string;
  merge: MergeKind;
  submitted_by: string;
  submitted_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  review_note: string | null;
}

interface AdditionRow {
  seq: number;
  origin: CatalogueAddition["origin"];
  origin_id: string;
  technology_id: string;
  technology_json: string | null;
  instances_json: string;
  added_at: string;
  added_by: string;
}

const TIMESERIES_SELECT = `SELECT submission_id, status, profile_json, submitted_by, ` +
  `submitted_at, reviewed_by, reviewed_at, review_note FROM ${TIMESERIES_TABLE}`;
const TECHNOLOGY_SELECT = `SELECT submission_id, status, technology_id, record_json, merge, ` +
  `submitted_by, submitted_at, reviewed_by, reviewed_at, review_note FROM ${TECHNOLOGY_TABLE}`;
const TIMESERIES_RETURNING = "RETURNING submission_id, status, profile_json, submitted_by, " +
  "submitted_at, reviewed_by, reviewed_at, review_note";
const TECHNOLOGY_RETURNING = "RETURNING submission_id, status, technology_id, record_json, " +
  "merge, submitted_by, submitted_at, reviewed_by, reviewed_at, review_note";

function person(json: string): Person;
function person(json: string | null): Person | null;
function person(json: string | null): Person | null {
  return json === null ? null : JSON.parse(json) as Person;
}

function toTimeseries(row: TimeseriesRow): TimeseriesSubmission {
  return {
    submission_id: row.submission_id,
    status: row.status,
    profile: readSubmittedProfile(row.profile_json),
    submitted_by: person(row.submitted_by),
    submitted_at: row.submitted_at,
    reviewed_by: person(row.reviewed_by),
    reviewed_at: row.reviewed_at,
    ...(row.review_note === null ? {} : { review_note: row.review_note }),
  };
}

function toTechnology(row: TechnologyRow): TechnologySubmission {
  return {
    submission_id: row.submission_id,
    status: row.status,
    technology_id: row.technology_id,
    record: JSON.parse(row.record_json),
    merge: row.merge,
    submitted_by: person(row.submitted_by),
    submitted_at: row.submitted_at,
    reviewed_by: person(row.reviewed_by),
    reviewed_at: row.reviewed_at,
    ...(row.review_note === null ? {} : { review_note: row.review_note }),
  };
}

function toAddition(row: AdditionRow): CatalogueAddition {
  return {
    seq: row.seq,
    origin: row.origin,
    origin_id: row.origin_id,
    technology_id: row.technology_id,
    technology: row.technology_json === null ? null : JSON.parse(row.technology_json),
    instances: JSON.parse(row.instances_json),
    added_at: row.added_at,
    added_by: row.added_by,
  };
}

const ADDITION_RETURNING = "RETURNING seq, origin, origin_id, technology_id, technology_json, " +
  "instances_json, added_at, added_by";

const INSERT_ADDITION = `INSERT INTO ${ADDITIONS_TABLE} (origin, origin_id, technology_id, ` +
  `technology_json, instances_json, added_at, added_by) VALUES ($1, $2, $3, $4, $5, $6, $7) ` +
  `ON CONFLICT DO NOTHING ${ADDITION_RETURNING}`;

/** The parameters of INSERT_ADDITION, serialised before any transaction starts. */
function additionParams(a: Omit<CatalogueAddition, "seq">): SqlValue[] {
  return [
    a.origin,
    a.origin_id,
    a.technology_id,
    a.technology === null ? null : JSON.stringify(a.technology),
    JSON.stringify(a.instances),
    a.added_at,
    a.added_by,
  ];
}

/** Creates the submission tables when missing; existing rows are kept. */
export async function ensureSubmissionTables(store: Store): Promise<void> {
  for (const sql of CREATE) await store.run(sql);
}

/** A SubmissionRepository over the state store; creates the tables when missing. */
export async function createDuckDbSubmissionRepository(
  store: Store,
): Promise<SubmissionRepository> {
  await ensureSubmissionTables(store);

  const getTimeseries = async (id: string) => {
    const rows = await store.all<TimeseriesRow>(`${TIMESERIES_SELECT} WHERE submission_id = $1`, [
      id,
    ]);
    return rows[0] && toTimeseries(rows[0]);
  };
  const getTechnology = async (id: string) => {
    const rows = await store.all<TechnologyRow>(`${TECHNOLOGY_SELECT} WHERE submission_id = $1`, [
      id,
    ]);
    return rows[0] && toTechnology(rows[0]);
  };

  /** The outcome of a conditional update that changed no row. */
  async function missed<T>(
    get: () => Promise<T | undefined>,
  ): Promise<Exclude<StatusUpdate<T>, { ok: true }>> {
    const current = await get();
    return current ? { ok: false, reason: "conflict", submission: current } : {
      ok: false,
      reason: "not_found",
    };
  }

  return {
    async insertTimeseries(s) {
      await store.run(
        `INSERT INTO ${TIMESERIES_TABLE} (submission_id, status, profile_id, profile_json, ` +
          `submitted_by, submitted_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          s.submission_id,
          s.status,
          s.profile.profile_id,
          JSON.stringify(s.profile),
          JSON.stringify(s.submitted_by),
          s.submitted_at,
        ],
      );
    },

    async listTimeseries(status, page, filter = {}) {
      const rows = await listRows<TimeseriesRow>(
        store,
        TIMESERIES_TABLE,
        TIMESERIES_SELECT,
        { ...filter, status },
        page,
      );
      return rows.map(toTimeseries);
    },

    countTimeseries: (status, filter = {}) =>
      countRows(store, TIMESERIES_TABLE, { ...filter, status }),

    getTimeseries,

    async profileIdInUse(profileId) {
      const rows = await store.all(
        `SELECT 1 FROM ${TIMESERIES_TABLE} WHERE profile_id = $1 AND status IN ` +
          "('pending', 'approved') LIMIT 1",
        [profileId],
      );
      return rows.length > 0;
    },

    async approvedTimeseries() {
      const rows = await store.all<TimeseriesRow>(
        `${TIMESERIES_SELECT} WHERE status = 'approved' ORDER BY reviewed_at, submission_id`,
      );
      return rows.map(toTimeseries);
    },

    async reviewTimeseries(id, status, by, at, note = null) {
      const rows = await store.write<TimeseriesRow>(
        `UPDATE ${TIMESERIES_TABLE} SET status = $2, reviewed_by = $3, reviewed_at = $4, ` +
          `review_note = $5 WHERE submission_id = $1 AND status = 'pending' ` +
          TIMESERIES_RETURNING,
        [id, status, JSON.stringify(by), at, note],
      );
      return rows[0]
        ? { ok: true, submission: toTimeseries(rows[0]) }
        : await missed(() => getTimeseries(id));
    },

    async insertTechnology(s) {
      await store.run(
        `INSERT INTO ${TECHNOLOGY_TABLE} (submission_id, status, technology_id, record_json, ` +
          `merge, submitted_by, submitted_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          s.submission_id,
          s.status,
          s.technology_id,
          JSON.stringify(s.record),
          s.merge,
          JSON.stringify(s.submitted_by),
          s.submitted_at,
        ],
      );
    },

    async listTechnology(status, page, filter = {}) {
      const rows = await listRows<TechnologyRow>(
        store,
        TECHNOLOGY_TABLE,
        TECHNOLOGY_SELECT,
        { ...filter, status },
        page,
      );
      return rows.map(toTechnology);
    },

    countTechnology: (status, filter = {}) =>
      countRows(store, TECHNOLOGY_TABLE, { ...filter, status }),

    async countPendingBy(subject) {
      const pending = (table: string) =>
        `SELECT count(*) AS n FROM ${table} WHERE status = 'pending' AND ` +
        `json_extract_string(submitted_by, '$.subject') = $1`;
      const rows = await store.all<{ n: number }>(
        `SELECT (${pending(TIMESERIES_TABLE)}) + (${pending(TECHNOLOGY_TABLE)}) AS n`,
        [subject],
      );
      return rows[0]?.n ?? 0;
    },

    getTechnology,

    async approveTechnology(id, by, at, merge, addition, review = {}) {
      // Everything but the two statements is done outside, so the transaction holds the writer
      // only for them.
      const record = review.record === undefined ? null : JSON.stringify(review.record);
      const approveParams = [id, JSON.stringify(by), at, merge, review.note ?? null, record];
      const insertParams = additionParams(addition);
      const result = await store.transaction(async (tx) => {
        const [approved] = await tx.write<TechnologyRow>(
          `UPDATE ${TECHNOLOGY_TABLE} SET status = 'approved', reviewed_by = $2, ` +
            `reviewed_at = $3, merge = $4, review_note = $5, ` +
            `record_json = coalesce($6, record_json) ` +
            `WHERE submission_id = $1 AND status = 'pending' ${TECHNOLOGY_RETURNING}`,
          approveParams,
        );
        if (!approved) return undefined;
        const [stored] = await tx.write<AdditionRow>(INSERT_ADDITION, insertParams);
        if (!stored) throw new Error(`An addition for submission ${id} exists already`);
        return { approved, stored };
      });
      if (result) {
        return {
          ok: true,
          submission: toTechnology(result.approved),
          addition: toAddition(result.stored),
        };
      }
      return await missed(() => getTechnology(id));
    },

    async rejectTechnology(id, by, at, note = null) {
      const rows = await store.write<TechnologyRow>(
        `UPDATE ${TECHNOLOGY_TABLE} SET status = 'rejected', reviewed_by = $2, ` +
          `reviewed_at = $3, review_note = $4 WHERE submission_id = $1 AND status = 'pending' ` +
          TECHNOLOGY_RETURNING,
        [id, JSON.stringify(by), at, note],
      );
      return rows[0]
        ? { ok: true, submission: toTechnology(rows[0]) }
        : await missed(() => getTechnology(id));
    },

    async insertAddition(addition) {
      const params = additionParams(addition);
      const [stored] = await store.write<AdditionRow>(INSERT_ADDITION, params);
      return stored && toAddition(stored);
    },

    async additions() {
      const rows = await store.all<AdditionRow>(
        `SELECT seq, origin, origin_id, technology_id, technology_json, instances_json, ` +
          `added_at, added_by FROM ${ADDITIONS_TABLE} ORDER BY seq`,
      );
      return rows.map(toAddition);
    },
  };
}
