/**
 * Settings of the OSM store that the map routes and the extraction service share in one
 * process (a pure function of the environment, like every `config.ts`).
 */
import { type Env, text } from "./env.ts";
import { parseRegionPath } from "../lib/osm/regions_db.ts";

/** Where the OSM store is and what a first start imports into it. */
export interface OsmStoreSettings {
  /** DuckDB file of imported regions (OSM_STORE_PATH, default data/osm.duckdb). */
  path: string;
  /** DuckDB memory limit of that store (OSM_STORE_MEMORY, default 1GB); it spills beyond. */
  memoryLimit: string;
  /**
   * Extract imported when the store has no region yet (OSM_SEED, default the shipped
   * Liechtenstein extract; `none` or empty: no seed), and its region path (OSM_SEED_REGION).
   */
  seed: { file: string; regionPath: string } | null;
}

/** Defaults of the settings. */
export const OSM_STORE_DEFAULTS = {
  path: "data/osm.duckdb",
  memoryLimit: "1GB",
  seedFile: new URL(
    "../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
    import.meta.url,
  ).pathname,
  seedRegion: "Europe/Liechtenstein",
} as const;

/** Reads the OSM store settings; throws a TypeError naming the variable at fault. */
export function readOsmStoreSettings(env: Env): OsmStoreSettings {
  return {
    path: text(env, "OSM_STORE_PATH") ?? OSM_STORE_DEFAULTS.path,
    memoryLimit: memoryLimit(text(env, "OSM_STORE_MEMORY") ?? OSM_STORE_DEFAULTS.memoryLimit),
    seed: seed(env),
  };
}

function memoryLimit(value: string): string {
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(value)) {
    throw new TypeError(`OSM_STORE_MEMORY must be a size such as 512MB or 2GB, got "${value}"`);
  }
  return value;
}

function seed(env: Env): OsmStoreSettings["seed"] {
  // Set but empty means "no seed", unlike the other variables, where empty means the default.
  const raw = env["OSM_SEED"];
  if (raw !== undefined && (raw.trim() === "" || raw.trim().toLowerCase() === "none")) return null;
  const regionPath = text(env, "OSM_SEED_REGION") ?? OSM_STORE_DEFAULTS.seedRegion;
  try {
    parseRegionPath(regionPath);
  } catch (error) {
    throw new TypeError(`OSM_SEED_REGION: ${(error as Error).message}`);
  }
  return { file: text(env, "OSM_SEED") ?? OSM_STORE_DEFAULTS.seedFile, regionPath };
}
