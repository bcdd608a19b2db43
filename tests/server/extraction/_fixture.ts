/**
 * Shared by the extraction service's tests: Liechtenstein imported once per test file into an
 * in-memory OSM store, the heat data store (data/store.duckdb, built into a temporary file when
 * missing), and an app over an in-memory state store.
 */
import { join } from "node:path";
import { ExtractionRuns, type RunLimits } from "../../../lib/extraction/extraction_runs.ts";
import { RunStore } from "../../../lib/extraction/run_store.ts";
import { importOsmExtract } from "../../../lib/osm/import_region.ts";
import { defaultSteps } from "../../../lib/data_sets.ts";
import { ensureStore } from "../../../lib/store/build_store.ts";
import { openStore, type Store } from "../../../lib/store/store.ts";
import { createExtractionApp } from "../../../server/extraction/app.ts";

/** The Liechtenstein extract. */
export const PBF = new URL(
  "../../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
  import.meta.url,
).pathname;

/** Triesen, LI: [xmin, ymin, xmax, ymax]. */
export const TRIESEN = [9.50, 47.08, 9.56, 47.13] as const;

const SHIPPED_DATA_STORE = new URL("../../../data/store.duckdb", import.meta.url).pathname;

/** An in-memory OSM store with Liechtenstein imported (call once per test file). */
export async function importLiechtenstein(): Promise<Store> {
  const store = await openStore(":memory:");
  await importOsmExtract(store, PBF, { regionPath: "Europe/Liechtenstein", sourceUrl: "file:li" });
  return store;
}

/** Path of the heat data store: the shipped build, else one built into a temporary folder. */
export async function dataStorePath(): Promise<string> {
  try {
    await Deno.stat(SHIPPED_DATA_STORE);
    return SHIPPED_DATA_STORE;
  } catch {
    const path = join(await Deno.makeTempDir({ prefix: "extraction_data_" }), "store.duckdb");
    await ensureStore(path, { steps: defaultSteps() });
    return path;
  }
}

/** An extraction app over an in-memory state store, with its parts. */
export async function createTestApp(
  osmStore: Store,
  dataStore: Store,
  limits?: Partial<RunLimits>,
) {
  const state = await openStore(":memory:");
  const runs = new RunStore(state);
  await runs.init();
  const manager = new ExtractionRuns({ runs, osmStore, dataStore, ...(limits ? { limits } : {}) });
  const app = createExtractionApp({ runs, manager, osmStore });
  return {
    app,
    runs,
    manager,
    state,
    async close() {
      await manager.close();
      await state.close();
    },
  };
}

/** A JSON request. */
export function post(path: string, body: unknown): RequestInit & { path: string } {
  return {
    path,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** Polls a run until it leaves queued/running; gives its view. */
export async function waitForRun(
  app: { request(path: string): Response | Promise<Response> },
  runId: string,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.request(`/api/v1/runs/${runId}`);
    const view = await res.json() as Record<string, unknown>;
    if (view["status"] !== "queued" && view["status"] !== "running") return view;
    if (Date.now() > until) throw new Error(`run ${runId} still ${view["status"]}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
