/**
 * The map routes' settings from environment variables (a pure function, like `config.ts`): the
 * outside services they ask and how they identify themselves.
 */
import { type Env, text, url } from "../env.ts";
import { GEOFABRIK_DEFAULT_URL } from "../../lib/osm/regions_db.ts";

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
}

/** Defaults of the settings. */
export const GEO_DEFAULTS = {
  nominatimUrl: "https://nominatim.openstreetmap.org",
  geofabrikUrl: GEOFABRIK_DEFAULT_URL,
  geocoderUserAgent: "energy-workspace/1.0 (+https://example.invalid)",
  overpassUrl: "https://overpass-api.de/api/interpreter",
} as const;

/** Reads the map settings; throws a TypeError naming the variable at fault. */
export function readGeoSettings(env: Env): GeoSettings {
  return {
    nominatimUrl: url("NOMINATIM_URL", text(env, "NOMINATIM_URL") ?? GEO_DEFAULTS.nominatimUrl),
    geofabrikUrl: url("GEOFABRIK_URL", text(env, "GEOFABRIK_URL") ?? GEO_DEFAULTS.geofabrikUrl),
    geocoderUserAgent: text(env, "GEOCODER_USER_AGENT") ?? GEO_DEFAULTS.geocoderUserAgent,
    overpassUrl: url("OVERPASS_URL", text(env, "OVERPASS_URL") ?? GEO_DEFAULTS.overpassUrl),
  };
}
