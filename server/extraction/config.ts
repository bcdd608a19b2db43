/**
 * The extraction service's settings from environment variables, read by a pure function. Unlike
 * the other services it binds its own interface (EXTRACTION_HOST, default 127.0.0.1): it has no
 * authentication and is for trusted callers on the same machine only.
 *
 * The bounds of its runs are read here, in one place (lib/extraction/extraction_runs.ts
 * RunLimits): runs waiting, footprints a run reads, finished runs and buildings kept.
 */
import { DEFAULT_RUN_LIMITS, type RunLimits } from "../../lib/extraction/extraction_runs.ts";
import { type Env, integer, port, text } from "../env.ts";

/** Everything the extraction service is configured with. */
export interface ExtractionSettings {
  /** Port of the service (EXTRACTION_PORT, default 8090). */
  port: number;
  /** Interface its listener binds (EXTRACTION_HOST, default 127.0.0.1). */
  hostname: string;
  /** DuckDB file of runs and their buildings (EXTRACTION_STATE_PATH). */
  statePath: string;
  /**
   * Bounds of the runs: EXTRACTION_MAX_QUEUED (runs waiting; 503 beyond, default 16),
   * EXTRACTION_MAX_FOOTPRINTS (footprints a run reads; the run fails beyond, default 100,000),
   * EXTRACTION_RUNS_KEPT (finished runs kept, default 1,000) and EXTRACTION_BUILDINGS_KEPT
   * (buildings kept over them, default 1,000,000): older finished runs are deleted.
   */
  limits: RunLimits;
}

/** Defaults of the settings. */
export const EXTRACTION_DEFAULTS = {
  port: 8090,
  hostname: "127.0.0.1",
  statePath: "data/extraction.duckdb",
  limits: DEFAULT_RUN_LIMITS,
} as const;

/** Reads the extraction settings; throws TypeError or RangeError naming the variable at fault. */
export function readExtractionSettings(env: Env): ExtractionSettings {
  const d = DEFAULT_RUN_LIMITS;
  return {
    port: port("EXTRACTION_PORT", env["EXTRACTION_PORT"], EXTRACTION_DEFAULTS.port),
    hostname: text(env, "EXTRACTION_HOST") ?? EXTRACTION_DEFAULTS.hostname,
    statePath: text(env, "EXTRACTION_STATE_PATH") ?? EXTRACTION_DEFAULTS.statePath,
    limits: {
      maxQueued: integer(env, "EXTRACTION_MAX_QUEUED", d.maxQueued, 1),
      maxFootprints: integer(env, "EXTRACTION_MAX_FOOTPRINTS", d.maxFootprints, 1),
      keep: {
        runs: integer(env, "EXTRACTION_RUNS_KEPT", d.keep.runs, 1),
        buildings: integer(env, "EXTRACTION_BUILDINGS_KEPT", d.keep.buildings, 1),
      },
    },
  };
}
