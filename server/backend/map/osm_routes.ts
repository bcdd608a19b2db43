/**
 * The map's lookup routes: `GET /api/osm/regions-db` (every downloadable Geofabrik region) and
 * `GET /api/geocode?q=` (a place name to a point and box). Paths are absolute, so the backend
 * mounts the app with `app.route("/", geoRoutes(deps))`.
 *
 * `regions-db` answers the spec's array `[{name, path, url, parent}]`; `?format=tempo` answers
 * the predecessor's regions database (`{metadata, countries, ...}`, the shape the existing
 * frontend's downloader reads) as shipped. `geocode` never answers 502: when Nominatim cannot
 * be reached the gazetteer answers; the `X-Source` header says which (`nominatim`,
 * `gazetteer`, `cache`). The cache and exact gazetteer names answer at once; the rest waits
 * for a turn at Nominatim, clients (by address) in turn, at most GEOCODER_MAX_WAIT_S: beyond
 * it, 503 with Retry-After.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { createGeocoder, type Geocoder } from "../../../lib/osm/geocode.ts";
import { loadShippedGazetteer, type Place } from "../../../lib/osm/gazetteer.ts";
import {
  loadRegionsDb,
  type RegionsDb,
  SHIPPED_GEOFABRIK_INDEX,
} from "../../../lib/osm/regions_db.ts";
import { createOpenAPIApp, detailedErrorSchema, httpError } from "../../middleware/errors.ts";
import { clientAddress } from "../../middleware/rate_limit.ts";
import type { GeoSettings } from "./geo_config.ts";

/** What the routes use. */
export interface GeoRouteDeps {
  geocoder: Geocoder;
  regions: RegionsDb;
  /** The predecessor's regions database for `?format=tempo`; absent: that format is 404. */
  tempoRegions?: unknown;
}

/** Longest accepted geocoding query, characters. */
export const MAX_QUERY_LENGTH = 200;

const errorOf = (description: string) => ({
  description,
  content: { "application/json": { schema: detailedErrorSchema } },
});

const regionSchema = z.object({
  name: z.string().describe("Geofabrik's display name"),
  path: z.string().describe('Continent/country/sub-region, e.g. "Europe/Germany/Bayern"'),
  url: z.string().describe("The .osm.pbf download URL (base: GEOFABRIK_URL)"),
  parent: z.string().nullable().describe("The parent's path; null for a top-level region"),
}).openapi("OsmRegion");

const geocodeSchema = z.object({
  lat: z.number().describe("Latitude, degrees (WGS 84)"),
  lon: z.number().describe("Longitude, degrees (WGS 84)"),
  display_name: z.string(),
  bbox: z.array(z.number()).length(4).describe("[minLon, minLat, maxLon, maxLat], degrees"),
}).openapi("GeocodeResult");

const X_SOURCE = {
  "X-Source": {
    schema: { type: "string" as const, enum: ["nominatim", "gazetteer", "cache"] },
    description: "Which source answered",
  },
};

const regionsDbRoute = createRoute({
  method: "get",
  path: "/api/osm/regions-db",
  tags: ["OSM"],
  summary: "Every downloadable region (Geofabrik index, © Geofabrik GmbH)",
  description: "A bare array, parents before children. Path components are the display names " +
    "reduced to letters, digits, hyphens, underscores and spaces (remarks in parentheses " +
    "dropped where siblings stay distinct); `POST /api/osm/download` takes them without " +
    "regard to case. `?format=tempo` answers the predecessor's regions database as shipped.",
  request: {
    query: z.object({
      format: z.enum(["spec", "tempo"]).optional().describe(
        "`spec` (default): the array; `tempo`: `{metadata, countries, ...}`",
      ),
    }),
  },
  responses: {
    200: {
      description: "The regions",
      content: { "application/json": { schema: z.array(regionSchema) } },
    },
    400: errorOf("Unknown `format`"),
    404: errorOf("`format=tempo` while that database is not loaded"),
  },
});

