/**
 * The backend's OSM side, built at start over the process's shared OSM store: the routes'
 * context and the geocoder over Nominatim with the shipped gazetteer and the imported regions'
 * places (re-read after every import).
 */
import { storePlaces } from "../../../lib/osm/store_places.ts";
import type { SharedOsmStore } from "../../shared_osm_store.ts";
import type { GeoSettings } from "./geo_config.ts";
import { onRegionImported, type OsmContext } from "./osm_context.ts";
import { type GeoRouteDeps, loadGeoRouteDeps } from "./osm_routes.ts";

/** The backend's OSM side. */
export interface OsmService {
  readonly context: OsmContext;
  /** The regions-db and geocode routes' dependencies. */
  readonly geo: GeoRouteDeps;
}

/** Builds the OSM routes' context and the geocoder over `osm`. */
export async function openOsmService(
  settings: GeoSettings,
  osm: SharedOsmStore,
  options: { shutdown: AbortSignal; fetch?: typeof fetch },
): Promise<OsmService> {
  const places = storePlaces(osm.store);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const geo = await loadGeoRouteDeps(settings, {
    fetch: fetchImpl,
    // A store that cannot be read leaves the shipped gazetteer to answer, never a 500.
    extraPlaces: () => places.places().catch(() => []),
  });
  const context: OsmContext = {
    store: osm.store,
    settings,
    regions: geo.regions,
    fetch: fetchImpl,
    events: osm.events,
    shutdown: options.shutdown,
  };
  onRegionImported(context, () => places.invalidate());
  return { context, geo };
}
