/**
 * The run manager of the extraction service: a run is accepted at once (its id answered while
 * it waits), and runs run one at a time in the background, in the order they were accepted:
 * queued -> running -> completed | no_data | failed.
 *
 * - `completed`: at least one building, with its surfaces. A building without a heat link (the
 *   country has no TABULA typology and the run named no heat_country, or no variant matches)
 *   has `tabula: null` and `tabula_absent_reason`; that never fails a run.
 * - `no_data` (not an error, with a reason): no imported OSM region's box intersects the run's
 *   box, or the imported data has no building whose centre is in it.
 * - `failed` (with an error): the box holds more footprints than a run takes, or a store or the
 *   Worker failed.
 *
 * Bounds (RunLimits): at most `maxQueued` runs wait (`submit` throws RunsQueueFullError
 * beyond); a run reads at most `maxFootprints` footprints (it fails beyond, asking for a smaller
 * box), which bounds what it holds in memory; after each run, the oldest finished runs beyond
 * `keep` are deleted with their buildings, which bounds the state store.
 *
 * The event loop: DuckDB reads (footprints by pages of FOOTPRINT_PAGE) and writes (by chunks,
 * run_store.ts) stay on this thread, each page or chunk one string that DuckDB builds or
 * splits in its own threads; the CPU part runs in a Worker (extract_in_worker.ts), which is
 * started on the first run of a busy spell and ends with it.
 *
 * On close, runs still queued fail at once ("the service stopped before the run started"), and
 * the running run is allowed to finish: one run is one box of at most 0.2 x 0.2 degrees, which
 * extracts in seconds, and finishing keeps its result instead of throwing the work away.
 */
import type { VariantRow } from "../heat/variant_row.ts";
import { listImportedRegions } from "../osm/osm_store.ts";
import type { Store } from "../store/store.ts";
import type { ExtractionOptions } from "./building_record.ts";
import {
  countFootprints,
  type LonLatBox,
  NEIGHBOUR_MARGIN_DEG,
  readFootprintPage,
} from "./extract_box.ts";
import { ExtractionWorker } from "./extract_in_worker.ts";
import type { KeepLimits, RunStore } from "./run_store.ts";
import { readVariantRows, typologyCountries } from "./tabula_link.ts";

/** The reason of a run whose box no imported region covers. */
export const NO_REGION_REASON = "no imported region covers the box: import one with " +
  "POST /api/osm/download on the backend or deno task geo-import";

/** The reason of a run whose box has no footprint. */
export const NO_BUILDING_REASON = "the imported data has no building in the box";

/** The error of a run still queued when the service stopped. */
export const STOPPED_BEFORE_START = "the service stopped before the run started";

/** Footprints read per page (about 0.5 MB of JSON, one string). */
export const FOOTPRINT_PAGE = 2000;

/** The bounds of the runs (server/extraction/config.ts reads them from the environment). */
export interface RunLimits {
  /** Runs waiting at most (EXTRACTION_MAX_QUEUED); more: RunsQueueFullError. */
  maxQueued: number;
  /** Footprints a run reads at most, the box and its margin (EXTRACTION_MAX_FOOTPRINTS). */
  maxFootprints: number;
  /** Finished runs kept and their buildings (EXTRACTION_RUNS_KEPT, EXTRACTION_BUILDINGS_KEPT). */
  keep: KeepLimits;
}

/** Default bounds: 16 waiting, 100,000 footprints a run, 1,000 runs or 1,000,000 buildings kept. */
export const DEFAULT_RUN_LIMITS: RunLimits = {
  maxQueued: 16,
  maxFootprints: 100_000,
  keep: { runs: 1000, buildings: 1_000_000 },
};

/** What a run is asked for (validated by the caller). */
export interface RunRequest {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  heat_country?: string;
  bbox: LonLatBox;
  options: ExtractionOptions;
}

/** What the manager works with. */
export interface ExtractionRunsDeps {
  runs: RunStore;
  /** The OSM store with the imported regions and their `buildings`. */
  osmStore: Store;
  /** The shared data store (TABULA typology), open read-only. */
  dataStore: Store;
  /** Bounds; absent members take DEFAULT_RUN_LIMITS'. */
  limits?: Partial<RunLimits>;
  clock?: () => Date;
  newId?: () => string;
  log?: (message: string) => void;
}

