/**
 * The OSM routes' context for tests: a store, the map settings from a test environment, the
 * Geofabrik regions with their download URLs under `GEOFABRIK_URL`, and the given (or the
 * global) fetch; `shutdown` defaults to a signal that never aborts.
 */
import type { Store } from "../../../../lib/store/store.ts";
import { loadRegionsDb } from "../../../../lib/osm/regions_db.ts";
import type { Env } from "../../../../server/env.ts";
import { readGeoSettings } from "../../../../server/backend/map/geo_config.ts";
import type { OsmContext } from "../../../../server/backend/map/osm_context.ts";
import { GEO_DATA } from "../../../../server/backend/map/osm_routes.ts";

/** An OsmContext over `store` for the environment `env` (OVERPASS_URL, GEOFABRIK_URL, ...). */
export async function testOsmContext(
  store: Store,
  env: Env = {},
  options: { shutdown?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<OsmContext> {
  const settings = readGeoSettings(env);
  return {
    store,
    settings,
    regions: await loadRegionsDb(GEO_DATA.geofabrikIndex, settings.geofabrikUrl),
    fetch: options.fetch ?? globalThis.fetch,
    events: new EventTarget(),
    shutdown: options.shutdown ?? new AbortController().signal,
  };
}
