/**
 * Settings shared by all services, from environment variables, read by a pure function so that
 * tests can pass any environment; each service reads its own in its folder's `config.ts`.
 */
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from "./connection_guard.ts";
import { type Env, list, positive, text } from "./env.ts";

/** What the process as a whole is started with. */
export interface ServerConfig {
  /** Interface every listener binds (HOST, or HEAT_HOST as before; default 0.0.0.0). */
  host: string;
  /** The shared, rebuildable DuckDB data store (STORE_PATH, default data/store.duckdb). */
  storePath: string;
  /** Services to start (SERVICES, comma-separated; default all); `--only` overrides it. */
  services: string[] | undefined;
  /**
   * How long a stop waits for open requests and streams before closing anyway, milliseconds
   * (SHUTDOWN_GRACE_SECONDS, default 10).
   */
  shutdownGraceMs: number;
  /**
   * Deadlines of every client connection (HEADER_TIMEOUT_SECONDS 10, BODY_TIMEOUT_SECONDS 30
   * between body bytes, IDLE_TIMEOUT_SECONDS 120); undefined with GUARD_CONNECTIONS=off, for a
   * deployment behind a proxy that enforces its own.
   */
  connectionLimits: ConnectionLimits | undefined;
}

/** Defaults of the optional settings. */
export const DEFAULTS = {
  host: "0.0.0.0",
  storePath: "data/store.duckdb",
  shutdownGraceSeconds: 10,
} as const;

/** Reads the shared settings; throws TypeError or RangeError naming the variable at fault. */
export function readConfig(env: Env): ServerConfig {
  const services = list(env["SERVICES"]);
  const guard = text(env, "GUARD_CONNECTIONS") ?? "on";
  if (guard !== "on" && guard !== "off") {
    throw new RangeError(`GUARD_CONNECTIONS: must be on or off, got "${guard}"`);
  }
  const seconds = (name: string, fallbackMs: number) =>
    positive(name, env[name], fallbackMs / 1000) * 1000;
  return {
    host: text(env, "HOST") ?? text(env, "HEAT_HOST") ?? DEFAULTS.host,
    storePath: text(env, "STORE_PATH") ?? DEFAULTS.storePath,
    services: services.length ? services : undefined,
    shutdownGraceMs: positive(
      "SHUTDOWN_GRACE_SECONDS",
      env["SHUTDOWN_GRACE_SECONDS"],
      DEFAULTS.shutdownGraceSeconds,
    ) * 1000,
    connectionLimits: guard === "off" ? undefined : {
      headerMs: seconds("HEADER_TIMEOUT_SECONDS", DEFAULT_CONNECTION_LIMITS.headerMs),
      bodyIdleMs: seconds("BODY_TIMEOUT_SECONDS", DEFAULT_CONNECTION_LIMITS.bodyIdleMs),
      idleMs: seconds("IDLE_TIMEOUT_SECONDS", DEFAULT_CONNECTION_LIMITS.idleMs),
      maxHeaderBytes: DEFAULT_CONNECTION_LIMITS.maxHeaderBytes,
    },
  };
}
