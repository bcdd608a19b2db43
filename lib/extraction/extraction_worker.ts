/**
 * The Worker of the extraction service's runs: the CPU part of a run (extractFootprints:
 * surfaces, party walls, roof planes, heat link) off the thread that answers every service of
 * the process. DuckDB stays on the main thread: it reads the footprints and the typology and
 * sends them here, a page of footprints as one string; the buildings are written as files of
 * JSON lines (the text the state store keeps) into the run's folder, which DuckDB reads in its
 * own threads. So the main thread never holds (and its garbage collector never walks) the
 * thousands of records of a run.
 *
 * Protocol (one run at a time; the Worker is reused between runs): `start`, any number of
 * `footprints`, then `extract`; answers `progress`, `buildings` (chunks), then `done`, or
 * `error` at any point (the run is dropped, the Worker stays usable). Every message carries the
 * number of its run, so that answers of a dropped run are told apart.
 */
import { join } from "node:path";
import { typologyFromRows } from "../heat/typology/typology.ts";
import type { VariantRow } from "../heat/parameters/variant_row.ts";
import type { Footprint } from "./building_record.ts";
import { type BoxRequest, extractFootprints, parseFootprintPage } from "./extract_box.ts";
import { type BuildingChunk, buildingChunks } from "./run_store.ts";
import { type HeatLinkDeps, heatLinkDeps } from "./tabula_link.ts";

/** Problems a `done` message lists (the count is complete). */
export const PROBLEMS_LISTED = 20;

/** Messages to the Worker; `run` numbers the run each belongs to. */
export type ToExtractionWorker =
  | {
    type: "start";
    run: number;
    request: BoxRequest;
    /** Variant rows of the run's country and heat country (readVariantRows). */
    variants: VariantRow[];
    /** Countries with a typology, for the message of a run without one. */
    available: string[];
    heatCountry?: string;
    /** The run's folder: the building files go there. */
    dir: string;
  }
  /** A page of footprints (readFootprintPage's JSON array text). */
  | { type: "footprints"; run: number; text: string }
  | { type: "extract"; run: number };

/** Messages from the Worker, each with the `run` of the message it answers. */
export type FromExtractionWorker =
  | { type: "progress"; run: number; fraction: number }
  | { type: "buildings"; run: number; chunk: BuildingChunk }
  | { type: "done"; run: number; footprints: number; problems: number; firstProblems: string[] }
  | { type: "error"; run: number; message: string };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToExtractionWorker>) => void) | null;
  postMessage(message: FromExtractionWorker): void;
};

let job:
  | {
    run: number;
    request: BoxRequest;
    heat: HeatLinkDeps | { error: string };
    footprints: Footprint[];
    dir: string;
  }
  | undefined;

function handle(message: ToExtractionWorker): void {
  if (message.type === "start") {
    const heat = heatLinkDeps(
      typologyFromRows(message.variants),
      message.request.country,
      message.heatCountry,
      message.available,
    );
    job = { run: message.run, request: message.request, heat, footprints: [], dir: message.dir };
    return;
  }
  if (job?.run !== message.run) throw new Error(`"${message.type}" without a started run`);
  if (message.type === "footprints") {
    for (const footprint of parseFootprintPage(message.text)) job.footprints.push(footprint);
    return;
  }
  const { run, request, heat, footprints, dir } = job;
  job = undefined;
  const result = extractFootprints(footprints, heat, request, (fraction) => {
    scope.postMessage({ type: "progress", run, fraction });
  });
  buildingChunks(result.buildings).forEach(({ text, buildings, surfaces }, i) => {
    const file = join(dir, `buildings_${i}.jsonl`);
    Deno.writeTextFileSync(file, text);
    scope.postMessage({ type: "buildings", run, chunk: { buildings, surfaces, file } });
  });
  scope.postMessage({
    type: "done",
    run,
    footprints: result.footprints,
    problems: result.problems.length,
    firstProblems: result.problems.slice(0, PROBLEMS_LISTED),
  });
}

scope.onmessage = (event) => {
  try {
    handle(event.data);
  } catch (error) {
    job = undefined;
    scope.postMessage({
      type: "error",
      run: event.data.run,
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
