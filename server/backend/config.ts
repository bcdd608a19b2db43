/**
 * The modelling backend's settings from environment variables, read by a pure function. The
 * interface it binds is the shared HOST (`server/config.ts`), like every other service.
 */
import { type Env, port, positive, text, url } from "../env.ts";

/** Everything the backend service is configured with. */
export interface BackendSettings {
  /** Port of the backend (BACKEND_PORT, default 8082, where the frontend looks). */
  port: number;
  /** DuckDB file of models, jobs and run history (BACKEND_STATE_PATH, default data/backend.duckdb). */
  statePath: string;
  /** The solver runner (RUNNER_URL, default http://localhost:5000). */
  runnerUrl: string;
  /** The technology catalogue (CATALOGUE_URL, default http://localhost:8005). */
  catalogueUrl: string;
  /** Largest accepted request body, bytes (BACKEND_MAX_BODY_MB, default 4 MiB). */
  maxBodyBytes: number;
}

/** Defaults of the settings. */
export const BACKEND_DEFAULTS = {
  port: 8082,
  statePath: "data/backend.duckdb",
  runnerUrl: "http://localhost:5000",
  catalogueUrl: "http://localhost:8005",
  maxBodyMb: 4,
} as const;

/** Reads the backend settings; throws TypeError or RangeError naming the variable at fault. */
export function readBackendSettings(env: Env): BackendSettings {
  const bodyMb = positive(
    "BACKEND_MAX_BODY_MB",
    env["BACKEND_MAX_BODY_MB"],
    BACKEND_DEFAULTS.maxBodyMb,
  );
  return {
    port: port("BACKEND_PORT", env["BACKEND_PORT"], BACKEND_DEFAULTS.port),
    statePath: text(env, "BACKEND_STATE_PATH") ?? BACKEND_DEFAULTS.statePath,
    runnerUrl: url("RUNNER_URL", text(env, "RUNNER_URL") ?? BACKEND_DEFAULTS.runnerUrl),
    catalogueUrl: url("CATALOGUE_URL", text(env, "CATALOGUE_URL") ?? BACKEND_DEFAULTS.catalogueUrl),
    // MiB, as the 413 message says; a fraction is allowed.
    maxBodyBytes: Math.floor(bodyMb * 1024 * 1024),
  };
}
