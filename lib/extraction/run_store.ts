/**
 * The extraction service's state: its runs and the buildings each completed run produced, in
 * the service's own DuckDB store (EXTRACTION_STATE_PATH). Pure store code, no HTTP.
 *
 * A run's buildings are written with its completion in one transaction, so a reader sees a run
 * either completed with every building or not completed with none. Runs found `queued` or
 * `running` when the store opens were left by a stopped process: `init()` fails them with
 * "interrupted by restart".
 */
import type { Store } from "../store/store.ts";
import type { BuildingRecord, ExtractionOptions } from "./building_record.ts";
import type { LonLatBox } from "./extract_box.ts";

/** Statuses of a run: `queued` and `running` are in progress, the others final. */
export const RUN_STATUSES = ["queued", "running", "completed", "no_data", "failed"] as const;

/** Status of a run. */
export type RunStatus = typeof RUN_STATUSES[number];

/** The error of a run left unfinished by a stopped process. */
export const INTERRUPTED_BY_RESTART = "interrupted by restart";

/** One run as the store holds it. */
export interface RunRecord {
  run_id: string;
  status: RunStatus;
  /** 0 to 100. */
  progress_pct: number;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  heat_country: string | null;
  /** [xmin, ymin, xmax, ymax], degrees. */
  bbox: [number, number, number, number];
  options: ExtractionOptions;
  counts: { buildings: number; surfaces: number };
  /** ISO 8601 times: accepted, started running (null while queued), ended (null before). */
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  reason: string | null;
}

/** What a new run is made of. */
export interface NewRun {
  run_id: string;
  country: string;
  heat_country: string | null;
  bbox: LonLatBox;
  options: ExtractionOptions;
  created_at: string;
}

/**
 * Buildings as the store writes them: their records as JSON text, one a line (JSON.stringify
 * leaves no line break inside a record), as a string or in a file (UTF-8). DuckDB splits the
 * lines and reads the keys out of the records in its own threads. From a file (what the run's
 * Worker writes), the thread that answers the services allocates nothing for the buildings:
 * thousands of records would otherwise make its garbage collector pause for hundreds of ms.
 */
export type BuildingChunk =
  & {
    /** Buildings in it. */
    buildings: number;
    /** Their surfaces. */
    surfaces: number;
  }
  & (
    /** `JSON.stringify(BuildingRecord)` of each building, joined by "\n". */
    | { text: string }
    /** A file holding that text. */
    | { file: string }
  );

/** Buildings per chunk: a chunk is about 2 MB of text. */
export const CHUNK_BUILDINGS = 1000;

/** Records as chunks of at most `size` buildings. */
export function buildingChunks(
  records: readonly BuildingRecord[],
  size = CHUNK_BUILDINGS,
): (BuildingChunk & { text: string })[] {
  const chunks: (BuildingChunk & { text: string })[] = [];
  for (let i = 0; i < records.length; i += size) {
    const part = records.slice(i, i + size);
    chunks.push({
      text: part.map((b) => JSON.stringify(b)).join("\n"),
      buildings: part.length,
      surfaces: part.reduce((n, b) => n + b.surfaces.length, 0),
    });
  }
  return chunks;
}

/** What `prune` keeps: the newest finished runs, within both bounds. */
export interface KeepLimits {
  /** Finished runs kept (completed, no_data, failed). */
  runs: number;
  /** Buildings kept over the completed runs kept. */
  buildings: number;
}

/** One page of buildings. */
export interface BuildingPage {
  /** The records (parsed on first access of `buildings`). */
  readonly buildings: BuildingRecord[];
  /** The records as stored JSON text, for answers that send them on unparsed. */
  readonly texts: string[];
  /** Buildings in the box over every page. */
  total: number;
  /** The id after which the next page starts; null on the last page. */
  next: string | null;
}

interface RunRow {
  run_id: string;
  status: RunStatus;
  progress_pct: number;
  country: string;
  heat_country: string | null;
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  options: string;
  buildings: number;
  surfaces: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  reason: string | null;
}

