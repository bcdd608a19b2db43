import assert from "node:assert/strict";
import { parseFx, scraperConfigFromEnv } from "../../lib/scraper/config.ts";

Deno.test("scraperConfigFromEnv() defaults: all sources, public APIs, no schedule, no model", () => {
  assert.deepEqual(scraperConfigFromEnv({}), {
    sources: ["openalex", "crossref", "arxiv"],
    base_urls: {},
    api_keys: {},
    request_interval_ms: {},
    timeout_ms: 20_000,
    papers_per_query: 10,
    schedule_minutes: null,
    fx: {},
    llm: { base_url: "https://api.openai.com", model: "gpt-4o-mini" },
  });
});

Deno.test("scraperConfigFromEnv() reads every variable", () => {
  const config = scraperConfigFromEnv({
    SCRAPER_SOURCES: "openalex, arxiv",
    OPENALEX_BASE_URL: "http://127.0.0.1:9001",
    CROSSREF_BASE_URL: "",
    ARXIV_BASE_URL: "http://127.0.0.1:9003",
    SCRAPER_MAILTO: "admin@example.org",
    OPENALEX_API_KEY: "oa-key",
    CROSSREF_PLUS_TOKEN: "",
    SCRAPER_TIMEOUT_MS: "5000",
    SCRAPER_PAPERS_PER_QUERY: "25",
    SCRAPER_TECHNOLOGY_IDS: "pem_electrolyzer,onshore_wind",
    SCRAPER_SCHEDULE_MINUTES: "1440",
    SCRAPER_FX_USD_PER: "eur=1.1, GBP=1.25",
    LLM_API_KEY: "sk-test",
    LLM_BASE_URL: "http://127.0.0.1:9004",
    LLM_MODEL: "local-model",
  });
  assert.deepEqual(config, {
    sources: ["openalex", "arxiv"],
    base_urls: { openalex: "http://127.0.0.1:9001", arxiv: "http://127.0.0.1:9003" },
    mailto: "admin@example.org",
    api_keys: { openalex: "oa-key" },
    request_interval_ms: {},
    timeout_ms: 5000,
    papers_per_query: 25,
    technology_ids: ["pem_electrolyzer", "onshore_wind"],
    schedule_minutes: 1440,
    fx: { EUR: 1.1, GBP: 1.25 },
    llm: { api_key: "sk-test", base_url: "http://127.0.0.1:9004", model: "local-model" },
  });
});

Deno.test("scraperConfigFromEnv() rejects unknown sources and bad numbers", async (t) => {
  const cases: Record<string, string>[] = [
    { SCRAPER_SOURCES: "openalex,scopus" },
    { SCRAPER_TIMEOUT_MS: "soon" },
    { SCRAPER_SCHEDULE_MINUTES: "-5" },
    { SCRAPER_FX_USD_PER: "EUR" },
    { OPENALEX_BASE_URL: "not a url" },
  ];
  for (const env of cases) {
    await t.step(JSON.stringify(env), () => assert.throws(() => scraperConfigFromEnv(env)));
  }
});

Deno.test("parseFx() reads CODE=rate pairs", () => {
  assert.equal(parseFx(undefined), undefined);
  assert.deepEqual(parseFx("EUR=1.1,chf = 1.12"), { EUR: 1.1, CHF: 1.12 });
});
