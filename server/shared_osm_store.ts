/**
 * The OSM store of a process: opened once (read-write, memory bounded) and shared by the
 * services that use it, the backend's map routes and the extraction service, because DuckDB
 * must not have two instances of one file writing. When the store has no region yet, the seed
 * extract is imported in the background (the shipped Liechtenstein extract by default, so a
 * first start has a map and buildings to show). Imports dispatch REGION_IMPORTED on `events`.
 */
import { dirname } from "node:path";
import { importOsmExtract } from "../lib/osm/import_region.ts";
import { listImportedRegions } from "../lib/osm/osm_store.ts";
import { openStore, type Store } from "../lib/store/store.ts";
import type { OsmStoreSettings } from "./osm_store_settings.ts";

/** The event a completed import dispatches; `detail` is the region path. */
export const REGION_IMPORTED = "region-imported";

/** The shared OSM store. */
export interface SharedOsmStore {
  readonly store: Store;
  /** Dispatches REGION_IMPORTED (detail: the region path) after every committed import. */
  readonly events: EventTarget;
  /** Settles when the seed import (if any) has ended. */
  readonly seeded: Promise<void>;
  /** Waits for the seed, then checkpoints and closes the store. */
  close(): Promise<void>;
}

/** Opens the OSM store named by `settings` and starts the seed import when it is empty. */
export async function openSharedOsmStore(
  settings: OsmStoreSettings,
  log: (message: string) => void,
): Promise<SharedOsmStore> {
  await Deno.mkdir(dirname(settings.path), { recursive: true });
  const store = await openStore(settings.path, { memoryLimit: settings.memoryLimit })
    .catch((error) => {
      throw new Error(
        `Cannot open the OSM store ${settings.path} (OSM_STORE_PATH): ${
          error instanceof Error ? error.message : error
        }`,
      );
    });
  const events = new EventTarget();
  const seeded = seed(store, settings.seed, events, log);
  return {
    store,
    events,
    seeded,
    async close() {
      await seeded;
      await store.close();
    },
  };
}

/** Imports the seed extract when the store has no region; failures are logged, not thrown. */
async function seed(
  store: Store,
  seed: OsmStoreSettings["seed"],
  events: EventTarget,
  log: (message: string) => void,
): Promise<void> {
  if (!seed) return;
  try {
    if ((await listImportedRegions(store)).length > 0) return;
    log(`OSM store empty: importing ${seed.file} as ${seed.regionPath}`);
    const result = await importOsmExtract(store, seed.file, { regionPath: seed.regionPath });
    events.dispatchEvent(new CustomEvent(REGION_IMPORTED, { detail: seed.regionPath }));
    log(
      `imported ${seed.regionPath} in ${result.seconds.toFixed(1)} s: ` +
        Object.entries(result.counts).map(([layer, n]) => `${n} ${layer}`).join(", "),
    );
  } catch (error) {
    log(`OSM seed import failed: ${error instanceof Error ? error.message : error}`);
  }
}
