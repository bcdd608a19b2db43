/**
 * The map routes' settings from environment variables (a pure function, like `config.ts`): the
 * outside services they ask, how they identify themselves, and the bounds of downloads,
 * geocoding and layer answers (queue and concurrency caps that move into the job engine later).
 */
import { type Env, integer, positive, text, url } from "../../env.ts";
import { GEOFABRIK_DEFAULT_URL } from "../../../lib/osm/regions_db.ts";

/** What the map routes are configured with. */
export interface GeoSettings {
  /** Nominatim-compatible geocoder (NOMINATIM_URL, default the public instance). */
  nominatimUrl: string;
  /** Base of the region download URLs (GEOFABRIK_URL, default https://download.geofabrik.de). */
  geofabrikUrl: string;
  /** User-Agent sent to Nominatim, whose usage policy asks for one naming the application. */
  geocoderUserAgent: string;
  /** Overpass API endpoint (OVERPASS_URL, default the public instance). */
  overpassUrl: string;
  /** Largest region extract, bytes (OSM_DOWNLOAD_MAX_MB, MiB, default 8192). */
  downloadMaxBytes: number;
  /** Region downloads queued or running at once (OSM_DOWNLOADS_MAX, default 2); 503 beyond. */
  downloadsMax: number;
  /** Longest wait for the download server's answer, ms (OSM_DOWNLOAD_FIRST_BYTE_S, default 30). */
  downloadFirstByteMs: number;
  /** Longest pause inside a download's body, ms (OSM_DOWNLOAD_STALL_S, default 60). */
  downloadStallMs: number;
  /** Longest wait of a geocoding request for its turn at Nominatim, ms (GEOCODER_MAX_WAIT_S, 10). */
  geocoderMaxWaitMs: number;
  /** Most features in one layer answer (OSM_LAYER_MAX_FEATURES, default 20000). */
  layerMaxFeatures: number;
  /** Largest layer answer, bytes (OSM_LAYER_MAX_MB, MiB, default 32). */
  layerMaxBytes: number;
  /** Memory of the layer answer cache, bytes (OSM_LAYER_CACHE_MB, MiB, default 128). */
  layerCacheBytes: number;
}

/** Defaults of the settings. */
export const GEO_DEFAULTS = {
  nominatimUrl: "https://nominatim.openstreetmap.org",
  geofabrikUrl: GEOFABRIK_DEFAULT_URL,
  geocoderUserAgent: "energy-workspace/1.0 (+https://example.invalid)",
  overpassUrl: "https://overpass-api.de/api/interpreter",
  downloadMaxMb: 8192,
  downloadsMax: 2,
  downloadFirstByteS: 30,
  downloadStallS: 60,
  geocoderMaxWaitS: 10,
  layerMaxFeatures: 20_000,
  layerMaxMb: 32,
  layerCacheMb: 128,
} as const;

const MIB = 1024 * 1024;

/** Reads the map settings; throws a TypeError or RangeError naming the variable at fault. */
export function readGeoSettings(env: Env): GeoSettings {
  const seconds = (name: string, fallback: number) =>
    Math.round(positive(name, env[name], fallback) * 1000);
  const mib = (name: string, fallback: number) =>
    Math.floor(positive(name, env[name], fallback) * MIB);
  return {
    nominatimUrl: url("NOMINATIM_URL", text(env, "NOMINATIM_URL") ?? GEO_DEFAULTS.nominatimUrl),
    geofabrikUrl: url("GEOFABRIK_URL", text(env, "GEOFABRIK_URL") ?? GEO_DEFAULTS.geofabrikUrl),
    geocoderUserAgent: text(env, "GEOCODER_USER_AGENT") ?? GEO_DEFAULTS.geocoderUserAgent,
    overpassUrl: url("OVERPASS_URL", text(env, "OVERPASS_URL") ?? GEO_DEFAULTS.overpassUrl),
    // Fractions are allowed (MiB and seconds), as BACKEND_MAX_BODY_MB allows them.
    downloadMaxBytes: mib("OSM_DOWNLOAD_MAX_MB", GEO_DEFAULTS.downloadMaxMb),
    downloadsMax: integer(env, "OSM_DOWNLOADS_MAX", GEO_DEFAULTS.downloadsMax, 1),
    downloadFirstByteMs: seconds("OSM_DOWNLOAD_FIRST_BYTE_S", GEO_DEFAULTS.downloadFirstByteS),
    downloadStallMs: seconds("OSM_DOWNLOAD_STALL_S", GEO_DEFAULTS.downloadStallS),
    geocoderMaxWaitMs: seconds("GEOCODER_MAX_WAIT_S", GEO_DEFAULTS.geocoderMaxWaitS),
    layerMaxFeatures: integer(env, "OSM_LAYER_MAX_FEATURES", GEO_DEFAULTS.layerMaxFeatures, 1),
    layerMaxBytes: mib("OSM_LAYER_MAX_MB", GEO_DEFAULTS.layerMaxMb),
    layerCacheBytes: mib("OSM_LAYER_CACHE_MB", GEO_DEFAULTS.layerCacheMb),
  };
}
