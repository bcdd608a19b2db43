/**
 * What the backend's OSM routes share: the OSM store (OSM_STORE_PATH, open read-write because
 * downloads import into it), the map settings, the fetch that reaches outside services, and the
 * signal that a region import has completed (layer caches listen to it to drop their answers).
 */
import type { Store } from "../../../lib/store/store.ts";
import type { RegionsDb } from "../../../lib/osm/regions_db.ts";
import type { GeoSettings } from "./geo_config.ts";
import { REGION_IMPORTED } from "../../shared_osm_store.ts";

export { REGION_IMPORTED } from "../../shared_osm_store.ts";

/** The shared state of the OSM routes. */
export interface OsmContext {
  /** The OSM store: raw elements, layer tables, `osm_regions`. */
  readonly store: Store;
  /** NOMINATIM_URL, GEOFABRIK_URL, OVERPASS_URL, the geocoder's User-Agent. */
  readonly settings: GeoSettings;
  /** The downloadable regions (Geofabrik index, URLs under GEOFABRIK_URL). */
  readonly regions: RegionsDb;
  /** Reaches Overpass, Nominatim and the download server; tests pass one to a local fake. */
  readonly fetch: typeof fetch;
  /** Dispatches REGION_IMPORTED events: the shared store's, so a seed import is seen too. */
  readonly events: EventTarget;
  /** Aborted when the service stops: downloads and upstream requests end with it. */
  readonly shutdown: AbortSignal;
}

/** Tells the listeners that `regionPath` has been imported (committed). */
export function announceRegionImported(context: OsmContext, regionPath: string): void {
  context.events.dispatchEvent(new CustomEvent(REGION_IMPORTED, { detail: regionPath }));
}

/** Calls `listener` after every completed import; returns the unsubscribe function. */
export function onRegionImported(
  context: OsmContext,
  listener: (regionPath: string) => void,
): () => void {
  const handler: EventListener = (event) => listener((event as CustomEvent<string>).detail);
  context.events.addEventListener(REGION_IMPORTED, handler);
  return () => context.events.removeEventListener(REGION_IMPORTED, handler);
}
