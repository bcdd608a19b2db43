/**
 * The run manager of the extraction service, on the job engine (`lib/jobs/`) with the runs kept
 * in the service's DuckDB state (`run_store.ts`): a run is accepted at once (its id answered while
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
import type { VariantRow } from "../heat/parameters/variant_row.ts";
import { JobQueue } from "../jobs/job_queue.ts";
import { errorMessage, JobRefusedError } from "../jobs/job_engine.ts";
import type { JobStore } from "../jobs/job_store.ts";
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
import type { BuildingChunk, KeepLimits, RunStore } from "./run_store.ts";
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

/** How a run ended well: with its buildings, or with no data and why. */
type RunOutcome =
  /** `dir`: the run's folder of building files, removed once the completion is written. */
  | { status: "completed"; chunks: readonly BuildingChunk[]; dir: string }
  | { status: "no_data"; reason: string };

/** The runs' moves written to the run store: the engine's states in the store's words. */
function runJobStore(runs: RunStore): JobStore<RunRequest, RunOutcome, never> {
  const iso = (at: number) => new Date(at).toISOString();
  return {
    insert: (job) => {
      const request = job.input!;
      return runs.insertRun({
        run_id: job.id,
        country: request.country,
        heat_country: request.heat_country ?? null,
        bbox: request.bbox,
        options: request.options,
        created_at: iso(job.createdAt),
      });
    },
    move: (job, to, patch) => {
      const at = iso(patch.at);
      if (to === "running") return runs.markRunning(job.id, at);
      const outcome = patch.result;
      if (to === "succeeded" && outcome?.status === "completed") {
        return runs.completeChunks(job.id, outcome.chunks, at).finally(() =>
          Deno.remove(outcome.dir, { recursive: true }).catch(() => {})
        );
      }
      if (to === "succeeded" && outcome?.status === "no_data") {
        return runs.finish(job.id, { status: "no_data", reason: outcome.reason }, at);
      }
      return runs.finish(job.id, { status: "failed", error: patch.error ?? "failed" }, at);
    },
  };
}

/** Runs extraction runs one at a time in the background. */
export class ExtractionRuns {
  readonly #deps: ExtractionRunsDeps;
  readonly #engine: JobQueue<RunRequest, RunOutcome, never>;
  /** The bounds in force. */
  readonly limits: RunLimits;
  /** The Worker of the current busy spell. */
  #worker: ExtractionWorker | undefined;
  /** Pruning of old runs, after each run. */
  #pruning: Promise<void> = Promise.resolve();
  #available: Promise<string[]> | undefined;
  readonly #variants = new Map<string, VariantRow[]>();

  constructor(deps: ExtractionRunsDeps) {
    this.#deps = deps;
    const clock = deps.clock ?? (() => new Date());
    this.limits = {
      ...DEFAULT_RUN_LIMITS,
      ...deps.limits,
      keep: { ...DEFAULT_RUN_LIMITS.keep, ...deps.limits?.keep },
    };
    this.#engine = new JobQueue<RunRequest, RunOutcome, never>({
      work: (request, context) => this.#run(context.id, request),
      events: { isFinal: () => true },
      maxRunning: 1,
      maxQueued: this.limits.maxQueued,
      // The run store holds finished runs; the engine forgets them at once.
      ttlMs: 0,
      store: runJobStore(deps.runs),
      now: () => clock().getTime(),
      ...(deps.newId ? { newId: deps.newId } : {}),
      onFinished: () => {
        this.#pruning = this.#pruning.then(() =>
          deps.runs.prune(this.limits.keep).then(
            () => {},
            (error) => this.#deps.log?.(`pruning old runs failed: ${error}`),
          )
        );
      },
    });
  }

  /**
   * Records a queued run and schedules it; resolves to its id once it is stored. Throws
   * RunsClosedError while stopping and RunsQueueFullError when `maxQueued` runs wait.
   */
  async submit(request: RunRequest): Promise<string> {
    let id: string;
    try {
      id = this.#engine.submit(request).id;
    } catch (error) {
      if (!(error instanceof JobRefusedError)) throw error;
      if (error.reason === "closed") throw new RunsClosedError();
      throw new RunsQueueFullError(this.#engine.counts().queued, this.limits.maxQueued);
    }
    await this.#engine.recorded(id);
    return id;
  }

  /** Runs waiting and running now. */
  counts(): { queued: number; running: number } {
    return this.#engine.counts();
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
    await this.#engine.idle();
    await this.#pruning;
  }

  /** Refuses new runs, fails the queued ones, and waits for the running one to finish. */
  async close(): Promise<void> {
    await this.#engine.close({ queued: "fail", error: STOPPED_BEFORE_START, running: "finish" });
    await this.#pruning;
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

  /**
   * One run, in the Worker of the current busy spell (started by its first run, ended when no
   * run waits after one).
   */
  async #run(runId: string, request: RunRequest): Promise<RunOutcome> {
    const worker = this.#worker ??= new ExtractionWorker();
    try {
      return await this.#extract(worker, runId, request);
    } catch (error) {
      this.#deps.log?.(`run ${runId} failed: ${errorMessage(error)}`);
      throw error;
    } finally {
      if (this.#engine.counts().queued === 0) {
        worker.close();
        if (this.#worker === worker) this.#worker = undefined;
      }
    }
  }

  async #extract(
    worker: ExtractionWorker,
    runId: string,
    request: RunRequest,
  ): Promise<RunOutcome> {
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
      const regions = await listImportedRegions(osmStore);
      if (!regions.some((r) => r.bbox !== null && intersects(r.bbox, request.bbox))) {
        return { status: "no_data", reason: NO_REGION_REASON };
      }
      const total = await countFootprints(osmStore, request.bbox, NEIGHBOUR_MARGIN_DEG);
      if (total === 0) return { status: "no_data", reason: NO_BUILDING_REASON };
      const max = this.limits.maxFootprints;
      if (total > max) {
        throw new Error(
          `the box and its margin hold ${total} footprints; a run reads at most ` +
            `${max} (EXTRACTION_MAX_FOOTPRINTS): split the box into smaller ones`,
        );
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
        return { status: "no_data", reason };
      }
      this.#deps.log?.(
        `run ${runId}: ${result.buildings} buildings, ${result.problems} problems` +
          (result.firstProblems[0] !== undefined ? ` (first: ${result.firstProblems[0]})` : ""),
      );
      const outcome: RunOutcome = { status: "completed", chunks: result.chunks, dir };
      // The completion reads the building files: they go once its transaction is written.
      dir = undefined;
      return outcome;
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
