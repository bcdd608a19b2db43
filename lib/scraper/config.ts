/**
 * Scraper configuration: enabled sources and their base URLs, the optional schedule (off by
 * default), exchange rates, and the optional language-model key. The catalogue server reads it
 * from the environment (`server/catalogue/config.ts`, the only reader of SCRAPER_* variables).
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
