/**
 * The backend's OSM side, opened once at start: the OSM store (OSM_STORE_PATH, read-write with
 * DuckDB's memory bounded by OSM_STORE_MEMORY), the routes' shared context, the geocoder over
 * Nominatim with the shipped gazetteer and the imported regions' places, and the seed: when the
 * store has no region yet, the OSM_SEED extract is imported in the background (the shipped
 * Liechtenstein extract by default, so a first start has a map to show).
 */
import { dirname } from "node:path";
import { importOsmExtract } from "../../lib/osm/import_region.ts";
import { listImportedRegions } from "../../lib/osm/osm_store.ts";
import { storePlaces } from "../../lib/osm/store_places.ts";
import { openStore } from "../../lib/store/store.ts";
import type { GeoSettings } from "./geo_config.ts";
import { announceRegionImported, onRegionImported, type OsmContext } from "./osm_context.ts";
import { type GeoRouteDeps, loadGeoRouteDeps } from "./osm_routes.ts";

/** The opened OSM side of the backend. */
export interface OsmService {
  readonly context: OsmContext;
  /** The regions-db and geocode routes' dependencies. */
  readonly geo: GeoRouteDeps;
  /** Settles when the seed import (if any) has ended. */
  readonly seeded: Promise<void>;
  /** Waits for the seed, then checkpoints and closes the OSM store. */
  close(): Promise<void>;
}

/** Opens the OSM store and builds the context; `log` gets the seed's progress. */
export async function openOsmService(
  settings: GeoSettings,
  options: { shutdown: AbortSignal; log: (message: string) => void; fetch?: typeof fetch },
): Promise<OsmService> {
  await Deno.mkdir(dirname(settings.osmStorePath), { recursive: true });
  const store = await openStore(settings.osmStorePath, { memoryLimit: settings.osmStoreMemory })
    .catch((error) => {
      throw new Error(
        `Cannot open the OSM store ${settings.osmStorePath} (OSM_STORE_PATH): ${
          error instanceof Error ? error.message : error
        }`,
      );
    });
  const places = storePlaces(store);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let geo: GeoRouteDeps;
  try {
    geo = await loadGeoRouteDeps(settings, {
      fetch: fetchImpl,
      // A store that cannot be read leaves the shipped gazetteer to answer, never a 500.
      extraPlaces: () => places.places().catch(() => []),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const context: OsmContext = {
    store,
    settings,
    regions: geo.regions,
    fetch: fetchImpl,
    events: new EventTarget(),
    shutdown: options.shutdown,
  };
  onRegionImported(context, () => places.invalidate());
  const seeded = seed(context, options.log);
  return {
    context,
    geo,
    seeded,
    async close() {
      await seeded;
      await store.close();
    },
  };
}

/** Imports the seed extract when the store has no region; failures are logged, not thrown. */
async function seed(context: OsmContext, log: (message: string) => void): Promise<void> {
  const seed = context.settings.osmSeed;
  if (!seed) return;
  try {
    if ((await listImportedRegions(context.store)).length > 0) return;
    log(`OSM store empty: importing ${seed.file} as ${seed.regionPath}`);
    const result = await importOsmExtract(context.store, seed.file, {
      regionPath: seed.regionPath,
    });
    announceRegionImported(context, seed.regionPath);
    log(
      `imported ${seed.regionPath} in ${result.seconds.toFixed(1)} s: ` +
        Object.entries(result.counts).map(([layer, n]) => `${n} ${layer}`).join(", "),
    );
  } catch (error) {
    log(`OSM seed import failed: ${error instanceof Error ? error.message : error}`);
  }
}
