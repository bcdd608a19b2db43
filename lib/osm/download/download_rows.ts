/**
 * Region downloads kept in the OSM store (`osm_downloads`), the job engine's store for them: every
 * acceptance and end is written there, so that a download a stopped process left queued or running
 * reads as failed ("interrupted by restart") after a restart, and a finished one stays readable for
 * as long as it would have stayed in memory. Writes are chained here and never awaited by the
 * engine: a start must not wait behind another region's import, which holds the store's writer.
 */
import type { JobMovePatch, JobStore, RestartRule } from "../../jobs/job_store.ts";
import type { JobState } from "../../jobs/job_states.ts";
import type { Store } from "../../store/store.ts";
import type { ImportResult } from "../import_region.ts";
import type { Region } from "../regions_db.ts";
import {
  type DownloadFrame,
  type DownloadJob,
  type DownloadStatus,
  type DownloadView,
  finalFrame,
  type RegionDownload,
} from "./download_record.ts";

/** One finished download as the store holds it: its view and its region. */
export interface DownloadRow {
  readonly view: DownloadView;
  readonly region: Region;
  /** The frame that ended it (for one a restart ended: its error). */
  readonly final: DownloadFrame;
}

/** What a download holds when it ends: its region and byte counts. */
export type DownloadState = (
  id: string,
) => { region: Region; bytes: number; totalBytes: number | null } | undefined;

const CREATE = `CREATE TABLE IF NOT EXISTS osm_downloads (
  id VARCHAR PRIMARY KEY, region VARCHAR NOT NULL, source VARCHAR NOT NULL, status VARCHAR NOT NULL,
  bytes BIGINT NOT NULL, total_bytes BIGINT, error VARCHAR,
  started_at VARCHAR NOT NULL, finished_at VARCHAR, final_frame VARCHAR)`;

const iso = (ms: number) => new Date(ms).toISOString();

/** The downloads of one OSM store. */
export class DownloadRows implements JobStore<Region, ImportResult, DownloadFrame> {
  readonly #store: Store;
  readonly #state: DownloadState;
  readonly #log: (message: string) => void;
  /** Every write waits for the one before it. */
  #chain: Promise<void>;

  constructor(store: Store, state: DownloadState, log: (message: string) => void) {
    this.#store = store;
    this.#state = state;
    this.#log = log;
    this.#chain = store.run(CREATE).catch((error) => this.#failed(error));
  }

  insert(job: DownloadJob): undefined {
    const region = job.input!;
    this.#write(
      `INSERT INTO osm_downloads VALUES (?, ?, ?, 'queued', 0, NULL, NULL, ?, NULL, NULL)`,
      [job.id, region.path, JSON.stringify(region), iso(job.createdAt)],
    );
    return undefined;
  }

  move(job: DownloadJob, to: JobState, patch: JobMovePatch<ImportResult>): undefined {
    if (to === "running") {
      this.#write(`UPDATE osm_downloads SET status = 'downloading' WHERE id = ?`, [job.id]);
      return undefined;
    }
    const status: DownloadStatus = to === "succeeded" ? "completed" : "failed";
    const state = this.#state(job.id);
    const final = finalFrame(state?.region.path ?? "", patch.result, patch.error ?? null);
    this.#write(
      `UPDATE osm_downloads SET status = ?, bytes = ?, total_bytes = ?, error = ?, finished_at = ?,
       final_frame = ? WHERE id = ?`,
      [
        status,
        state?.bytes ?? 0,
        state?.totalBytes ?? null,
        patch.error ?? null,
        iso(patch.at),
        JSON.stringify(final),
        job.id,
      ],
    );
    return undefined;
  }

  /** Ends the downloads a stopped process left unfinished; answers how many. */
  async recover(rule: RestartRule): Promise<number> {
    await this.#chain;
    const left = await this.#store.write<{ id: string }>(
      `UPDATE osm_downloads SET status = ?, error = ?, finished_at = ?
       WHERE status IN ('queued', 'downloading', 'importing') RETURNING id`,
      ["failed", rule.error, new Date().toISOString()],
    );
    return left.length;
  }

  /** The newest `max` downloads finished within `keepMs` before now, newest last. */
  async kept(keepMs: number, max: number): Promise<DownloadRow[]> {
    await this.#chain;
    const since = new Date(Date.now() - keepMs).toISOString();
    const rows = await this.#store.all<Record<string, unknown>>(
      `SELECT * FROM osm_downloads WHERE finished_at IS NOT NULL AND finished_at > ?
       ORDER BY finished_at DESC LIMIT ?`,
      [since, max],
    );
    // Older ones are no longer readable: the table holds what memory would.
    await this.#store.run(
      `DELETE FROM osm_downloads WHERE finished_at IS NOT NULL AND finished_at <= ?`,
      [since],
    );
    return rows.reverse().map((row) => ({
      region: JSON.parse(String(row["source"])) as Region,
      final: row["final_frame"] === null
        ? { type: "error", message: String(row["error"]) }
        : JSON.parse(String(row["final_frame"])) as DownloadFrame,
      view: {
        id: String(row["id"]),
        region: String(row["region"]),
        status: row["status"] as DownloadStatus,
        bytes: Number(row["bytes"]),
        total_bytes: row["total_bytes"] === null ? null : Number(row["total_bytes"]),
        ...(row["error"] === null ? {} : { error: String(row["error"]) }),
        started_at: String(row["started_at"]),
        finished_at: String(row["finished_at"]),
      },
    }));
  }

  /** Resolves once every write so far is done. */
  flush(): Promise<void> {
    return this.#chain;
  }

  #write(sql: string, params: (string | number | null)[]): void {
    this.#chain = this.#chain.then(() => this.#store.run(sql, params)).catch((error) =>
      this.#failed(error)
    );
  }

  #failed(error: unknown): void {
    this.#log(`download records: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A download of an earlier process, read back from the store: its view, and its end as the one
 * frame of its history.
 */
export function storedDownload(row: DownloadRow): RegionDownload {
  const { view, final } = row;
  return {
    id: view.id,
    region: row.region,
    view: () => ({ ...view }),
    history: () => [final],
    subscribe(listener) {
      listener(final);
      return () => {};
    },
    finished: Promise.resolve(),
  };
}
