/**
 * The GET helper the source clients share: timeout, status check and a readable error.
 */
import { DEFAULT_TIMEOUT_MS } from "./source.ts";

/** Options of getText. */
export interface GetOptions {
  fetch?: typeof fetch | undefined;
  timeoutMs?: number | undefined;
  accept: string;
  /** Further request headers (API tokens). */
  headers?: Record<string, string> | undefined;
  /** Name used in error messages, e.g. `openalex`. */
  label: string;
}

/** GETs `url` and returns the body; throws on network errors, timeouts and non-2xx answers. */
export async function getText(url: URL, options: GetOptions): Promise<string> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let status: number;
  let body: string;
  try {
    // The timeout covers reading the body too: a server may stall after the headers.
    const response = await doFetch(url, {
      headers: { ...options.headers, accept: options.accept },
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    body = await response.text();
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") {
      throw new Error(`${options.label}: no answer from ${url.origin} within ${timeoutMs} ms`);
    }
    throw new Error(`${options.label}: request to ${url.origin} failed: ${message(error)}`);
  }
  if (status < 200 || status > 299) {
    const excerpt = body.replace(/\s+/g, " ").slice(0, 200);
    throw new Error(`${options.label}: HTTP ${status} from ${url.origin}: ${excerpt}`);
  }
  return body;
}

/** Parses a JSON body, naming the source when it is not JSON. */
export function parseJson(body: string, label: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new SyntaxError(`${label}: answer is not JSON: ${body.slice(0, 120)}`);
  }
}

/** The message of any thrown value. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `base` without trailing slashes, joined with `path`. */
export function endpoint(base: string, path: string): URL {
  return new URL(base.replace(/\/+$/, "") + path);
}

/**
 * Parses the items of a list answer one by one: a malformed record is skipped, but an answer
 * whose records are all malformed is an error, since the API format has likely changed.
 */
export function parseItems<T>(
  items: readonly unknown[],
  parse: (item: unknown) => T | undefined,
  label: string,
): T[] {
  const parsed = items.map(parse).filter((item): item is T => item !== undefined);
  if (items.length > 0 && parsed.length === 0) {
    throw new TypeError(`${label}: none of the ${items.length} records has the expected shape`);
  }
  return parsed;
}
