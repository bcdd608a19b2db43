/**
 * The heat service's settings from environment variables: its port, the gateway's API key and
 * the browser origins it allows.
 */
import { encodeBase64Url } from "../../lib/auth/base64url.ts";
import { type Env, origins, port } from "../env.ts";

/** Everything the heat service is configured with. */
export interface HeatSettings {
  /** Port of the gateway in front of the heat service (HEAT_PORT, default 8080). */
  port: number;
  /** The key every request must carry (HEAT_API_KEY); undefined when unset or empty. */
  apiKey: string | undefined;
  /** Browser origins allowed by CORS (HEAT_ALLOWED_ORIGINS, comma-separated; default none). */
  allowedOrigins: string[];
}

/** Defaults of the optional settings. */
export const HEAT_DEFAULTS = { port: 8080 } as const;

/** Reads the heat settings; throws TypeError or RangeError naming the variable at fault. */
export function readHeatSettings(env: Env): HeatSettings {
  const key = env["HEAT_API_KEY"];
  return {
    port: port("HEAT_PORT", env["HEAT_PORT"], HEAT_DEFAULTS.port),
    apiKey: key === undefined || key === "" ? undefined : key,
    allowedOrigins: origins("HEAT_ALLOWED_ORIGINS", env["HEAT_ALLOWED_ORIGINS"]),
  };
}

/** A random key of 32 bytes, base64url, for a developer start without HEAT_API_KEY. */
export function generateApiKey(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
