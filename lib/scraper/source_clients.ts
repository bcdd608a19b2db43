/**
 * The source clients bound to their configuration (base URL, fetch, contact address, keys,
 * timeout), each keeping the least time between its requests that its API asks for.
 */
import { serialQueue } from "../concurrency/serial_queue.ts";
import { searchArxiv } from "./arxiv.ts";
import { searchCrossref } from "./crossref.ts";
import { searchOpenAlex } from "./openalex.ts";
import {
  DEFAULT_BASE_URLS,
  DEFAULT_REQUEST_INTERVAL_MS,
  type SearchFunction,
  type SearchOptions,
  type SourceClient,
  type SourceName,
} from "./source.ts";

/** The search function of each source. */
export const SEARCH_FUNCTIONS: Readonly<Record<SourceName, SearchFunction>> = {
  openalex: searchOpenAlex,
  crossref: searchCrossref,
  arxiv: searchArxiv,
};

/** Configuration shared by the source clients. */
export interface SourceClientOptions {
  /** Base URL per source; DEFAULT_BASE_URLS for the others. */
  baseUrls?: Partial<Record<SourceName, string | undefined>>;
  /** API key per source (OpenAlex key, Crossref Plus token). */
  apiKeys?: Partial<Record<SourceName, string | undefined>>;
  /** Least ms between two requests per source; DEFAULT_REQUEST_INTERVAL_MS for the others. */
  requestIntervalMs?: Partial<Record<SourceName, number | undefined>>;
  fetch?: typeof fetch;
  mailto?: string;
  timeoutMs?: number;
}

/** One configured client per source. */
export function createSourceClients(
  options: SourceClientOptions = {},
): Record<SourceName, SourceClient> {
  const client = (name: SourceName): SourceClient => {
    // One request at a time per source, spaced as the API asks.
    const queue = serialQueue(
      options.requestIntervalMs?.[name] ?? DEFAULT_REQUEST_INTERVAL_MS[name],
    );
    const search: SearchOptions = {
      limit: 0,
      baseUrl: options.baseUrls?.[name] ?? DEFAULT_BASE_URLS[name],
    };
    if (options.fetch) search.fetch = options.fetch;
    if (options.mailto) search.mailto = options.mailto;
    const apiKey = options.apiKeys?.[name];
    if (apiKey) search.apiKey = apiKey;
    if (options.timeoutMs !== undefined) search.timeoutMs = options.timeoutMs;
    return {
      name,
      search: (query, limit) => queue(() => SEARCH_FUNCTIONS[name](query, { ...search, limit })),
    };
  };
  return { openalex: client("openalex"), crossref: client("crossref"), arxiv: client("arxiv") };
}
