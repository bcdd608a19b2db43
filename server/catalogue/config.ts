/**
 * The catalogue service's settings from environment variables, read by a pure function (the JWT
 * secret itself is resolved when the service starts, which may read or create a local file).
 */
import { type AdminConfig, readAdminConfig } from "../../lib/auth/password.ts";
import type { OrcidConfig } from "../../lib/auth/orcid.ts";
import { type ScraperConfig, ScraperConfigSchema } from "../../lib/scraper/config.ts";
import { SOURCE_NAMES } from "../../lib/scraper/source.ts";
import { type Env, integer, origins, port, positive, text, url } from "../env.ts";

/** Everything the catalogue service is configured with, except the JWT secret. */
export interface CatalogueSettings {
  /** Port of the catalogue service (CATALOGUE_PORT, default 8005). */
  port: number;
  /** Folder of the technology files (CATALOGUE_DIR, default `catalogues`). */
  catalogueDir: string;
  /** Folder of the profile files and index (PROFILES_DIR, default `catalogues/profiles`). */
  profilesDir: string;
  /** DuckDB file of the user state (STATE_PATH, default `data/state.duckdb`). */
  statePath: string;
  /**
   * Where a development start keeps its generated JWT secret (JWT_SECRET_FILE, default
   * `.local/jwt_secret`); null (JWT_SECRET_FILE set empty) requires JWT_SECRET_KEY.
   */
  jwtSecretFile: string | null;
  /** Lifetime of issued tokens, seconds (JWT_LIFETIME_HOURS, default 24). */
  tokenLifetimeSeconds: number;
  /** ORCID sign-in; undefined (disabled) unless client id, secret and redirect URI are set. */
  orcid: OrcidConfig | undefined;
  /** Where the ORCID callback sends the browser with `?token=` (FRONTEND_URL). */
  frontendUrl: string;
  /** The built-in admin (ADMIN_EMAIL, ADMIN_PASSWORD_HASH); undefined when not configured. */
  admin: AdminConfig | undefined;
  /** Secret of the external session store's tokens (SESSION_STORE_JWT_SECRET). */
  sessionStoreSecret: string | undefined;
  /** Browser origins allowed by CORS (CATALOGUE_ALLOWED_ORIGINS, comma-separated). */
  allowedOrigins: string[];
  /**
   * Origins of OpenTech-DB frontends (OPENTECH_FRONTEND_ORIGINS, comma-separated; default none):
   * where the spec's answer and the frontend's differ on one path and query
   * (`GET /api/v1/admin/timeseries/submissions`), a request from one of them gets the
   * frontend's. They must also be allowed origins to call from a browser.
   */
  opentechOrigins: string[];
  scraper: ScraperConfig;
  /** Limits of the built-in admin's sign-in. */
  login: LoginLimits;
  /**
   * Most submissions (technology and time series together) one submitter may have pending
   * review at once (MAX_PENDING_SUBMISSIONS, default 100); more answer 429.
   */
  maxPendingSubmissions: number;
}

/** Limits of `POST /api/v1/auth/admin/login`: over them it answers 429 (or 503) at once. */
export interface LoginLimits {
  /** Attempts per minute from one client address (LOGIN_ATTEMPTS_PER_MINUTE, default 10). */
  attemptsPerMinute: number;
  /**
   * Attempts per minute for one e-mail address, from any client
   * (LOGIN_ACCOUNT_ATTEMPTS_PER_MINUTE, default 5).
   */
  accountAttemptsPerMinute: number;
  /**
   * Password checks that may wait for the bcrypt worker (LOGIN_QUEUE_LIMIT, default 8; 0: none
   * waits); a sign-in beyond them answers 503.
   */
  queueLimit: number;
}

/** Defaults of the optional settings. */
export const CATALOGUE_DEFAULTS = {
  port: 8005,
  catalogueDir: "catalogues",
  profilesDir: "catalogues/profiles",
  statePath: "data/state.duckdb",
  jwtSecretFile: ".local/jwt_secret",
  tokenLifetimeHours: 24,
  frontendUrl: "http://localhost:5173",
  orcidEnvironment: "sandbox",
  loginAttemptsPerMinute: 10,
  loginAccountAttemptsPerMinute: 5,
  loginQueueLimit: 8,
  maxPendingSubmissions: 100,
} as const;

function readLogin(env: Env): LoginLimits {
  return {
    attemptsPerMinute: integer(
      env,
      "LOGIN_ATTEMPTS_PER_MINUTE",
      CATALOGUE_DEFAULTS.loginAttemptsPerMinute,
      1,
    ),
    accountAttemptsPerMinute: integer(
      env,
      "LOGIN_ACCOUNT_ATTEMPTS_PER_MINUTE",
      CATALOGUE_DEFAULTS.loginAccountAttemptsPerMinute,
      1,
    ),
    queueLimit: integer(env, "LOGIN_QUEUE_LIMIT", CATALOGUE_DEFAULTS.loginQueueLimit, 0),
  };
}

