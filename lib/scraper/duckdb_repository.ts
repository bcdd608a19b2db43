/**
 * ScraperRepository over the project's DuckDB store: tables `scraper_runs` and
 * `scraper_candidates`, created when missing and never dropped (they are user state, kept
 * across catalogue rebuilds).
 *
 * Duplicates are refused inside the insert statement itself (`INSERT … SELECT … WHERE NOT
 * EXISTS` on both keys), backed by two unique keys, (paper_key, technology_id, parameter) and
 * (source_key, technology_id, parameter), so concurrent inserts of one finding store it once.
 * Status changes are single conditional UPDATEs (`WHERE status = 'pending'`), so of two
 * concurrent reviews exactly one wins.
 *
 * The INSERTs and UPDATEs that return rows go through `store.write()`, on the store's writer
 * queue like `store.run()`; plain SELECTs run on its reader connections. None of
 * these writes is batched (see `createBatchAppender`): a run row must exist before its UPDATE,
 * and each candidate insert reports whether it was stored or refused as a duplicate.
 */
import type { SqlValue, Store } from "../store/store.ts";
import { paperKey, sourceKey } from "./paper.ts";
import type {
  Candidate,
  CandidateFilter,
  NewCandidate,
  RunError,
  RunRecord,
  RunStatus,
  ScraperRepository,
  StatusChange,
} from "./repository.ts";

/** Table of run records. */
export const RUNS_TABLE = "scraper_runs";

/** Table of candidates. */
export const CANDIDATES_TABLE = "scraper_candidates";

const CREATE_RUNS = `CREATE TABLE IF NOT EXISTS ${RUNS_TABLE} (
  run_id VARCHAR PRIMARY KEY,
  started_at VARCHAR NOT NULL,
  finished_at VARCHAR,
  status VARCHAR NOT NULL CHECK (status IN ('running', 'completed', 'partial', 'failed')),
  sources VARCHAR NOT NULL,
  technology_ids VARCHAR NOT NULL,
  total_papers INTEGER NOT NULL DEFAULT 0,
  candidates_created INTEGER NOT NULL DEFAULT 0,
  errors VARCHAR NOT NULL DEFAULT '[]'
)`;

const CREATE_CANDIDATES = `CREATE TABLE IF NOT EXISTS ${CANDIDATES_TABLE} (
  id VARCHAR PRIMARY KEY,
  status VARCHAR NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  run_id VARCHAR NOT NULL,
  technology_id VARCHAR NOT NULL,
  parameter VARCHAR NOT NULL,
  value DOUBLE NOT NULL,
  unit VARCHAR NOT NULL,
  currency VARCHAR,
  catalogue_field VARCHAR,
  catalogue_value DOUBLE,
  matched_text VARCHAR NOT NULL,
  context VARCHAR,
  confidence DOUBLE NOT NULL,
  extractor VARCHAR NOT NULL,
  paper_key VARCHAR NOT NULL,
  source_key VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  source_id VARCHAR NOT NULL,
  doi VARCHAR,
  title VARCHAR NOT NULL,
  abstract VARCHAR,
  url VARCHAR NOT NULL,
  year INTEGER,
  authors VARCHAR NOT NULL,
  created_at VARCHAR NOT NULL,
  reviewed_at VARCHAR,
  instance_id VARCHAR,
  UNIQUE (paper_key, technology_id, parameter),
  UNIQUE (source_key, technology_id, parameter)
)`;

const CANDIDATE_COLUMNS = [
  "id",
  "status",
  "run_id",
  "technology_id",
  "parameter",
  "value",
  "unit",
  "currency",
  "catalogue_field",
  "catalogue_value",
  "matched_text",
  "context",
  "confidence",
  "extractor",
  "paper_key",
  "source",
  "source_id",
  "doi",
  "title",
  "abstract",
  "url",
  "year",
  "authors",
  "created_at",
  "reviewed_at",
  "instance_id",
] as const;

/** Columns an insert writes, in the order of candidateValues(). */
const INSERT_COLUMNS = [
  ...CANDIDATE_COLUMNS.slice(0, CANDIDATE_COLUMNS.indexOf("paper_key") + 1),
  "source_key",
  ...CANDIDATE_COLUMNS.slice(
    CANDIDATE_COLUMNS.indexOf("source"),
    CANDIDATE_COLUMNS.indexOf("created_at") + 1,
  ),
];