function toRecord(r: RunRow): RunRecord {
  return {
    run_id: r.run_id,
    status: r.status,
    progress_pct: r.progress_pct,
    country: r.country,
    heat_country: r.heat_country,
    bbox: [r.xmin, r.ymin, r.xmax, r.ymax],
    options: JSON.parse(r.options),
    counts: { buildings: r.buildings, surfaces: r.surfaces },
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    error: r.error,
    reason: r.reason,
  };
}

/**
 * The area of the part of `clip` covered by the union of `boxes`, in square degrees, exactly
 * (coordinate compression: strips between the distinct x edges, merged y intervals in each).
 */
export function coveredArea(boxes: readonly LonLatBox[], clip: LonLatBox): number {
  const [cx0, cy0, cx1, cy1] = clip;
  const clipped = boxes
    .map(([x0, y0, x1, y1]) =>
      [
        Math.max(x0, cx0),
        Math.max(y0, cy0),
        Math.min(x1, cx1),
        Math.min(y1, cy1),
      ] as const
    )
    .filter(([x0, y0, x1, y1]) => x0 < x1 && y0 < y1);
  const xs = [...new Set(clipped.flatMap(([x0, , x1]) => [x0, x1]))].sort((a, b) => a - b);
  let area = 0;
  for (let i = 0; i + 1 < xs.length; i++) {
    const left = xs[i]!, right = xs[i + 1]!;
    const spans = clipped
      .filter(([x0, , x1]) => x0 <= left && x1 >= right)
      .map(([, y0, , y1]) => [y0, y1] as const)
      .sort((a, b) => a[0] - b[0]);
    let covered = 0, start = -Infinity, end = -Infinity;
    for (const [y0, y1] of spans) {
      if (y0 > end) {
        if (end > start) covered += end - start;
        start = y0;
        end = y1;
      } else if (y1 > end) end = y1;
    }
    if (end > start) covered += end - start;
    area += covered * (right - left);
  }
  return area;
}

/** Share of a box that counts as fully covered (rounding of the union). */
export const COVERED_FRACTION = 1 - 1e-9;

const RUN_COLUMNS = `run_id, status, progress_pct, country, heat_country, xmin, ymin, xmax, ymax,
  options, buildings, surfaces, created_at, started_at, finished_at, error, reason`;

/** The latest completed record of every building, filtered by `where` (on b and r). */
function latestBuildings(where: string): string {
  return `SELECT b.id, b.record FROM run_buildings b JOIN extraction_runs r USING (run_id)
    WHERE r.status = 'completed' AND ${where}
    QUALIFY row_number() OVER (PARTITION BY b.id ORDER BY r.finished_at DESC, r.seq DESC) = 1`;
}

/** The runs and buildings of the extraction service over an open store. */
export class RunStore {
  #completed = 0;

  constructor(readonly store: Store) {}

  /**
   * Changes with every completed run written and every prune that deleted runs through this
   * object (twice each: before and after the commit): an answer computed from the buildings
   * stays right while it is unchanged (this process is the state store's only writer).
   */
  get completedRuns(): number {
    return this.#completed;
  }

  /**
   * Creates the tables when missing and fails the runs a stopped process left `queued` or
   * `running`; resolves to how many it failed.
   */
  async init(now: string = new Date().toISOString()): Promise<number> {
    await this.store.run(`CREATE SEQUENCE IF NOT EXISTS extraction_run_seq`);
    await this.store.run(`CREATE TABLE IF NOT EXISTS extraction_runs (
      run_id VARCHAR PRIMARY KEY, seq BIGINT NOT NULL, status VARCHAR NOT NULL,
      progress_pct DOUBLE NOT NULL, country VARCHAR NOT NULL, heat_country VARCHAR,
      xmin DOUBLE NOT NULL, ymin DOUBLE NOT NULL, xmax DOUBLE NOT NULL, ymax DOUBLE NOT NULL,
      options VARCHAR NOT NULL, buildings INTEGER NOT NULL, surfaces INTEGER NOT NULL,
      created_at VARCHAR NOT NULL, started_at VARCHAR, finished_at VARCHAR, error VARCHAR,
      reason VARCHAR)`);
    await this.store.run(`CREATE TABLE IF NOT EXISTS run_buildings (
      run_id VARCHAR NOT NULL, id VARCHAR NOT NULL, country VARCHAR NOT NULL,
      lon DOUBLE NOT NULL, lat DOUBLE NOT NULL, record VARCHAR NOT NULL)`);
    const failed = await this.store.write<{ run_id: string }>(
      `UPDATE extraction_runs SET status = 'failed', error = ?, finished_at = ?
       WHERE status IN ('queued', 'running') RETURNING run_id`,
      [INTERRUPTED_BY_RESTART, now],
    );
    return failed.length;
  }

