/**
 * The modelling backend's state in its own DuckDB file: saved models, jobs with their log lines
 * and results, and the run history (completed runs). Model bodies and records are kept as the
 * JSON text the client sent, beside the few columns the lists order and page by (name,
 * description, model name, status, completion time); a list page reads the bodies of its own
 * entries only, a chunk at a time.
 *
 * Every write is one statement or one transaction that has committed when its promise resolves:
 * an answer sent after it cannot be lost by a `kill -9`. Timestamps are ISO 8601 text (UTC), so
 * they come back exactly as written and sort as text.
 */
import type { SqlValue, Store } from "../store/store.ts";
import { completionTime } from "./list_entries.ts";

/** A saved model as the list shows it. */
export interface ModelListItem {
  id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** A saved model with its JSON text. */
export interface StoredModel extends ModelListItem {
  body: string;
}

/** A list entry with the size of its JSON text (bytes), to read bodies in bounded chunks. */
export type Sized<T> = T & { size: number };

/** One page of a list, the newest first, and how many entries the whole list has. */
export interface ListPage<T> {
  total: number;
  items: Sized<T>[];
}

/** Where a job is. */
export type BackendJobStatus = "pending" | "running" | "completed" | "failed" | "cancelled";

/** A job's row. */
export interface JobRow {
  id: string;
  model_id: string;
  status: BackendJobStatus;
  progress: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  /** The runner's id of the job once submitted. */
  runner_job_id: string | null;
}

/** A run-history record as the list shows it. */
export interface CompletedRunItem {
  id: string;
  model_id: string | null;
  model_name: string | null;
  created_at: string;
  status: string | null;
}

/** A run-history record's list columns and its sort key. */
export interface CompletedRunRow extends CompletedRunItem {
  /** ISO 8601 (UTC): the record's own `completedAt` when it gives a time, else `created_at`. */
  completed_at: string;
}

/** The tables, created when missing. */
export const BACKEND_SCHEMA = [
  "CREATE SEQUENCE IF NOT EXISTS model_ids START 1",
  `CREATE TABLE IF NOT EXISTS models (
    id VARCHAR PRIMARY KEY,
    seq BIGINT NOT NULL,
    name VARCHAR NOT NULL,
    description VARCHAR NOT NULL,
    created_at VARCHAR NOT NULL,
    updated_at VARCHAR NOT NULL,
    body VARCHAR NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS jobs (
    id VARCHAR PRIMARY KEY,
    model_id VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    progress INTEGER NOT NULL,
    created_at VARCHAR NOT NULL,
    started_at VARCHAR,
    finished_at VARCHAR,
    error VARCHAR,
    runner_job_id VARCHAR
  )`,
  `CREATE TABLE IF NOT EXISTS job_logs (
    job_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    line VARCHAR NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS job_results (
    job_id VARCHAR PRIMARY KEY,
    body VARCHAR NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS completed_runs (
    id VARCHAR PRIMARY KEY,
    model_id VARCHAR,
    model_name VARCHAR,
    status VARCHAR,
    created_at VARCHAR NOT NULL,
    body VARCHAR NOT NULL
  )`,
  // Added by issue 18 (the list is ordered by the record's completion time); a state file of
  // an earlier version gets the column, filled by `init()`.
  "ALTER TABLE completed_runs ADD COLUMN IF NOT EXISTS completed_at VARCHAR",
] as const;

/** Columns of `job_logs`, in the order a log row is appended. */
export const JOB_LOG_COLUMNS = ["job_id", "seq", "line"] as const;

const MODEL_ITEM = "id, name, description, created_at, updated_at";
const JOB_COLUMNS =
  "id, model_id, status, progress, created_at, started_at, finished_at, error, runner_job_id";
const RUN_ITEM = "id, model_id, model_name, created_at, status";
const RUN_ROW = `${RUN_ITEM}, completed_at`;

/** `$1, $2, ...` for `count` parameters. */
function marks(count: number): string {
  return Array.from({ length: count }, (_, i) => `$${i + 1}`).join(", ");
}

/** The fields of a job row that change while it runs. */
export type JobUpdate = Partial<
  Pick<JobRow, "status" | "progress" | "started_at" | "finished_at" | "error" | "runner_job_id">
>;

/** A run-history record to save. */
export interface CompletedRunInput {
  id: string;
  model_id: string | null;
  model_name: string | null;
  status: string | null;
  /** When the run ended (ISO 8601, UTC); null: when first saved (kept on a replace). */
  completed_at?: string | null;
  /** The record's JSON text, as sent. */
  body: string;
}

/**
 * Queries over the backend's store; `init()` creates the tables. The model list and the job rows
 * are also kept in memory (this process is the file's only writer), so the two hottest reads do
 * not query: every write goes to the store first and then updates or drops the copy, and a read
 * that raced a write does not keep its possibly older answer (a generation count).
 */
export class BackendStore {
  #modelList: Sized<ModelListItem>[] | undefined;
  #modelGeneration = 0;
  /** Bytes kept for the current models (the default page of the list), dropped on a change. */
  readonly #modelBytes = new Map<string, Uint8Array<ArrayBuffer>>();
  readonly #makingBytes = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
  readonly #jobs = new Map<string, JobRow>();
  #jobGeneration = 0;