/** Thrown by `submit` once the manager is closing. */
export class RunsClosedError extends Error {
  constructor() {
    super("The extraction service is stopping: no new runs are accepted");
    this.name = "RunsClosedError";
  }
}

/** Thrown by `submit` when `maxQueued` runs wait already. */
export class RunsQueueFullError extends Error {
  constructor(readonly queued: number, readonly maxQueued: number) {
    super(
      `${queued} extraction run(s) are waiting already (at most ${maxQueued}, ` +
        "EXTRACTION_MAX_QUEUED): try again once some have finished",
    );
    this.name = "RunsQueueFullError";
  }
}

function intersects(a: LonLatBox, b: LonLatBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** Runs extraction runs one at a time in the background. */
export class ExtractionRuns {
  readonly #deps: ExtractionRunsDeps;
  readonly #clock: () => Date;
  readonly #queue: { runId: string; request: RunRequest }[] = [];
  /** The bounds in force. */
  readonly limits: RunLimits;
  #worker: Promise<void> | undefined;
  #running = 0;
  /** Submissions between the queue check and their place in the queue. */
  #arriving = 0;
  #closed = false;
  #available: Promise<string[]> | undefined;
  readonly #variants = new Map<string, VariantRow[]>();

  constructor(deps: ExtractionRunsDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? (() => new Date());
    this.limits = {
      ...DEFAULT_RUN_LIMITS,
      ...deps.limits,
      keep: { ...DEFAULT_RUN_LIMITS.keep, ...deps.limits?.keep },
    };
  }

  #now(): string {
    return this.#clock().toISOString();
  }

  /**
   * Records a queued run and schedules it; resolves to its id once it is stored. Throws
   * RunsClosedError while stopping and RunsQueueFullError when `maxQueued` runs wait.
   */
  async submit(request: RunRequest): Promise<string> {
    if (this.#closed) throw new RunsClosedError();
    const waiting = this.#queue.length + this.#arriving;
    if (waiting >= this.limits.maxQueued) {
      throw new RunsQueueFullError(waiting, this.limits.maxQueued);
    }
    const runId = this.#deps.newId?.() ?? crypto.randomUUID();
    this.#arriving++;
    try {
      await this.#deps.runs.insertRun({
        run_id: runId,
        country: request.country,
        heat_country: request.heat_country ?? null,
        bbox: request.bbox,
        options: request.options,
        created_at: this.#now(),
      });
    } finally {
      this.#arriving--;
    }
    this.#queue.push({ runId, request });
    this.#worker ??= this.#work();
    return runId;
  }

  /** Runs waiting and running now. */
  counts(): { queued: number; running: number } {
    return { queued: this.#queue.length, running: this.#running };
  }

  /** ISO2 codes of the countries with a TABULA typology in the data store (read once). */
  typologyCountries(): Promise<string[]> {
    const read = this.#available ??= typologyCountries(this.#deps.dataStore);
    // A failed read is tried again next time.
    read.catch(() => {
      if (this.#available === read) this.#available = undefined;
    });
    return read;
  }

  /** Resolves once no run is queued or running (for tests and the stop). */
  async idle(): Promise<void> {
    while (this.#worker) await this.#worker;
  }

  /** Refuses new runs, fails the queued ones, and waits for the running one to finish. */
  async close(): Promise<void> {
    this.#closed = true;
    const left = this.#queue.splice(0);
    for (const { runId } of left) {
      await this.#deps.runs.finish(
        runId,
        { status: "failed", error: STOPPED_BEFORE_START },
        this.#now(),
      );
    }
    await this.idle();
  }

  async #work(): Promise<void> {
    const worker = new ExtractionWorker();
    try {
      for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
        this.#running = 1;
        try {
          await this.#run(worker, next.runId, next.request);
        } finally {
          this.#running = 0;
        }
        await this.#deps.runs.prune(this.limits.keep).catch((error) => {
          this.#deps.log?.(`pruning old runs failed: ${error}`);
        });
      }
    } finally {
      worker.close();
      this.#worker = undefined;
    }
  }

  /** The variant rows of the run's countries (each read once: the data store is read-only). */
  async #typology(country: string, heatCountry: string | undefined) {
    const available = await this.typologyCountries();
    const variants: VariantRow[] = [];
    for (const iso2 of new Set([country, heatCountry ?? country])) {
      if (!available.includes(iso2)) continue;
      let rows = this.#variants.get(iso2);
      if (!rows) {
        rows = await readVariantRows(this.#deps.dataStore, [iso2]);
        this.#variants.set(iso2, rows);
      }
      for (const row of rows) variants.push(row);
    }
    return { available, variants };
  }

  async #run(worker: ExtractionWorker, runId: string, request: RunRequest): Promise<void> {
    const { runs, osmStore } = this.#deps;
    let pct = -1;
    /** The run's folder of building files (the Worker writes, DuckDB reads). */
    let dir: string | undefined;
    const progress = (fraction: number) => {
      const next = Math.round(5 + 90 * fraction);
      if (next === pct) return;
      pct = next;
      // Progress writes queue on the writer in order, before the completion's transaction.
      runs.setProgress(runId, next).catch(() => {});
    };
    try {
      await runs.markRunning(runId, this.#now());
      const regions = await listImportedRegions(osmStore);
      if (!regions.some((r) => r.bbox !== null && intersects(r.bbox, request.bbox))) {
        await runs.finish(runId, { status: "no_data", reason: NO_REGION_REASON }, this.#now());
        return;
      }
      const total = await countFootprints(osmStore, request.bbox, NEIGHBOUR_MARGIN_DEG);
      if (total === 0) {
        await runs.finish(runId, { status: "no_data", reason: NO_BUILDING_REASON }, this.#now());
        return;
      }
      const max = this.limits.maxFootprints;
      if (total > max) {
        const error = `the box and its margin hold ${total} footprints; a run reads at most ` +
          `${max} (EXTRACTION_MAX_FOOTPRINTS): split the box into smaller ones`;
        await runs.finish(runId, { status: "failed", error }, this.#now());
        return;
      }
      const { available, variants } = await this.#typology(
        request.country,
        request.heat_country,
      );
      dir = await Deno.makeTempDir({ prefix: "extraction_run_" });
      const result = await worker.run(
        {
          request: { country: request.country, bbox: request.bbox, options: request.options },
          variants,
          available,
          ...(request.heat_country !== undefined ? { heatCountry: request.heat_country } : {}),
          dir,
        },
        this.#pages(request.bbox, total, progress),
        progress,
      );
      if (result.buildings === 0) {
        const reason = `none of the ${result.footprints} footprints in and around the box is a ` +
          "building of the box (small and unheated ones are left out unless " +
          "options.keep_small_and_unheated is true)";
        await runs.finish(runId, { status: "no_data", reason }, this.#now());
        return;
      }
      await runs.completeChunks(runId, result.chunks, this.#now());
      this.#deps.log?.(
        `run ${runId}: ${result.buildings} buildings, ${result.problems} problems` +
          (result.firstProblems[0] !== undefined ? ` (first: ${result.firstProblems[0]})` : ""),
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#deps.log?.(`run ${runId} failed: ${message}`);
      await runs.finish(runId, { status: "failed", error: message }, this.#now()).catch(() => {});
    } finally {
      if (dir !== undefined) await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }

  /** The footprints of the box and its margin, page by page; progress up to 0.2. */
  async *#pages(
    bbox: LonLatBox,
    total: number,
    progress: (fraction: number) => void,
  ): AsyncGenerator<string> {
    let read = 0, after: string | undefined;
    for (;;) {
      const page = await readFootprintPage(this.#deps.osmStore, bbox, NEIGHBOUR_MARGIN_DEG, {
        limit: FOOTPRINT_PAGE,
        ...(after !== undefined ? { after } : {}),
      });
      if (!page) return;
      read += page.count;
      after = page.last;
      progress(0.2 * Math.min(1, read / total));
      yield page.text;
      if (page.count < FOOTPRINT_PAGE) return;
    }
  }
}
