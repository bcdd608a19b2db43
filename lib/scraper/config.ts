/**
 * Scraper configuration: enabled sources and their base URLs, the optional schedule (off by
 * default), exchange rates, and the optional language-model key. `main.ts` reads the
 * environment and passes it to scraperConfigFromEnv.
 */
import { z } from "zod";
import { DEFAULT_LLM_BASE_URL, DEFAULT_LLM_MODEL } from "./llm_extractor.ts";
import { DEFAULT_PAPER_LIMIT } from "./pipeline.ts";
import { DEFAULT_TIMEOUT_MS, SOURCE_NAMES } from "./source.ts";

/** The scraper configuration. */
export const ScraperConfigSchema = z.object({
  sources: z.array(z.enum(SOURCE_NAMES)).default([...SOURCE_NAMES])
    .describe("Enabled literature sources"),
  base_urls: z.object({
    openalex: z.url().optional(),
    crossref: z.url().optional(),
    arxiv: z.url().optional(),
  }).default({}).describe("Base URL per source; the public API when omitted"),
  mailto: z.string().optional().describe("Contact e-mail sent to OpenAlex and Crossref"),
  api_keys: z.object({
    openalex: z.string().min(1).optional(),
    crossref: z.string().min(1).optional(),
  }).default({}).describe("OpenAlex API key; Crossref Metadata Plus token"),
  request_interval_ms: z.object({
    openalex: z.number().int().min(0).optional(),
    crossref: z.number().int().min(0).optional(),
    arxiv: z.number().int().min(0).optional(),
  }).default({}).describe("Least ms between requests per source; arXiv asks for 3000"),
  timeout_ms: z.number().int().positive().default(DEFAULT_TIMEOUT_MS)
    .describe("Timeout of one source request, ms"),
  papers_per_query: z.number().int().min(1).max(200).default(DEFAULT_PAPER_LIMIT)
    .describe("Papers asked from each source per technology"),
  technology_ids: z.array(z.string().min(1)).optional()
    .describe("Technologies a run covers by default; all known ones when omitted"),
  schedule_minutes: z.number().positive().nullable().default(null)
    .describe("Minutes between scheduled runs; null (the default) turns the schedule off"),
  fx: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().positive()).default({})
    .describe("USD per unit of currency, e.g. { EUR: 1.08 }, with the price year documented"),
  llm: z.object({
    api_key: z.string().optional(),
    base_url: z.url().default(DEFAULT_LLM_BASE_URL),
    model: z.string().min(1).default(DEFAULT_LLM_MODEL),
  }).default({ base_url: DEFAULT_LLM_BASE_URL, model: DEFAULT_LLM_MODEL })
    .describe("Language-model extractor; used only when api_key is set"),
});

/** The parsed scraper configuration. */
export type ScraperConfig = z.infer<typeof ScraperConfigSchema>;

function list(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

function number(value: string | undefined): number | undefined {
  return value === undefined || value.trim() === "" ? undefined : Number(value);
}

/** Parses `EUR=1.08,GBP=1.27` into `{ EUR: 1.08, GBP: 1.27 }`. */
export function parseFx(value: string | undefined): Record<string, number> | undefined {
  const items = list(value);
  if (!items) return undefined;
  return Object.fromEntries(items.map((item) => {
    const [code, rate] = item.split("=").map((part) => part.trim());
    return [code?.toUpperCase() ?? "", Number(rate)];
  }));
}

/**
 * The configuration from environment variables: SCRAPER_SOURCES (comma list),
 * OPENALEX_BASE_URL, CROSSREF_BASE_URL, ARXIV_BASE_URL, OPENALEX_API_KEY, CROSSREF_PLUS_TOKEN,
 * SCRAPER_MAILTO, SCRAPER_TIMEOUT_MS, SCRAPER_PAPERS_PER_QUERY, SCRAPER_TECHNOLOGY_IDS (comma
 * list), SCRAPER_SCHEDULE_MINUTES, SCRAPER_FX_USD_PER (`EUR=1.08,GBP=1.27`), LLM_API_KEY,
 * LLM_BASE_URL, LLM_MODEL. Throws a zod error naming every invalid variable.
 */
export function scraperConfigFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): ScraperConfig {
  const defined = <T extends Record<string, unknown>>(record: T) =>
    Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
  return ScraperConfigSchema.parse(defined({
    sources: list(env.SCRAPER_SOURCES),
    base_urls: defined({
      openalex: env.OPENALEX_BASE_URL || undefined,
      crossref: env.CROSSREF_BASE_URL || undefined,
      arxiv: env.ARXIV_BASE_URL || undefined,
    }),
    mailto: env.SCRAPER_MAILTO || undefined,
    api_keys: defined({
      openalex: env.OPENALEX_API_KEY || undefined,
      crossref: env.CROSSREF_PLUS_TOKEN || undefined,
    }),
    timeout_ms: number(env.SCRAPER_TIMEOUT_MS),
    papers_per_query: number(env.SCRAPER_PAPERS_PER_QUERY),
    technology_ids: list(env.SCRAPER_TECHNOLOGY_IDS),
    schedule_minutes: number(env.SCRAPER_SCHEDULE_MINUTES),
    fx: parseFx(env.SCRAPER_FX_USD_PER),
    llm: defined({
      api_key: env.LLM_API_KEY || undefined,
      base_url: env.LLM_BASE_URL || undefined,
      model: env.LLM_MODEL || undefined,
    }),
  }));
}
