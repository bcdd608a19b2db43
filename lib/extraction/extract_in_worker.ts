/**
 * Runs the CPU part of an extraction in a Worker (extraction_worker.ts), so that a 0.2 x 0.2
 * degree run (seconds of geometry and heat calculation) does not hold the event loop that every
 * service of the process shares. The caller reads the footprints from DuckDB page by page and
 * hands the pages over (one string each); the Worker writes the buildings into the run's folder
 * as files of JSON lines, which the state store's DuckDB reads itself (run_store.ts).
 *
 * One Worker is started on the first run and reused by the next ones until `close()`; a Worker
 * that fails (a crash, an error event) is dropped and the next run starts a new one.
 */
import type { VariantRow } from "../heat/parameters/variant_row.ts";
import type { BoxRequest } from "./extract_box.ts";
import type { FromExtractionWorker, ToExtractionWorker } from "./extraction_worker.ts";
import type { BuildingChunk } from "./run_store.ts";

/** What a run hands the Worker besides the footprints. */
export interface WorkerRun {
  request: BoxRequest;
  /** Variant rows of the run's country and heat country (readVariantRows). */
  variants: VariantRow[];
  /** Countries with a typology (typologyCountries). */
  available: string[];
  heatCountry?: string;
  /** A folder of the run's own: the Worker writes the building files there. */
  dir: string;
}

/** What the Worker extracted. */
export interface WorkerResult {
  /** The buildings as files of JSON lines in the run's folder (run_store.ts). */
  chunks: BuildingChunk[];
  /** Buildings over the chunks. */
  buildings: number;
  /** Footprints read (the box and its margin). */
  footprints: number;
  /** Problems met, and the first of them. */
  problems: number;
  firstProblems: string[];
}

interface Pending {
  run: number;
  chunks: BuildingChunk[];
  onProgress: (fraction: number) => void;
  /** An error met before the extraction was asked for (while the footprints are sent). */
  failure?: Error;
  resolve?(result: WorkerResult): void;
  reject?(error: Error): void;
}

/** A reusable extraction Worker, one run at a time. */
export class ExtractionWorker {
  #worker: Worker | undefined;
  #pending: Pending | undefined;
  #runs = 0;

  /** Starts the Worker if none is running. */
  #ensure(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./extraction_worker.ts", import.meta.url), {
      type: "module",
    });
    worker.onmessage = (event: MessageEvent<FromExtractionWorker>) => this.#receive(event.data);
    worker.onerror = (event: ErrorEvent) => {
      // Handled here: unhandled, a Worker's error would also be raised on this thread.
      event.preventDefault();
      this.#drop(new Error(`extraction worker failed: ${event.message}`));
    };
    worker.onmessageerror = () => {
      this.#drop(new Error("extraction worker failed: a message could not be deserialised"));
    };
    this.#worker = worker;
    return worker;
  }

  /** Terminates the Worker and fails the run in progress with `error`. */
  #drop(error: Error): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    if (this.#pending) this.#fail(this.#pending, error);
  }

  #fail(pending: Pending, error: Error): void {
    if (pending.reject) {
      this.#pending = undefined;
      pending.reject(error);
    } else pending.failure ??= error;
  }

  #receive(message: FromExtractionWorker): void {
    const pending = this.#pending;
    // Answers of an earlier run (after its error) are dropped.
    if (!pending || message.run !== pending.run) return;
    if (message.type === "error") this.#fail(pending, new Error(message.message));
    else if (message.type === "progress") pending.onProgress(message.fraction);
    else if (message.type === "buildings") pending.chunks.push(message.chunk);
    else {
      this.#pending = undefined;
      pending.resolve?.({
        chunks: pending.chunks,
        buildings: pending.chunks.reduce((n, c) => n + c.buildings, 0),
        footprints: message.footprints,
        problems: message.problems,
        firstProblems: message.firstProblems,
      });
    }
  }

  /**
   * Extracts one run: `run`, then every page of `pages` (readFootprintPage's text: the
   * footprints of the box and its margin, read by the caller), then the extraction. `onProgress` gets the Worker's fractions
   * (0.7 surfaces built, 1 linked). Rejects with the Worker's error message.
   */
  async run(
    run: WorkerRun,
    pages: AsyncIterable<string>,
    onProgress: (fraction: number) => void = () => {},
  ): Promise<WorkerResult> {
    if (this.#pending) throw new Error("extraction worker: one run at a time");
    const id = ++this.#runs;
    const pending: Pending = { run: id, chunks: [], onProgress };
    this.#pending = pending;
    try {
      const worker = this.#ensure();
      const post = (message: ToExtractionWorker) => worker.postMessage(message);
      post({
        type: "start",
        run: id,
        request: run.request,
        variants: run.variants,
        available: run.available,
        dir: run.dir,
        ...(run.heatCountry !== undefined ? { heatCountry: run.heatCountry } : {}),
      });
      for await (const text of pages) {
        if (pending.failure) break;
        post({ type: "footprints", run: id, text });
      }
      if (pending.failure) throw pending.failure;
      const done = new Promise<WorkerResult>((resolve, reject) => {
        pending.resolve = resolve;
        pending.reject = reject;
      });
      post({ type: "extract", run: id });
      return await done;
    } finally {
      if (this.#pending === pending) this.#pending = undefined;
    }
  }

  /** Terminates the Worker; a run in progress fails. */
  close(): void {
    this.#drop(new Error("extraction worker closed"));
  }
}