function readOrcid(env: Env): OrcidConfig | undefined {
  const names = ["ORCID_CLIENT_ID", "ORCID_CLIENT_SECRET", "ORCID_REDIRECT_URI"] as const;
  const values = names.map((n) => text(env, n));
  const set = values.filter((v) => v !== undefined).length;
  if (set === 0) return undefined;
  if (set < names.length) {
    const missing = names.filter((_, i) => values[i] === undefined);
    throw new TypeError(
      `${missing.join(", ")}: must be set as well; ORCID sign-in needs ${names.join(", ")}`,
    );
  }
  const environment = text(env, "ORCID_ENVIRONMENT") ?? CATALOGUE_DEFAULTS.orcidEnvironment;
  if (environment !== "sandbox" && environment !== "production") {
    throw new RangeError(`ORCID_ENVIRONMENT: must be sandbox or production, got "${environment}"`);
  }
  const [clientId, clientSecret, redirectUri] = values as [string, string, string];
  const baseUrl = text(env, "ORCID_BASE_URL");
  return {
    clientId,
    clientSecret,
    redirectUri: url("ORCID_REDIRECT_URI", redirectUri),
    environment,
    ...(baseUrl ? { baseUrl: url("ORCID_BASE_URL", baseUrl) } : {}),
  };
}

function readScraper(env: Env): ScraperConfig {
  const sources = text(env, "SCRAPER_SOURCES")?.split(",").map((s) => s.trim()).filter(Boolean);
  for (const source of sources ?? []) {
    if (!(SOURCE_NAMES as readonly string[]).includes(source)) {
      throw new RangeError(
        `SCRAPER_SOURCES: unknown source "${source}"; known: ${SOURCE_NAMES.join(", ")}`,
      );
    }
  }
  const base: Record<string, string> = {};
  for (
    const [source, name] of [
      ["openalex", "SCRAPER_OPENALEX_URL"],
      ["crossref", "SCRAPER_CROSSREF_URL"],
      ["arxiv", "SCRAPER_ARXIV_URL"],
    ] as const
  ) {
    const value = text(env, name);
    if (value !== undefined) base[source] = url(name, value);
  }
  const hours = text(env, "SCRAPER_SCHEDULE_HOURS");
  const fx: Record<string, number> = {};
  for (const item of text(env, "SCRAPER_FX_USD_PER")?.split(",") ?? []) {
    const [code, rate] = item.split("=").map((p) => p.trim());
    const value = Number(rate);
    if (!code || !/^[A-Z]{3}$/.test(code) || !Number.isFinite(value) || value <= 0) {
      throw new RangeError(
        `SCRAPER_FX_USD_PER: "${item.trim()}" is not CODE=rate, e.g. EUR=1.08 (USD per unit)`,
      );
    }
    fx[code] = value;
  }
  const llmKey = text(env, "SCRAPER_LLM_API_KEY");
  const llmUrl = text(env, "SCRAPER_LLM_URL");
  const llmModel = text(env, "SCRAPER_LLM_MODEL");
  const mailto = text(env, "SCRAPER_MAILTO");
  return ScraperConfigSchema.parse({
    ...(sources ? { sources } : {}),
    base_urls: base,
    ...(mailto ? { mailto } : {}),
    schedule_minutes: hours === undefined
      ? null
      : positive("SCRAPER_SCHEDULE_HOURS", hours, 0) * 60,
    fx,
    llm: {
      ...(llmKey ? { api_key: llmKey } : {}),
      ...(llmUrl ? { base_url: url("SCRAPER_LLM_URL", llmUrl) } : {}),
      ...(llmModel ? { model: llmModel } : {}),
    },
  });
}

/**
 * Reads the catalogue settings; throws TypeError or RangeError naming the variable at fault.
 * Without ORCID settings the ORCID sign-in is off; without admin settings there is no built-in
 * admin; the scraper schedule is off unless SCRAPER_SCHEDULE_HOURS is set. Sign-in limits and the
 * pending-submission limit have defaults (CATALOGUE_DEFAULTS).
 */
export function readCatalogueSettings(env: Env): CatalogueSettings {
  const secretFile = env["JWT_SECRET_FILE"];
  return {
    port: port("CATALOGUE_PORT", env["CATALOGUE_PORT"], CATALOGUE_DEFAULTS.port),
    catalogueDir: text(env, "CATALOGUE_DIR") ?? CATALOGUE_DEFAULTS.catalogueDir,
    profilesDir: text(env, "PROFILES_DIR") ?? CATALOGUE_DEFAULTS.profilesDir,
    statePath: text(env, "STATE_PATH") ?? CATALOGUE_DEFAULTS.statePath,
    jwtSecretFile: secretFile === undefined
      ? CATALOGUE_DEFAULTS.jwtSecretFile
      : (secretFile.trim() || null),
    tokenLifetimeSeconds: Math.round(
      positive(
        "JWT_LIFETIME_HOURS",
        env["JWT_LIFETIME_HOURS"],
        CATALOGUE_DEFAULTS.tokenLifetimeHours,
      ) *
        3600,
    ),
    orcid: readOrcid(env),
    frontendUrl: url("FRONTEND_URL", text(env, "FRONTEND_URL") ?? CATALOGUE_DEFAULTS.frontendUrl),
    admin: readAdminConfig(env),
    sessionStoreSecret: text(env, "SESSION_STORE_JWT_SECRET"),
    allowedOrigins: origins("CATALOGUE_ALLOWED_ORIGINS", env["CATALOGUE_ALLOWED_ORIGINS"]),
    opentechOrigins: origins("OPENTECH_FRONTEND_ORIGINS", env["OPENTECH_FRONTEND_ORIGINS"]),
    scraper: readScraper(env),
    login: readLogin(env),
    maxPendingSubmissions: integer(
      env,
      "MAX_PENDING_SUBMISSIONS",
      CATALOGUE_DEFAULTS.maxPendingSubmissions,
      1,
    ),
  };
}
