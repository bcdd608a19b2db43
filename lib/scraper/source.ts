/**
 * What every literature source client offers: one search returning normalised papers.
 */
import type { Paper } from "./paper.ts";

/** Names of the literature sources the scraper can query. */
export const SOURCE_NAMES = ["openalex", "crossref", "arxiv"] as const;

/** A literature source name. */
export type SourceName = typeof SOURCE_NAMES[number];

/** Public base URLs of the sources, used when the configuration names none. */
export const DEFAULT_BASE_URLS: Readonly<Record<SourceName, string>> = {
  openalex: "https://api.openalex.org",
  crossref: "https://api.crossref.org",
  arxiv: "https://export.arxiv.org",
};

/**
 * Least time between two requests to a source, in ms: arXiv's terms ask for one request every
 * three seconds; OpenAlex (100 per second) and Crossref need no pause at one request at a time.
 */
export const DEFAULT_REQUEST_INTERVAL_MS: Readonly<Record<SourceName, number>> = {
  openalex: 0,
  crossref: 0,
  arxiv: 3_000,
};

/** Default time allowed for one source request, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 20_000;

/** Options of one source search. */
export interface SearchOptions {
  /** Maximum number of papers to return. */
  limit: number;
  /** The `fetch` to use (tests pass one bound to a local fake). */
  fetch?: typeof fetch;
  /** Base URL of the API, without trailing slash; the public one when omitted. */
  baseUrl?: string;
  /** Contact e-mail sent as `mailto` (OpenAlex and Crossref "polite pool"). */
  mailto?: string;
  /**
   * API key: OpenAlex `api_key` (required by OpenAlex for more than test use), Crossref
   * Metadata Plus token; arXiv has none.
   */
  apiKey?: string;
  /** Request timeout in milliseconds; DEFAULT_TIMEOUT_MS when omitted. */
  timeoutMs?: number;
}

/** Searches one source for `query` and returns normalised papers. */
export type SearchFunction = (query: string, options: SearchOptions) => Promise<Paper[]>;

/** A source bound to its configuration: the pipeline only passes the query and a limit. */
export interface SourceClient {
  readonly name: SourceName;
  search(query: string, limit: number): Promise<Paper[]>;
}

/** True when `name` is one of SOURCE_NAMES. */
export function isSourceName(name: string): name is SourceName {
  return (SOURCE_NAMES as readonly string[]).includes(name);
}
