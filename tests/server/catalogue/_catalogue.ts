/**
 * The catalogue app over the real data files and an in-memory state store, tokens for its
 * callers, and small helpers to call it in-process.
 */
import { signToken, type TokenSubject } from "../../../lib/auth/jwt.ts";
import { ScraperConfigSchema } from "../../../lib/scraper/config.ts";
import { openStore, type Store } from "../../../lib/store/store.ts";
import {
  type CatalogueApp,
  type CatalogueAppOptions,
  createCatalogueApp,
} from "../../../server/catalogue/app.ts";
import type { CatalogueAppConfig } from "../../../server/catalogue/deps.ts";

/** The signing secret of the test apps (32+ bytes). */
export const SECRET = "catalogue-test-secret-0123456789abcdef";

/** The repository's data folders. */
export const CATALOGUE_DIR = new URL("../../../catalogues", import.meta.url).pathname;
export const PROFILES_DIR = `${CATALOGUE_DIR}/profiles`;

/** A configuration over the real data, without ORCID, admin or session store. */
export function testConfig(overrides: Partial<CatalogueAppConfig> = {}): CatalogueAppConfig {
  return {
    catalogueDir: CATALOGUE_DIR,
    profilesDir: PROFILES_DIR,
    tokenLifetimeSeconds: 3600,
    orcid: undefined,
    frontendUrl: "http://localhost:5173/app",
    admin: undefined,
    sessionStoreSecret: undefined,
    allowedOrigins: [],
    scraper: ScraperConfigSchema.parse({}),
    jwtSecret: SECRET,
    ...overrides,
  };
}

/** A built app with its store; `close()` ends both. */
export interface TestApp extends CatalogueApp {
  store: Store;
  /** Closes the app and the store. */
  dispose(): Promise<void>;
}

/** Builds the app over an in-memory store (or the given one). */
export async function testApp(
  options: Partial<Omit<CatalogueAppOptions, "config">> & {
    config?: Partial<CatalogueAppConfig>;
  } = {},
): Promise<TestApp> {
  const store = options.store ?? await openStore(":memory:");
  const built = await createCatalogueApp({ ...options, store, config: testConfig(options.config) });
  return {
    ...built,
    store,
    async dispose() {
      await built.close();
      await store.close();
    },
  };
}

/** A token of this service. */
export function tokenFor(
  subject: TokenSubject,
  options: { secret?: string; now?: Date; lifetimeSeconds?: number } = {},
): Promise<string> {
  return signToken(subject, options.secret ?? SECRET, {
    ...(options.now ? { now: options.now } : {}),
    ...(options.lifetimeSeconds ? { lifetimeSeconds: options.lifetimeSeconds } : {}),
  });
}

/** A researcher signed in with ORCID. */
export const RESEARCHER: TokenSubject = {
  sub: "0000-0002-1825-0097",
  name: "Josiah Carberry",
  is_admin: false,
  orcid: "0000-0002-1825-0097",
};

/** The built-in admin. */
export const ADMIN: TokenSubject = {
  sub: "admin:admin@example.org",
  name: "Administrator",
  is_admin: true,
  email: "admin@example.org",
};

/** Authorization headers for a token. */
export function bearer(
  token: string,
  extra: Record<string, string> = {},
): { headers: Record<string, string> } {
  return { headers: { Authorization: `Bearer ${token}`, ...extra } };
}

/** A response's status, headers and parsed JSON body (text when not JSON). */
export interface Reply {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Calls the app and parses the reply. */
export async function call(
  app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> },
  path: string,
  init?: RequestInit,
): Promise<Reply> {
  const res = await app.request(path, init);
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: type.includes("json") && text !== "" ? JSON.parse(text) : text,
  };
}

/** A request with a JSON body; `token` adds the Authorization header. */
export function json(
  method: string,
  body: unknown,
  token?: string,
): RequestInit {
  return {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}
