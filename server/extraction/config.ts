/**
 * The extraction service's settings from environment variables, read by a pure function. Unlike
 * the other services it binds its own interface (EXTRACTION_HOST, default 127.0.0.1): it has no
 * authentication and is for trusted callers on the same machine only.
 */
import { type Env, port, text } from "../env.ts";

/** Everything the extraction service is configured with. */
export interface ExtractionSettings {
  /** Port of the service (EXTRACTION_PORT, default 8090). */
  port: number;
  /** Interface its listener binds (EXTRACTION_HOST, default 127.0.0.1). */
  hostname: string;
  /** DuckDB file of runs and their buildings (EXTRACTION_STATE_PATH). */
  statePath: string;
}

/** Defaults of the settings. */
export const EXTRACTION_DEFAULTS = {
  port: 8090,
  hostname: "127.0.0.1",
  statePath: "data/extraction.duckdb",
} as const;

/** Reads the extraction settings; throws TypeError or RangeError naming the variable at fault. */
export function readExtractionSettings(env: Env): ExtractionSettings {
  return {
    port: port("EXTRACTION_PORT", env["EXTRACTION_PORT"], EXTRACTION_DEFAULTS.port),
    hostname: text(env, "EXTRACTION_HOST") ?? EXTRACTION_DEFAULTS.hostname,
    statePath: text(env, "EXTRACTION_STATE_PATH") ?? EXTRACTION_DEFAULTS.statePath,
  };
}