  /** Records a new run, `queued`. */
  async insertRun(run: NewRun): Promise<void> {
    const [xmin, ymin, xmax, ymax] = run.bbox;
    await this.store.run(
      `INSERT INTO extraction_runs VALUES (?, nextval('extraction_run_seq'), 'queued', 0, ?, ?,
        ?, ?, ?, ?, ?, 0, 0, ?, NULL, NULL, NULL, NULL)`,
      [
        run.run_id,
        run.country,
        run.heat_country,
        xmin,
        ymin,
        xmax,
        ymax,
        JSON.stringify(run.options),
        run.created_at,
      ],
    );
  }

  /** Marks a run `running` from `at`. */
  async markRunning(runId: string, at: string): Promise<void> {
    await this.store.run(
      `UPDATE extraction_runs SET status = 'running', started_at = ? WHERE run_id = ?`,
      [at, runId],
    );
  }

  /** Sets a running run's progress, 0 to 100. */
  async setProgress(runId: string, pct: number): Promise<void> {
    await this.store.run(
      `UPDATE extraction_runs SET progress_pct = ? WHERE run_id = ? AND status = 'running'`,
      [pct, runId],
    );
  }

  /** Writes a run's buildings and marks it `completed`, in one transaction. */
  async complete(runId: string, buildings: readonly BuildingRecord[], at: string): Promise<void> {
    await this.completeChunks(runId, buildingChunks(buildings), at);
  }

  /**
   * Writes a run's buildings (chunks of JSON lines, BuildingChunk) and marks it `completed`,
   * in one transaction.
   */
  async completeChunks(
    runId: string,
    chunks: readonly BuildingChunk[],
    at: string,
  ): Promise<void> {
    const buildings = chunks.reduce((n, c) => n + c.buildings, 0);
    const surfaces = chunks.reduce((n, c) => n + c.surfaces, 0);
    await this.store.transaction(async (tx) => {
      await tx.run(`DELETE FROM run_buildings WHERE run_id = ?`, [runId]);
      for (const chunk of chunks) {
        if (chunk.buildings === 0) continue;
        const lines = "file" in chunk
          ? `SELECT unnest(string_split(content, chr(10))) AS line FROM read_text(?)`
          : `SELECT unnest(string_split(?, chr(10))) AS line`;
        await tx.run(
          `INSERT INTO run_buildings (run_id, id, country, lon, lat, record)
           SELECT ?, json_extract_string(line, '$.id'), json_extract_string(line, '$.country'),
             CAST(json_extract(line, '$.centroid[0]') AS DOUBLE),
             CAST(json_extract(line, '$.centroid[1]') AS DOUBLE), line
           FROM (${lines})`,
          [runId, "file" in chunk ? chunk.file : chunk.text],
        );
      }
      await tx.run(
        `UPDATE extraction_runs SET status = 'completed', progress_pct = 100, buildings = ?,
         surfaces = ?, finished_at = ? WHERE run_id = ?`,
        [buildings, surfaces, at, runId],
      );
      // Before the commit as well as after: a reader that sees the run completed never finds
      // the count unchanged (an answer cached while the commit lands is dropped after it).
      this.#completed++;
    });
    this.#completed++;
  }

  /**
   * Deletes the oldest finished runs (record and buildings) beyond `keep`: the newest finished
   * runs are kept while there are at most `keep.runs` of them and their buildings add up to at
   * most `keep.buildings`; the newest is always kept. Runs in progress are never touched.
   * Resolves to the ids deleted.
   */
  async prune(keep: KeepLimits): Promise<string[]> {
    const finished = await this.store.all<{ run_id: string; buildings: number }>(
      `SELECT run_id, buildings FROM extraction_runs WHERE status NOT IN ('queued', 'running')
       ORDER BY seq DESC`,
    );
    let runs = 0, buildings = 0;
    const drop: string[] = [];
    for (const run of finished) {
      runs++;
      buildings += run.buildings;
      if (runs > 1 && (runs > keep.runs || buildings > keep.buildings)) drop.push(run.run_id);
    }
    if (drop.length === 0) return drop;
    const list = drop.map(() => "?").join(", ");
    await this.store.transaction(async (tx) => {
      await tx.run(`DELETE FROM run_buildings WHERE run_id IN (${list})`, drop);
      await tx.run(`DELETE FROM extraction_runs WHERE run_id IN (${list})`, drop);
      this.#completed++;
    });
    // Answers computed from the buildings are no longer right.
    this.#completed++;
    return drop;
  }

