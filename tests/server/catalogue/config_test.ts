import assert from "node:assert/strict";
import { readCatalogueSettings } from "../../../server/catalogue/config.ts";

const HASH = "$2b$04$QOdBpdoc9bC.LXC8kf35OOdaKVKdLK.wiEbQF0PPNlWBFvd.JeQk6";

Deno.test("readCatalogueSettings() fills in the catalogue defaults: no ORCID, admin or schedule", () => {
  const catalogue = readCatalogueSettings({});
  assert.deepEqual({ ...catalogue, scraper: undefined }, {
    port: 8005,
    catalogueDir: "catalogues",
    profilesDir: "catalogues/profiles",
    statePath: "data/state.duckdb",
    jwtSecretFile: ".local/jwt_secret",
    tokenLifetimeSeconds: 86_400,
    orcid: undefined,
    frontendUrl: "http://localhost:5173",
    admin: undefined,
    sessionStoreSecret: undefined,
    allowedOrigins: [],
    opentechOrigins: [],
    scraper: undefined,
    login: { attemptsPerMinute: 10, accountAttemptsPerMinute: 5, queueLimit: 8 },
    maxPendingSubmissions: 100,
  });
  assert.equal(catalogue.scraper.schedule_minutes, null);
  assert.deepEqual(catalogue.scraper.sources, ["openalex", "crossref", "arxiv"]);
  assert.deepEqual(catalogue.scraper.base_urls, {});
  assert.equal(catalogue.scraper.llm.api_key, undefined);
});

Deno.test("readCatalogueSettings() reads every catalogue variable", () => {
  const catalogue = readCatalogueSettings({
    CATALOGUE_PORT: "9005",
    CATALOGUE_DIR: "/data/catalogues",
    PROFILES_DIR: "/data/profiles",
    STATE_PATH: "/var/lib/state.duckdb",
    JWT_SECRET_FILE: "",
    JWT_LIFETIME_HOURS: "1.5",
    ORCID_CLIENT_ID: "APP-1",
    ORCID_CLIENT_SECRET: "s",
    ORCID_REDIRECT_URI: "https://cat.example.org/api/v1/auth/orcid/callback",
    ORCID_ENVIRONMENT: "production",
    ORCID_BASE_URL: "http://127.0.0.1:9999",
    FRONTEND_URL: "https://app.example.org/login",
    ADMIN_EMAIL: "admin@example.org",
    ADMIN_PASSWORD_HASH: HASH,
    SESSION_STORE_JWT_SECRET: "store-secret",
    CATALOGUE_ALLOWED_ORIGINS: "https://app.example.org",
    SCRAPER_SOURCES: "openalex, crossref",
    SCRAPER_OPENALEX_URL: "http://127.0.0.1:1/openalex",
    SCRAPER_CROSSREF_URL: "http://127.0.0.1:1/crossref",
    SCRAPER_ARXIV_URL: "http://127.0.0.1:1/arxiv",
    SCRAPER_SCHEDULE_HOURS: "12",
    SCRAPER_FX_USD_PER: "EUR=1.08, GBP=1.27",
    SCRAPER_MAILTO: "admin@example.org",
    SCRAPER_LLM_API_KEY: "k",
    SCRAPER_LLM_URL: "http://127.0.0.1:2/v1",
    SCRAPER_LLM_MODEL: "small",
    LOGIN_ATTEMPTS_PER_MINUTE: "20",
    LOGIN_ACCOUNT_ATTEMPTS_PER_MINUTE: "3",
    LOGIN_QUEUE_LIMIT: "0",
    MAX_PENDING_SUBMISSIONS: "7",
  });
  assert.equal(catalogue.port, 9005);
  assert.equal(catalogue.catalogueDir, "/data/catalogues");
  assert.equal(catalogue.profilesDir, "/data/profiles");
  assert.equal(catalogue.statePath, "/var/lib/state.duckdb");
  assert.equal(catalogue.jwtSecretFile, null);
  assert.equal(catalogue.tokenLifetimeSeconds, 5400);
  assert.deepEqual(catalogue.orcid, {
    clientId: "APP-1",
    clientSecret: "s",
    redirectUri: "https://cat.example.org/api/v1/auth/orcid/callback",
    environment: "production",
    baseUrl: "http://127.0.0.1:9999",
  });
  assert.equal(catalogue.frontendUrl, "https://app.example.org/login");
  assert.deepEqual(catalogue.admin, { email: "admin@example.org", passwordHash: HASH });
  assert.equal(catalogue.sessionStoreSecret, "store-secret");
  assert.deepEqual(catalogue.allowedOrigins, ["https://app.example.org"]);
  const s = catalogue.scraper;
  assert.deepEqual(s.sources, ["openalex", "crossref"]);
  assert.deepEqual(s.base_urls, {
    openalex: "http://127.0.0.1:1/openalex",
    crossref: "http://127.0.0.1:1/crossref",
    arxiv: "http://127.0.0.1:1/arxiv",
  });
  assert.equal(s.schedule_minutes, 720);
  assert.deepEqual(s.fx, { EUR: 1.08, GBP: 1.27 });
  assert.equal(s.mailto, "admin@example.org");
  assert.deepEqual(s.llm, { api_key: "k", base_url: "http://127.0.0.1:2/v1", model: "small" });
  assert.deepEqual(catalogue.login, {
    attemptsPerMinute: 20,
    accountAttemptsPerMinute: 3,
    queueLimit: 0,
  });
  assert.equal(catalogue.maxPendingSubmissions, 7);
});

