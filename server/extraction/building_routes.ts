/**
 * `GET /buildings`: the extracted buildings of a box (centroid in the box, from completed runs,
 * each with its latest run's record), or one by id; paged by an opaque cursor. Without
 * geometry, on purpose: `GET /geometry` has the footprints.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { RunStore } from "../../lib/extraction/run_store.ts";
import { httpError } from "../middleware/errors.ts";
import { LruCache } from "../../lib/cache/lru_cache.ts";

const ENCODER = new TextEncoder();
import {
  buildingPageSchema,
  BUILDINGS_PAGE,
  buildingsQuerySchema,
  errorOf,
  jsonOf,
} from "./schemas.ts";
import { acceptsGzip, gzipBytes } from "../middleware/gzip_bytes.ts";

const CURSOR_PREFIX = "b1:";

/** The cursor that continues after building `id`. */
export function encodeCursor(id: string): string {
  const bytes = new TextEncoder().encode(CURSOR_PREFIX + id);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replaceAll("=", "");
}

/** The building id a cursor continues after; undefined for text that is not a cursor. */
export function decodeCursor(cursor: string): string | undefined {
  try {
    const b64 = cursor.replaceAll("-", "+").replaceAll("_", "/");
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : undefined;
  } catch {
    return undefined;
  }
}

const BOX_PARAMS = ["country", "xmin", "ymin", "xmax", "ymax"] as const;

const buildingsRoute = createRoute({
  method: "get",
  path: "/buildings",
  tags: ["Data"],
  summary: "Extracted buildings of a box, or one by id",
  description: "Either `id`, or `country` with the box `xmin, ymin, xmax, ymax`: the " +
    "buildings of completed runs whose centroid lies in the box (edges included); a building " +
    "in several runs answers its latest run's record. Ordered by id; follow `next_cursor`.",
  request: { query: buildingsQuerySchema },
  responses: {
    200: jsonOf("A page of buildings", buildingPageSchema),
    400: errorOf(
      `A parameter missing or at fault (named), \`limit\` over ${BUILDINGS_PAGE.max}, or a ` +
        "cursor not from this service",
    ),
    404: errorOf("`id`: no completed run has this building"),
  },
});

/** Box answers kept: a map client asks the same boxes again and again. */
const CACHED_PAGES = 64;

/** Mounts the buildings route on `api`. */
export function buildingRoutes(api: OpenAPIHono, deps: { runs: RunStore }): void {
  // Box pages as UTF-8 bytes, built from the stored record texts without parsing them; valid
  // while no run completes (the store counts completions).
  const cache = new LruCache<{ bytes: Uint8Array<ArrayBuffer>; gzip?: Uint8Array<ArrayBuffer> }>(
    { maxEntries: CACHED_PAGES },
  );
  let cachedFor = deps.runs.completedRuns;

  api.openapi(buildingsRoute, async (c) => {
    const query = c.req.valid("query");
    if (query.id !== undefined) {
      const found = await deps.runs.buildingById(query.id);
      if (!found) throw httpError(404, `No completed run has building ${query.id}`);
      return c.json({ buildings: [found], total: 1, next_cursor: null }, 200);
    }
    const missing = BOX_PARAMS.filter((name) => query[name] === undefined);
    if (missing.length > 0) {
      throw httpError(
        400,
        `Invalid query: ${missing.join(", ")}: required (give \`id\`, or \`country\` and the ` +
          "box xmin, ymin, xmax, ymax)",
      );
    }
    let after: string | undefined;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (after === undefined) {
        throw httpError(400, "Invalid query: cursor: not a next_cursor of this service");
      }
    }
    const box = [query.xmin!, query.ymin!, query.xmax!, query.ymax!] as const;
    const limit = query.limit ?? BUILDINGS_PAGE.default;
    const key = JSON.stringify([query.country, box, limit, after ?? null]);
    const completed = deps.runs.completedRuns;
    if (completed !== cachedFor) {
      cache.clear();
      cachedFor = completed;
    }
    let entry = cache.get(key);
    if (!entry) {
      const page = await deps.runs.buildingsInBox(query.country!, box, {
        limit,
        ...(after !== undefined ? { after } : {}),
      });
      const next = page.next === null ? null : encodeCursor(page.next);
      entry = {
        bytes: ENCODER.encode(
          `{"buildings":[${page.texts.join(",")}],"total":${page.total},` +
            `"next_cursor":${JSON.stringify(next)}}`,
        ),
      };
      // Not kept when a run completed while it was read.
      if (deps.runs.completedRuns === completed) cache.set(key, entry);
    }
    // A page of 500 buildings with their surfaces is about 1 MB of JSON, a tenth of it gzipped:
    // compressed once and kept, for clients that accept it.
    if (acceptsGzip(c.req.header("accept-encoding"))) {
      entry.gzip ??= await gzipBytes(entry.bytes);
      return c.body(entry.gzip, 200, {
        "Content-Type": "application/json",
        "Content-Encoding": "gzip",
        "Vary": "Accept-Encoding",
      }) as never;
    }
    return c.body(entry.bytes, 200, {
      "Content-Type": "application/json",
      "Vary": "Accept-Encoding",
    }) as never;
  });
}