const param = (column: string) => `$${INSERT_COLUMNS.indexOf(column) + 1}`;

// One statement checks both keys and inserts, so no other write runs between the check and the
// insert on the store's writer connection. It is three times faster than `ON CONFLICT DO
// NOTHING` in DuckDB; the unique keys stay as the backstop.
const INSERT_CANDIDATE = `INSERT INTO ${CANDIDATES_TABLE} (${INSERT_COLUMNS.join(", ")})` +
  ` SELECT ${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")}` +
  ["paper_key", "source_key"].map((key) =>
    ` ${key === "paper_key" ? "WHERE" : "AND"} NOT EXISTS (SELECT 1 FROM ${CANDIDATES_TABLE}` +
    ` WHERE ${key} = ${param(key)} AND technology_id = ${param("technology_id")}` +
    ` AND parameter = ${param("parameter")})`
  ).join("") +
  " RETURNING id";

const SELECT_CANDIDATE = `SELECT ${CANDIDATE_COLUMNS.join(", ")} FROM ${CANDIDATES_TABLE}`;

type CandidateRow = Omit<Candidate, "authors"> & { authors: string };

interface RunRow {
  run_id: string;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  sources: string;
  technology_ids: string;
  total_papers: number;
  candidates_created: number;
  errors: string;
}

/** Creates the scraper tables when missing; existing rows are kept. */
export async function ensureScraperTables(store: Pick<Store, "run">): Promise<void> {
  await store.run(CREATE_RUNS);
  await store.run(CREATE_CANDIDATES);
}

function toCandidate(row: CandidateRow): Candidate {
  return { ...row, authors: JSON.parse(row.authors) as string[] };
}

function toRun(row: RunRow): RunRecord {
  return {
    ...row,
    sources: JSON.parse(row.sources) as string[],
    technology_ids: JSON.parse(row.technology_ids) as string[],
    errors: JSON.parse(row.errors) as RunError[],
  };
}

function candidateValues(candidate: NewCandidate): SqlValue[] {
  const { paper, extracted } = candidate;
  return [
    candidate.id,
    "pending",
    candidate.run_id,
    candidate.technology_id,
    extracted.parameter,
    extracted.value,
    extracted.unit,
    extracted.currency ?? null,
    extracted.catalogue_field ?? null,
    extracted.catalogue_value ?? null,
    extracted.matched_text,
    extracted.context ?? null,
    extracted.confidence,
    candidate.extractor,
    paperKey(paper),
    sourceKey(paper),
    paper.source,
    paper.source_id,
    paper.doi ?? null,
    paper.title,
    paper.abstract ?? null,
    paper.url,
    paper.year ?? null,
    JSON.stringify(paper.authors ?? []),
    candidate.created_at,
  ];
}

function pageClause(filter: CandidateFilter, params: SqlValue[]): string {
  let sql = "";
  for (const key of ["limit", "offset"] as const) {
    const value = filter[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`listCandidates: ${key} must be a non-negative integer, got ${value}`);
    }
    params.push(value);
    sql += ` ${key.toUpperCase()} $${params.length}`;
  }
  return sql;
}

/** ` WHERE ...` of a candidate filter's status and technology (empty without them). */
function whereClause(filter: CandidateFilter, params: SqlValue[]): string {
  const where: string[] = [];
  if (filter.status !== undefined) {
    params.push(filter.status);
    where.push(`status = $${params.length}`);
  }
  if (filter.technology_id !== undefined) {
    params.push(filter.technology_id);
    where.push(`technology_id = $${params.length}`);
  }
  return where.length ? ` WHERE ${where.join(" AND ")}` : "";
}

