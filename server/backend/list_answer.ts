/**
 * The backend's lists (`GET /api/models`, `GET /api/completed-runs`): paged by `?limit` and
 * `?offset`, answered as a bare JSON array with the whole list's length in `X-Total-Count`.
 *
 * An entry carries its saved JSON (up to BACKEND_MAX_BODY_MB each), so a page can weigh far more
 * than one string may hold: a page whose bodies together pass `MAX_BUFFERED_LIST_BYTES` is
 * written a chunk of entries at a time, its bodies read from the store chunk by chunk.
 */
import type { Context } from "hono";
import type { ListPage, Sized } from "../../lib/backend/backend_store.ts";
import { httpError } from "../middleware/errors.ts";

/** Paging of a list: its default and largest `limit`. */
export interface PageRule {
  defaultLimit: number;
  maxLimit: number;
}

/** The model list: everything the frontend loads at start (it shows all models) in one page. */
export const MODEL_PAGE: PageRule = { defaultLimit: 1000, maxLimit: 1000 };

/** The run history: the newest 100, as the frontend keeps them (and its Go backend answered). */
export const RUN_PAGE: PageRule = { defaultLimit: 100, maxLimit: 1000 };

/** Largest `offset`. */
export const MAX_OFFSET = 1_000_000_000;

/** A page whose bodies weigh more than this (bytes) is streamed instead of answered as one text. */
export const MAX_BUFFERED_LIST_BYTES = 16 * 1024 * 1024;

/** A streamed page reads at most this many bodies, or this many bytes of them, at a time. */
const CHUNK_ITEMS = 100;
const CHUNK_BYTES = 8 * 1024 * 1024;

/** Which page a request asks for. */
export interface PageRequest {
  limit: number;
  offset: number;
  /** Both left to their defaults. */
  isDefault: boolean;
}

function whole(
  c: Context,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const given = c.req.queries(name);
  if (given === undefined) return fallback;
  const problem = (why: string) =>
    httpError(400, `Query parameter ${name}: ${why}`, [{ path: name, message: why }]);
  if (given.length > 1) throw problem("given more than once");
  const text = given[0]!;
  const value = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    throw problem(
      `must be a whole number from ${min} to ${max.toLocaleString("en")}, got ${
        JSON.stringify(text.slice(0, 40))
      }`,
    );
  }
  return value;
}

/** `limit` and `offset` of the query; 400 naming the parameter for a bad one. */
export function readPage(c: Context, rule: PageRule): PageRequest {
  const limit = whole(c, "limit", rule.defaultLimit, 1, rule.maxLimit);
  const offset = whole(c, "offset", 0, 0, MAX_OFFSET);
  return { limit, offset, isDefault: limit === rule.defaultLimit && offset === 0 };
}

/** The OpenAPI description of a list's paging. */
export function pagingDescription(rule: PageRule, what: string): string {
  return `Paged: \`limit\` (default ${rule.defaultLimit}, at most ${rule.maxLimit}) ${what} ` +
    `from \`offset\` (default 0); \`X-Total-Count\` gives the length of the whole list. A ` +
    "limit or offset that is not a whole number in range is a 400 naming it.";
}

/** The `X-Total-Count` header of a list answer, for the OpenAPI document. */
export const TOTAL_COUNT_HEADER = {
  "X-Total-Count": {
    description: "How many entries the whole list has (over all pages)",
    schema: { type: "integer" as const },
  },
};

/** Splits a page into runs of entries whose bodies are read together. */
function chunks<T>(items: readonly Sized<T>[]): Sized<T>[][] {
  const out: Sized<T>[][] = [];
  let current: Sized<T>[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length > 0 && (current.length >= CHUNK_ITEMS || bytes + item.size > CHUNK_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * The JSON texts of a page's entries, a chunk at a time: `read` gives the entries' texts of a
 * run of items (those still stored), in their order.
 */
export async function* entryChunks<T>(
  page: ListPage<T>,
  read: (items: Sized<T>[]) => Promise<string[]>,
): AsyncGenerator<string[]> {
  for (const run of chunks(page.items)) yield await read(run);
}

/** Whether a page is small enough to answer as one text. */
export function fitsInOneText<T>(page: ListPage<T>): boolean {
  let bytes = 0;
  for (const item of page.items) bytes += item.size;
  return bytes <= MAX_BUFFERED_LIST_BYTES;
}

/** The whole page as one JSON array text. */
export async function jsonArrayText(parts: AsyncIterable<string[]>): Promise<string> {
  const texts: string[] = [];
  for await (const chunk of parts) texts.push(...chunk);
  return `[${texts.join(",")}]`;
}

/** The page as a JSON array written a chunk at a time. */
export function jsonArrayStream(parts: AsyncIterable<string[]>): ReadableStream<Uint8Array> {
  async function* text(): AsyncGenerator<string> {
    yield "[";
    let first = true;
    for await (const chunk of parts) {
      if (chunk.length === 0) continue;
      yield (first ? "" : ",") + chunk.join(",");
      first = false;
    }
    yield "]";
  }
  return ReadableStream.from(text()).pipeThrough(new TextEncoderStream());
}

/** A list answer: 200, JSON, `X-Total-Count`. */
export function listResponse(
  c: Context,
  total: number,
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>,
): Response {
  return c.body(body, 200, {
    "Content-Type": "application/json",
    "X-Total-Count": String(total),
  });
}
