/**
 * Server configuration from environment variables, read by a pure function so that tests can
 * pass any environment; `server/main.ts` is the only place that hands in the real one.
 */
import { type CatalogueSettings, readCatalogueSettings } from "./catalogue/config.ts";

/** Everything the servers are started with. */
export interface ServerConfig {
  /** Interface the public sockets listen on (HEAT_HOST, default 0.0.0.0). */
  host: string;
  /** Port of the gateway in front of the heat service (HEAT_PORT, default 8080). */
  heatPort: number;
  /** DuckDB store file (STORE_PATH, default data/store.duckdb). */
  storePath: string;
  /** The key every request must carry (HEAT_API_KEY); undefined when unset or empty. */
  heatApiKey: string | undefined;
  /** Browser origins allowed by CORS (HEAT_ALLOWED_ORIGINS, comma-separated; default none). */
  heatAllowedOrigins: string[];
  /** The technology catalogue service (CATALOGUE_PORT, STATE_PATH, JWT_*, ORCID_*, ...). */
  catalogue: CatalogueSettings;
}

/** Defaults of the optional settings. */
export const DEFAULTS = {
  host: "0.0.0.0",
  heatPort: 8080,
  storePath: "data/store.duckdb",
} as const;

function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || parsed > 65535) {
    throw new RangeError(
      `${name}: must be an integer port from 0 (any free port) to 65535, got "${value}"`,
    );
  }
  return parsed;
}

function origins(name: string, value: string | undefined): string[] {
  const list = (value ?? "").split(",").map((o) => o.trim()).filter((o) => o !== "");
  for (const origin of list) {
    // CORS compares the exact serialised origin: scheme://host[:port], no path or slash.
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new TypeError(
        `${name}: "${origin}" is not an origin like https://app.example.org (scheme, host, ` +
          "optional port; no path or trailing slash)",
      );
    }
  }
  return list;
}

/** Reads the configuration; throws TypeError or RangeError naming the variable at fault. */
export function readConfig(env: Readonly<Record<string, string | undefined>>): ServerConfig {
  const key = env["HEAT_API_KEY"];
  return {
    host: env["HEAT_HOST"]?.trim() || DEFAULTS.host,
    heatPort: port("HEAT_PORT", env["HEAT_PORT"], DEFAULTS.heatPort),
    storePath: env["STORE_PATH"]?.trim() || DEFAULTS.storePath,
    heatApiKey: key === undefined || key === "" ? undefined : key,
    heatAllowedOrigins: origins("HEAT_ALLOWED_ORIGINS", env["HEAT_ALLOWED_ORIGINS"]),
    catalogue: readCatalogueSettings(env, port, origins),
  };
}

/** A random key of 32 bytes, base64url, for a developer start without HEAT_API_KEY. */
export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}