Deno.test("readCatalogueSettings() names the catalogue variable at fault", async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ CATALOGUE_PORT: "eighty" }, /^CATALOGUE_PORT: must be an integer port/],
    [{ JWT_LIFETIME_HOURS: "0" }, /^JWT_LIFETIME_HOURS: must be a number > 0/],
    [{ JWT_LIFETIME_HOURS: "a day" }, /^JWT_LIFETIME_HOURS: must be a number > 0/],
    [{ ORCID_CLIENT_ID: "APP-1" }, /^ORCID_CLIENT_SECRET, ORCID_REDIRECT_URI: must be set as well/],
    [
      { ORCID_CLIENT_ID: "a", ORCID_CLIENT_SECRET: "b", ORCID_REDIRECT_URI: "c" },
      /^ORCID_REDIRECT_URI: "c" is not an http\(s\) URL/,
    ],
    [
      {
        ORCID_CLIENT_ID: "a",
        ORCID_CLIENT_SECRET: "b",
        ORCID_REDIRECT_URI: "http://x/cb",
        ORCID_ENVIRONMENT: "test",
      },
      /^ORCID_ENVIRONMENT: must be sandbox or production/,
    ],
    [{ FRONTEND_URL: "app.example.org" }, /^FRONTEND_URL: "app.example.org" is not an http/],
    [{ ADMIN_EMAIL: "admin@example.org" }, /^ADMIN_PASSWORD_HASH: must be set/],
    [{ ADMIN_EMAIL: "a@b.c", ADMIN_PASSWORD_HASH: "plain" }, /^ADMIN_PASSWORD_HASH: not a bcrypt/],
    [{ CATALOGUE_ALLOWED_ORIGINS: "https://a.example.org/" }, /^CATALOGUE_ALLOWED_ORIGINS: /],
    [{ SCRAPER_SOURCES: "openalex,scholar" }, /^SCRAPER_SOURCES: unknown source "scholar"/],
    [{ SCRAPER_OPENALEX_URL: "ftp://x" }, /^SCRAPER_OPENALEX_URL: "ftp:\/\/x" is not an http/],
    [{ SCRAPER_SCHEDULE_HOURS: "-1" }, /^SCRAPER_SCHEDULE_HOURS: must be a number > 0/],
    [{ SCRAPER_FX_USD_PER: "EUR:1.08" }, /^SCRAPER_FX_USD_PER: "EUR:1.08" is not CODE=rate/],
    [{ SCRAPER_LLM_URL: "nope" }, /^SCRAPER_LLM_URL: "nope" is not an http/],
    [{ LOGIN_ATTEMPTS_PER_MINUTE: "0" }, /^LOGIN_ATTEMPTS_PER_MINUTE: must be an integer >= 1/],
    [
      { LOGIN_ACCOUNT_ATTEMPTS_PER_MINUTE: "2.5" },
      /^LOGIN_ACCOUNT_ATTEMPTS_PER_MINUTE: must be an integer >= 1, got "2.5"/,
    ],
    [{ LOGIN_QUEUE_LIMIT: "-1" }, /^LOGIN_QUEUE_LIMIT: must be an integer >= 0/],
    [{ MAX_PENDING_SUBMISSIONS: "many" }, /^MAX_PENDING_SUBMISSIONS: must be an integer >= 1/],
  ];
  for (const [env, message] of cases) {
    await t.step(
      JSON.stringify(env),
      () => assert.throws(() => readCatalogueSettings(env), { message }),
    );
  }
});
