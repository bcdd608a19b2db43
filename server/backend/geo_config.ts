/**
 * The map routes' settings from environment variables (a pure function, like `config.ts`): the
 * OSM store, the extract imported into it on a first start, the outside services the routes ask
 * and how they identify themselves.
 */
import { type Env, text, url } from "../env.ts";
import { GEOFABRIK_DEFAULT_URL, parseRegionPath } from "../../lib/osm/regions_db.ts";

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
  /** DuckDB file of imported regions (OSM_STORE_PATH, default data/osm.duckdb). */
  osmStorePath: string;
  /** DuckDB memory limit of that store (OSM_STORE_MEMORY, default 1GB); it spills beyond. */
  osmStoreMemory: string;
  /**
   * Extract imported when the store has no region yet (OSM_SEED, default the shipped
   * Liechtenstein extract; `none` or empty: no seed), and its region path (OSM_SEED_REGION).
   */
  osmSeed: { file: string; regionPath: string } | null;
}

/** Defaults of the settings. */
export const GEO_DEFAULTS = {
  nominatimUrl: "https://nominatim.openstreetmap.org",
  geofabrikUrl: GEOFABRIK_DEFAULT_URL,
  geocoderUserAgent: "energy-workspace/1.0 (+https://example.invalid)",
  overpassUrl: "https://overpass-api.de/api/interpreter",
  osmStorePath: "data/osm.duckdb",
  osmStoreMemory: "1GB",
  osmSeedFile: new URL(
    "../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
    import.meta.url,
  ).pathname,
  osmSeedRegion: "Europe/Liechtenstein",
} as const;

/** Reads the map settings; throws a TypeError naming the variable at fault. */
export function readGeoSettings(env: Env): GeoSettings {
  return {
    nominatimUrl: url("NOMINATIM_URL", text(env, "NOMINATIM_URL") ?? GEO_DEFAULTS.nominatimUrl),
    geofabrikUrl: url("GEOFABRIK_URL", text(env, "GEOFABRIK_URL") ?? GEO_DEFAULTS.geofabrikUrl),
    geocoderUserAgent: text(env, "GEOCODER_USER_AGENT") ?? GEO_DEFAULTS.geocoderUserAgent,
    overpassUrl: url("OVERPASS_URL", text(env, "OVERPASS_URL") ?? GEO_DEFAULTS.overpassUrl),
    osmStorePath: text(env, "OSM_STORE_PATH") ?? GEO_DEFAULTS.osmStorePath,
    osmStoreMemory: memoryLimit(text(env, "OSM_STORE_MEMORY") ?? GEO_DEFAULTS.osmStoreMemory),
    osmSeed: seed(env),
  };
}

function memoryLimit(value: string): string {
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(value)) {
    throw new TypeError(`OSM_STORE_MEMORY must be a size such as 512MB or 2GB, got "${value}"`);
  }
  return value;
}

function seed(env: Env): GeoSettings["osmSeed"] {
  // Set but empty means "no seed", unlike the other variables, where empty means the default.
  const raw = env["OSM_SEED"];
  if (raw !== undefined && (raw.trim() === "" || raw.trim().toLowerCase() === "none")) return null;
  const regionPath = text(env, "OSM_SEED_REGION") ?? GEO_DEFAULTS.osmSeedRegion;
  try {
    parseRegionPath(regionPath);
  } catch (error) {
    throw new TypeError(`OSM_SEED_REGION: ${(error as Error).message}`);
  }
  return { file: text(env, "OSM_SEED") ?? GEO_DEFAULTS.osmSeedFile, regionPath };
}