  constructor(readonly store: Store) {}

  #modelsChanged(): void {
    this.#modelGeneration++;
    this.#modelList = undefined;
    this.#modelBytes.clear();
    this.#makingBytes.clear();
  }

  /** Creates the tables when missing; fills the completion times of older records. */
  async init(): Promise<void> {
    for (const sql of BACKEND_SCHEMA) await this.store.run(sql);
    const older = await this.store.all<{ id: string; created_at: string; body: string }>(
      "SELECT id, created_at, body FROM completed_runs WHERE completed_at IS NULL",
    );
    for (const row of older) {
      let record: unknown;
      try {
        record = JSON.parse(row.body);
      } catch {
        record = undefined;
      }
      await this.store.run("UPDATE completed_runs SET completed_at = $2 WHERE id = $1", [
        row.id,
        completionTime(record) ?? row.created_at,
      ]);
    }
  }

  /**
   * Every model's list columns and body size, the most recently updated first (kept in memory
   * until the models change; the caller must not change the array).
   */
  async listModels(): Promise<readonly Sized<ModelListItem>[]> {
    if (this.#modelList) return this.#modelList;
    const generation = this.#modelGeneration;
    const rows = await this.store.all<Sized<ModelListItem>>(
      `SELECT ${MODEL_ITEM}, strlen(body)::BIGINT AS size FROM models
       ORDER BY updated_at DESC, seq DESC`,
    );
    if (generation === this.#modelGeneration) this.#modelList = rows;
    return rows;
  }

  /** `limit` models from `offset` in the list's order, and how many there are. */
  async modelPage(offset: number, limit: number): Promise<ListPage<ModelListItem>> {
    const all = await this.listModels();
    return { total: all.length, items: all.slice(offset, offset + limit) };
  }

  /** The saved models of `ids` (those that still exist), with their JSON text. */
  async modelsById(ids: readonly string[]): Promise<Map<string, StoredModel>> {
    if (ids.length === 0) return new Map();
    const rows = await this.store.all<StoredModel>(
      `SELECT ${MODEL_ITEM}, body FROM models WHERE id IN (${marks(ids.length)})`,
      ids,
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Saves a new model; its id is the next number, as text. */
  async insertModel(
    meta: { name: string; description: string },
    body: string,
    now: string,
  ): Promise<ModelListItem> {
    const rows = await this.store.write<ModelListItem>(
      `INSERT INTO models (id, seq, name, description, created_at, updated_at, body)
       SELECT CAST(n AS VARCHAR), n, $1, $2, $3, $3, $4 FROM (SELECT nextval('model_ids') AS n)
       RETURNING ${MODEL_ITEM}`,
      [meta.name, meta.description, now, body],
    );
    this.#modelsChanged();
    return rows[0]!;
  }

  /** One model with its JSON text. */
  async getModel(id: string): Promise<StoredModel | undefined> {
    const rows = await this.store.all<StoredModel>(
      `SELECT ${MODEL_ITEM}, body FROM models WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Whether a model exists. */
  async hasModel(id: string): Promise<boolean> {
    const rows = await this.store.all("SELECT 1 FROM models WHERE id = $1", [id]);
    return rows.length > 0;
  }

  /** Replaces a model's body; undefined for an unknown id (nothing is created). */
  async replaceModel(
    id: string,
    meta: { name: string; description: string },
    body: string,
    now: string,
  ): Promise<ModelListItem | undefined> {
    const rows = await this.store.write<ModelListItem>(
      `UPDATE models SET name = $2, description = $3, updated_at = $4, body = $5
       WHERE id = $1 RETURNING ${MODEL_ITEM}`,
      [id, meta.name, meta.description, now, body],
    );
    this.#modelsChanged();
    return rows[0];
  }

  /** Deletes a model with its jobs, their logs and results, in one transaction. */
  async deleteModel(id: string): Promise<boolean> {
    try {
      return await this.#deleteModel(id);
    } finally {
      this.#modelsChanged();
      this.#jobGeneration++;
      this.#jobs.clear();
    }
  }

  #deleteModel(id: string): Promise<boolean> {
    return this.store.transaction(async (tx) => {
      const jobs = "SELECT id FROM jobs WHERE model_id = $1";
      await tx.run(`DELETE FROM job_logs WHERE job_id IN (${jobs})`, [id]);
      await tx.run(`DELETE FROM job_results WHERE job_id IN (${jobs})`, [id]);
      await tx.run("DELETE FROM jobs WHERE model_id = $1", [id]);
      const gone = await tx.write("DELETE FROM models WHERE id = $1 RETURNING id", [id]);
      return gone.length > 0;
    });
  }

  /**
   * Bytes made from the current models (e.g. the default page of the list as JSON), kept until
   * they change; `make` runs when there are none. Not kept when `make` raced a change, or when
   * they are more than `maxBytes`.
   */
  async modelBytes(
    key: string,
    make: () => Promise<Uint8Array<ArrayBuffer>>,
    maxBytes: number,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const kept = this.#modelBytes.get(key);
    if (kept !== undefined) return kept;
    // Callers that come while it is made share the one making (64 connections at once after a
    // save would otherwise each build the whole list).
    const making = this.#makingBytes.get(key);
    if (making !== undefined) return making;
    const generation = this.#modelGeneration;
    const made = make();
    this.#makingBytes.set(key, made);
    try {
      const bytes = await made;
      if (generation === this.#modelGeneration && bytes.length <= maxBytes) {
        this.#modelBytes.set(key, bytes);
      }
      return bytes;
    } finally {
      if (this.#makingBytes.get(key) === made) this.#makingBytes.delete(key);
    }
  }

  /** Saves a new job. */
  async insertJob(job: JobRow): Promise<void> {
    await this.store.run(
      `INSERT INTO jobs (${JOB_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        job.id,
        job.model_id,
        job.status,
        job.progress,
        job.created_at,
        job.started_at,
        job.finished_at,
        job.error,
        job.runner_job_id,
      ],
    );
    this.#jobGeneration++;
    this.#jobs.set(job.id, { ...job });
  }

  /** Changes the given fields of a job. */
  async updateJob(id: string, update: JobUpdate): Promise<void> {
    const entries = Object.entries(update).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([k], i) => `${k} = $${i + 2}`).join(", ");
    this.#jobGeneration++;
    try {
      await this.store.run(
        `UPDATE jobs SET ${sets} WHERE id = $1`,
        [id, ...entries.map(([, v]) => v as SqlValue)],
      );
    } catch (error) {
      this.#jobs.delete(id);
      throw error;
    }
    this.#jobGeneration++;
    const cached = this.#jobs.get(id);
    if (cached) this.#jobs.set(id, { ...cached, ...Object.fromEntries(entries) });
  }

  /** One job. */
  async getJob(id: string): Promise<JobRow | undefined> {
    const cached = this.#jobs.get(id);
    if (cached) return { ...cached };
    const generation = this.#jobGeneration;
    const rows = await this.store.all<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [
      id,
    ]);
    const row = rows[0];
    if (row && generation === this.#jobGeneration) this.#jobs.set(id, { ...row });
    return row;
  }

  /** The jobs of a model, the newest first. */
  listJobs(modelId: string): Promise<JobRow[]> {
    return this.store.all<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE model_id = $1 ORDER BY created_at DESC, id`,
      [modelId],
    );
  }

  /** The jobs with one of the statuses. */
  jobsWithStatus(statuses: readonly BackendJobStatus[]): Promise<JobRow[]> {
    return this.store.all<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE status IN (${marks(statuses.length)})`,
      [...statuses],
    );
  }

  /** A job's log lines, in order. */
  async jobLogs(id: string): Promise<string[]> {
    const rows = await this.store.all<{ line: string }>(
      "SELECT line FROM job_logs WHERE job_id = $1 ORDER BY seq",
      [id],
    );
    return rows.map((r) => r.line);
  }

  /** Stores a job's full result (JSON text). */
  async saveJobResult(id: string, body: string): Promise<void> {
    await this.store.run(
      "INSERT INTO job_results (job_id, body) VALUES ($1, $2) " +
        "ON CONFLICT (job_id) DO UPDATE SET body = excluded.body",
      [id, body],
    );
  }

  /** A job's full result (JSON text). */
  async jobResult(id: string): Promise<string | undefined> {
    const rows = await this.store.all<{ body: string }>(
      "SELECT body FROM job_results WHERE job_id = $1",
      [id],
    );
    return rows[0]?.body;
  }

  /**
   * Saves a run-history record; the same id again replaces it (its first `created_at` kept).
   * Returns its list item.
   */
  async upsertCompletedRun(run: CompletedRunInput, now: string): Promise<CompletedRunItem> {
    const rows = await this.store.write<CompletedRunItem>(
      `INSERT INTO completed_runs (id, model_id, model_name, status, created_at, completed_at,
         body)
       VALUES ($1, $2, $3, $4, $5, COALESCE($6, $5), $7)
       ON CONFLICT (id) DO UPDATE SET model_id = excluded.model_id,
         model_name = excluded.model_name, status = excluded.status, body = excluded.body,
         completed_at = COALESCE($6, completed_runs.completed_at)
       RETURNING ${RUN_ITEM}`,
      [run.id, run.model_id, run.model_name, run.status, now, run.completed_at ?? null, run.body],
    );
    return rows[0]!;
  }

  /**
   * `limit` records of the run history from `offset`, the most recently completed first, with
   * their body sizes, and how many records there are.
   */
  async completedRunPage(offset: number, limit: number): Promise<ListPage<CompletedRunRow>> {
    const [items, count] = await Promise.all([
      this.store.all<Sized<CompletedRunRow>>(
        `SELECT ${RUN_ROW}, strlen(body)::BIGINT AS size FROM completed_runs
         ORDER BY completed_at DESC, created_at DESC, id DESC LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
      this.store.all<{ n: number }>("SELECT count(*)::BIGINT AS n FROM completed_runs"),
    ]);
    return { total: Number(count[0]?.n ?? 0), items };
  }

  /** The records of `ids` (those that still exist): list columns and JSON text. */
  async completedRunsById(
    ids: readonly string[],
  ): Promise<Map<string, CompletedRunRow & { body: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.store.all<CompletedRunRow & { body: string }>(
      `SELECT ${RUN_ROW}, body FROM completed_runs WHERE id IN (${marks(ids.length)})`,
      ids,
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** One record's JSON text. */
  async getCompletedRun(id: string): Promise<string | undefined> {
    const rows = await this.store.all<{ body: string }>(
      "SELECT body FROM completed_runs WHERE id = $1",
      [id],
    );
    return rows[0]?.body;
  }

  /** Deletes a record; false when unknown. */
  async deleteCompletedRun(id: string): Promise<boolean> {
    const rows = await this.store.write("DELETE FROM completed_runs WHERE id = $1 RETURNING id", [
      id,
    ]);
    return rows.length > 0;
  }
}