const geocodeRoute = createRoute({
  method: "get",
  path: "/api/geocode",
  tags: ["OSM"],
  summary: "A place name to a point and bounding box",
  description: "Answers at once from the 24-hour cache, or from the local gazetteer (places " +
    "of the imported regions, Liechtenstein's OSM places, Natural Earth's populated places) " +
    "when a place has exactly that name (without regard to case or diacritics). Anything " +
    "else asks the Nominatim-compatible service (NOMINATIM_URL), at most one request a " +
    "second, clients (by address) in turn; a request whose turn would come after " +
    "GEOCODER_MAX_WAIT_S (10 s) gets 503 with Retry-After. When Nominatim cannot be " +
    "reached, the gazetteer's best match answers.",
  request: {
    query: z.object({
      q: z.string().trim().min(1).max(MAX_QUERY_LENGTH).describe("The place name"),
    }),
  },
  responses: {
    200: {
      description: "The best match",
      headers: X_SOURCE,
      content: { "application/json": { schema: geocodeSchema } },
    },
    400: errorOf(`\`q\` missing, empty or over ${MAX_QUERY_LENGTH} characters`),
    404: errorOf("No place of that name"),
    503: {
      ...errorOf("Too many requests waiting for Nominatim: retry after `Retry-After` seconds"),
      headers: {
        "Retry-After": {
          schema: { type: "integer" as const },
          description: "Seconds to wait before asking again",
        },
      },
    },
  },
});

/** The regions-db and geocode routes, at absolute paths. */
export function geoRoutes(deps: GeoRouteDeps): OpenAPIHono {
  const app = createOpenAPIApp({ details: true });

  app.openapi(regionsDbRoute, (c) => {
    if (c.req.valid("query").format === "tempo") {
      if (deps.tempoRegions === undefined) {
        throw httpError(404, "The predecessor's regions database is not loaded");
      }
      return c.json(deps.tempoRegions as never, 200);
    }
    return c.json([...deps.regions.regions], 200);
  });

  app.openapi(geocodeRoute, async (c) => {
    const { q } = c.req.valid("query");
    const answer = await deps.geocoder.geocode(q, clientAddress(c));
    if ("busy" in answer) {
      c.header("Retry-After", String(answer.retryAfterSeconds));
      throw httpError(503, answer.message);
    }
    c.header("X-Source", answer.source);
    if (!answer.found) throw httpError(404, answer.message);
    return c.json(answer.result, 200);
  });

  return app;
}

/** Where the shipped geo data is. */
export const GEO_DATA = {
  geofabrikIndex: SHIPPED_GEOFABRIK_INDEX,
  tempoRegions: new URL("../../../data/geo/regions/tempo_regions_database.json", import.meta.url),
} as const;

/**
 * The routes' dependencies from the settings and the shipped data: the Geofabrik regions, the
 * predecessor's regions database, and a geocoder over Nominatim with the shipped gazetteer.
 */
export async function loadGeoRouteDeps(
  settings: GeoSettings,
  options: {
    fetch?: typeof fetch;
    extraPlaces?: () => readonly Place[] | Promise<readonly Place[]>;
  } = {},
): Promise<GeoRouteDeps> {
  const [regions, tempoText, gazetteer] = await Promise.all([
    loadRegionsDb(GEO_DATA.geofabrikIndex, settings.geofabrikUrl),
    Deno.readTextFile(GEO_DATA.tempoRegions),
    loadShippedGazetteer(),
  ]);
  const geocoder = createGeocoder({
    nominatimUrl: settings.nominatimUrl,
    userAgent: settings.geocoderUserAgent,
    maxWaitMs: settings.geocoderMaxWaitMs,
    gazetteer,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.extraPlaces ? { extraPlaces: options.extraPlaces } : {}),
  });
  return { geocoder, regions, tempoRegions: JSON.parse(tempoText) };
}