  /** Ends a run `no_data` with a reason or `failed` with an error. */
  async finish(
    runId: string,
    end: { status: "no_data"; reason: string } | { status: "failed"; error: string },
    at: string,
  ): Promise<void> {
    await this.store.run(
      `UPDATE extraction_runs SET status = ?, finished_at = ?, error = ?, reason = ?,
       progress_pct = CASE WHEN ? = 'no_data' THEN 100 ELSE progress_pct END WHERE run_id = ?`,
      [
        end.status,
        at,
        end.status === "failed" ? end.error : null,
        end.status === "no_data" ? end.reason : null,
        end.status,
        runId,
      ],
    );
  }

  /** One run, or undefined. */
  async getRun(runId: string): Promise<RunRecord | undefined> {
    const rows = await this.store.all<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM extraction_runs WHERE run_id = ?`,
      [runId],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /**
   * Which completed runs of `country` intersect `bbox`, and the exact share of `bbox` their
   * boxes cover together (`covered` from COVERED_FRACTION on).
   */
  async coverage(
    country: string,
    bbox: LonLatBox,
  ): Promise<{ covered: boolean; fraction: number; runs: RunRecord[] }> {
    const [xmin, ymin, xmax, ymax] = bbox;
    const rows = await this.store.all<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM extraction_runs WHERE status = 'completed' AND country = ?
       AND xmax > ? AND xmin < ? AND ymax > ? AND ymin < ? ORDER BY seq`,
      [country, xmin, xmax, ymin, ymax],
    );
    const runs = rows.map(toRecord);
    const area = (xmax - xmin) * (ymax - ymin);
    const fraction = area > 0 ? Math.min(1, coveredArea(runs.map((r) => r.bbox), bbox) / area) : 0;
    return { covered: fraction >= COVERED_FRACTION, fraction, runs };
  }

  /**
   * The buildings of completed runs of `country` whose centroid is in `bbox` (edges included),
   * each once with its latest run's record, by id, `limit` after the id `after`.
   */
  async buildingsInBox(
    country: string,
    bbox: LonLatBox,
    page: { limit: number; after?: string },
  ): Promise<BuildingPage> {
    const [xmin, ymin, xmax, ymax] = bbox;
    const latest = latestBuildings(
      `b.country = ? AND b.lon >= ? AND b.lon <= ? AND b.lat >= ? AND b.lat <= ?`,
    );
    const params = [country, xmin, xmax, ymin, ymax];
    const [rows, count] = await Promise.all([
      this.store.all<{ id: string; record: string }>(
        `SELECT id, record FROM (${latest}) WHERE id > ? ORDER BY id LIMIT ?`,
        [...params, page.after ?? "", page.limit + 1],
      ),
      this.store.all<{ n: number }>(`SELECT count(*) AS n FROM (${latest})`, params),
    ]);
    const more = rows.length > page.limit;
    const shown = more ? rows.slice(0, page.limit) : rows;
    const texts = shown.map((r) => r.record);
    let parsed: BuildingRecord[] | undefined;
    return {
      get buildings() {
        return parsed ??= texts.map((t) => JSON.parse(t));
      },
      texts,
      total: count[0]?.n ?? 0,
      next: more ? shown[shown.length - 1]?.id ?? null : null,
    };
  }

  /** The latest completed record of one building, or undefined. */
  async buildingById(id: string): Promise<BuildingRecord | undefined> {
    const rows = await this.store.all<{ id: string; record: string }>(
      latestBuildings(`b.id = ?`),
      [id],
    );
    return rows[0] ? JSON.parse(rows[0].record) : undefined;
  }
}