/** A ScraperRepository over `store`; creates the tables when missing. */
export async function createDuckDbScraperRepository(
  store: Store,
): Promise<ScraperRepository> {
  await ensureScraperTables(store);

  const getCandidate = async (id: string): Promise<Candidate | undefined> => {
    const rows = await store.all<CandidateRow>(`${SELECT_CANDIDATE} WHERE id = $1`, [id]);
    return rows[0] && toCandidate(rows[0]);
  };

  const runs = async (where: string, params: SqlValue[]): Promise<RunRecord | undefined> => {
    const rows = await store.all<RunRow>(
      `SELECT * FROM ${RUNS_TABLE} ${where} ORDER BY started_at DESC, rowid DESC LIMIT 1`,
      params,
    );
    return rows[0] && toRun(rows[0]);
  };

  return {
    async createRun(run) {
      await store.run(
        `INSERT INTO ${RUNS_TABLE} (run_id, started_at, status, sources, technology_ids)` +
          " VALUES ($1, $2, 'running', $3, $4)",
        [
          run.run_id,
          run.started_at,
          JSON.stringify(run.sources),
          JSON.stringify(run.technology_ids),
        ],
      );
    },

    async finishRun(summary) {
      const rows = await store.write(
        `UPDATE ${RUNS_TABLE} SET finished_at = $2, status = $3, total_papers = $4,` +
          " candidates_created = $5, errors = $6 WHERE run_id = $1 RETURNING run_id",
        [
          summary.run_id,
          summary.finished_at,
          summary.status,
          summary.total_papers,
          summary.candidates_created,
          JSON.stringify(summary.errors),
        ],
      );
      if (rows.length === 0) throw new RangeError(`finishRun: no run ${summary.run_id}`);
    },

    latestRun: () => runs("", []),

    getRun: (run_id) => runs("WHERE run_id = $1", [run_id]),

    async abandonRunningRuns(at) {
      const rows = await store.write(
        `UPDATE ${RUNS_TABLE} SET status = 'failed', finished_at = $1, errors = $2` +
          " WHERE status = 'running' RETURNING run_id",
        [at, JSON.stringify([{ source: "scraper", message: "interrupted by a restart" }])],
      );
      return rows.length;
    },

    async insertCandidate(candidate) {
      const rows = await store.write(INSERT_CANDIDATE, candidateValues(candidate));
      return rows.length === 1;
    },

    async listCandidates(filter = {}) {
      const params: SqlValue[] = [];
      const where = whereClause(filter, params);
      const order = " ORDER BY created_at DESC, id";
      if (filter.limit === undefined && filter.offset === undefined) {
        const rows = await store.all<CandidateRow>(SELECT_CANDIDATE + where + order, params);
        return rows.map(toCandidate);
      }
      // A page: its ids first, then only its rows (abstracts and contexts of the others unread).
      const page = pageClause(filter, params);
      const ids = await store.all<{ id: string }>(
        `SELECT id FROM ${CANDIDATES_TABLE}${where}${order}${page}`,
        params,
      );
      if (ids.length === 0) return [];
      const rows = await store.all<CandidateRow>(
        `${SELECT_CANDIDATE} WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(", ")})${order}`,
        ids.map((r) => r.id),
      );
      return rows.map(toCandidate);
    },

    async countCandidates(filter = {}) {
      const params: SqlValue[] = [];
      const rows = await store.all<{ n: number }>(
        `SELECT count(*) AS n FROM ${CANDIDATES_TABLE}${whereClause(filter, params)}`,
        params,
      );
      return rows[0]?.n ?? 0;
    },

    getCandidate,

    async setCandidateStatus(id, status, details): Promise<StatusChange> {
      const rows = await store.write<CandidateRow>(
        `UPDATE ${CANDIDATES_TABLE} SET status = $2, reviewed_at = $3, instance_id = $4` +
          ` WHERE id = $1 AND status = 'pending' RETURNING ${CANDIDATE_COLUMNS.join(", ")}`,
        [id, status, details.at, details.instance_id ?? null],
      );
      if (rows[0]) return { ok: true, candidate: toCandidate(rows[0]) };
      const current = await getCandidate(id);
      return current ? { ok: false, reason: "conflict", candidate: current } : {
        ok: false,
        reason: "not_found",
      };
    },

    async reopenCandidate(id) {
      const rows = await store.write(
        `UPDATE ${CANDIDATES_TABLE} SET status = 'pending', reviewed_at = NULL,` +
          " instance_id = NULL WHERE id = $1 AND status = 'approved' RETURNING id",
        [id],
      );
      return rows.length === 1;
    },

    async countPending() {
      const rows = await store.all<{ n: number }>(
        `SELECT count(*) AS n FROM ${CANDIDATES_TABLE} WHERE status = 'pending'`,
      );
      return rows[0]?.n ?? 0;
    },
  };
}
