/**
 * The modelling backend's settings from environment variables, read by a pure function. The
 * interface it binds is the shared HOST (`server/config.ts`), like every other service.
 */
import { type Env, origins, port, positive, text, url } from "../env.ts";

/** Everything the backend service is configured with. */
export interface BackendSettings {
  /** Port of the backend (BACKEND_PORT, default 8082, where the frontend looks). */
  port: number;
  /** DuckDB file of models, jobs and run history (BACKEND_STATE_PATH, default data/backend.duckdb). */
  statePath: string;
  /**
   * The solver runner (RUNNER_URL; unset: the runner started in the same process, else
   * http://localhost:5000; see `peerUrls`).
   */
  runnerUrl: string;
  /**
   * The technology catalogue (CATALOGUE_URL; unset: the catalogue started in the same process,
   * else http://localhost:8005).
   */
  catalogueUrl: string;
  /** Which of RUNNER_URL and CATALOGUE_URL were set: an unset one yields to a peer service. */
  urlsSet: { runner: boolean; catalogue: boolean };
  /**
   * Origins the backend's own pages are served from besides `http://localhost:PORT` and
   * `http://127.0.0.1:PORT` of its own port (BACKEND_PUBLIC_ORIGIN, comma-separated, e.g.
   * `https://models.example.org` behind a proxy; default none).
   */
  publicOrigins: string[];
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
  const runnerUrl = text(env, "RUNNER_URL");
  const catalogueUrl = text(env, "CATALOGUE_URL");
  return {
    port: port("BACKEND_PORT", env["BACKEND_PORT"], BACKEND_DEFAULTS.port),
    statePath: text(env, "BACKEND_STATE_PATH") ?? BACKEND_DEFAULTS.statePath,
    runnerUrl: url("RUNNER_URL", runnerUrl ?? BACKEND_DEFAULTS.runnerUrl),
    catalogueUrl: url("CATALOGUE_URL", catalogueUrl ?? BACKEND_DEFAULTS.catalogueUrl),
    urlsSet: { runner: runnerUrl !== undefined, catalogue: catalogueUrl !== undefined },
    publicOrigins: origins("BACKEND_PUBLIC_ORIGIN", env["BACKEND_PUBLIC_ORIGIN"]),
    // MiB, as the 413 message says; a fraction is allowed.
    maxBodyBytes: Math.floor(bodyMb * 1024 * 1024),
  };
}

/** Where the runner and the catalogue are, and why there. */
export interface PeerUrls {
  runnerUrl: string;
  catalogueUrl: string;
  /** Per service, where its URL came from: the variable, this process, or the default. */
  sources: { runner: PeerSource; catalogue: PeerSource };
}

/** `set`: RUNNER_URL / CATALOGUE_URL; `process`: the service started beside the backend. */
export type PeerSource = "set" | "process" | "default";

/**
 * The runner's and the catalogue's URLs: as set in RUNNER_URL / CATALOGUE_URL; when unset, those
 * of the services started in the same process (`peerUrl(name)`, their bound host and port);
 * else the defaults. A user who moves the runner to another port (5000 is taken on many
 * machines) needs to set nothing else.
 */
export function peerUrls(
  settings: Pick<BackendSettings, "runnerUrl" | "catalogueUrl" | "urlsSet">,
  peerUrl: (name: string) => string | undefined,
): PeerUrls {
  const pick = (name: "runner" | "catalogue", configured: string) => {
    if (settings.urlsSet[name]) return { url: configured, source: "set" as const };
    const peer = peerUrl(name);
    return peer === undefined
      ? { url: configured, source: "default" as const }
      : { url: peer, source: "process" as const };
  };
  const runner = pick("runner", settings.runnerUrl);
  const catalogue = pick("catalogue", settings.catalogueUrl);
  return {
    runnerUrl: runner.url,
    catalogueUrl: catalogue.url,
    sources: { runner: runner.source, catalogue: catalogue.source },
  };
}
