/**
 * The run manager of the extraction service: a run is accepted at once (its id answered while
 * it waits), and runs run one at a time in the background, in the order they were accepted:
 * queued -> running -> completed | no_data | failed.
 *
 * - `no_data` (not an error, with a reason): no imported OSM region's box intersects the run's
 *   box, or the imported data has no building whose centre is in it.
 * - `failed` (with an error): the heat link cannot be prepared (a country without a TABULA
 *   typology and no usable heat_country), or a store failed.
 *
 * On close, runs still queued fail at once ("the service stopped before the run started"), and
 * the running run is allowed to finish: one run is one box of at most 0.2 x 0.2 degrees, which
 * extracts in seconds, and finishing keeps its result instead of throwing the work away.
 */
import { listImportedRegions } from "../osm/osm_store.ts";
import type { Store } from "../store/store.ts";
import type { ExtractionOptions } from "./building_record.ts";
import { extractBox, type LonLatBox } from "./extract_box.ts";
import { loadTabulaForRun } from "./tabula_link.ts";
import type { RunStore } from "./run_store.ts";

/** The reason of a run whose box no imported region covers. */
export const NO_REGION_REASON = "no imported region covers the box: import one with " +
  "POST /api/osm/download on the backend or deno task geo-import";

/** The error of a run still queued when the service stopped. */
export const STOPPED_BEFORE_START = "the service stopped before the run started";

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

function intersects(a: LonLatBox, b: LonLatBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** Runs extraction runs one at a time in the background. */
export class ExtractionRuns {
  readonly #deps: ExtractionRunsDeps;
  readonly #clock: () => Date;
  readonly #queue: { runId: string; request: RunRequest }[] = [];
  #worker: Promise<void> | undefined;
  #running = 0;
  #closed = false;

  constructor(deps: ExtractionRunsDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? (() => new Date());
  }

  #now(): string {
    return this.#clock().toISOString();
  }

  /** Records a queued run and schedules it; resolves to its id once it is stored. */
  async submit(request: RunRequest): Promise<string> {
    if (this.#closed) throw new RunsClosedError();
    const runId = this.#deps.newId?.() ?? crypto.randomUUID();
    await this.#deps.runs.insertRun({
      run_id: runId,
      country: request.country,
      heat_country: request.heat_country ?? null,
      bbox: request.bbox,
      options: request.options,
      created_at: this.#now(),
    });
    this.#queue.push({ runId, request });
    this.#worker ??= this.#work();
    return runId;
  }

  /** Runs waiting and running now. */
  counts(): { queued: number; running: number } {
    return { queued: this.#queue.length, running: this.#running };
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
    try {
      for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
        this.#running = 1;
        try {
          await this.#run(next.runId, next.request);
        } finally {
          this.#running = 0;
        }
      }
    } finally {
      this.#worker = undefined;
    }
  }

  async #run(runId: string, request: RunRequest): Promise<void> {
    const { runs, osmStore, dataStore } = this.#deps;
    try {
      await runs.markRunning(runId, this.#now());
      const regions = await listImportedRegions(osmStore);
      if (!regions.some((r) => r.bbox !== null && intersects(r.bbox, request.bbox))) {
        await runs.finish(runId, { status: "no_data", reason: NO_REGION_REASON }, this.#now());
        return;
      }
      const heat = await loadTabulaForRun(dataStore, request.country, request.heat_country);
      if ("error" in heat) {
        await runs.finish(runId, { status: "failed", error: heat.error }, this.#now());
        return;
      }
      // Progress writes queue on the writer in order, before the completion's transaction.
      const result = await extractBox(osmStore, heat, request, (fraction) => {
        runs.setProgress(runId, Math.round(5 + 90 * fraction)).catch(() => {});
      });
      if (result.buildings.length === 0) {
        const reason = result.footprints === 0
          ? "the imported data has no building in the box"
          : `none of the ${result.footprints} footprints in and around the box is a building ` +
            "of the box (small and unheated ones are left out unless " +
            "options.keep_small_and_unheated is true)";
        await runs.finish(runId, { status: "no_data", reason }, this.#now());
        return;
      }
      await runs.complete(runId, result.buildings, this.#now());
      this.#deps.log?.(
        `run ${runId}: ${result.buildings.length} buildings, ${result.problems.length} problems`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#deps.log?.(`run ${runId} failed: ${message}`);
      await runs.finish(runId, { status: "failed", error: message }, this.#now()).catch(() => {});
    }
  }
}
