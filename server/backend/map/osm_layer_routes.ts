/**
 * The map layer routes: `GET /api/osm/layers` (the layers with geometry type and feature
 * counts), `GET /api/osm/regions` (the imported regions) and `GET /api/osm/{layer}?bbox=&region=`
 * (a layer's features as GeoJSON). Paths are absolute: the backend mounts the app with
 * `app.route("/", osmLayerRoutes(context))`, after the apps with fixed `/api/osm/...` paths.
 *
 * A layer answer comes from the store when an imported region covers the request, from the
 * Overpass API (OVERPASS_URL) when none does or the store cannot be read, and from a 5-minute
 * cache of both, which a completed region import empties; the `X-Source` header says which.
 * Overpass failing is a 502 naming its status, never an empty collection.
 *
 * The store takes a box of any size (the existing frontend's first view asks for a continent);
 * only the Overpass fallback is limited to 5 x 5 degrees: a larger box that no imported region
 * covers gets an empty collection with a `notice`. Store answers are cut at
 * OSM_LAYER_MAX_FEATURES and OSM_LAYER_MAX_MB (`truncated`, `total`, `notice`, `X-Truncated`).
 */
import { type LayerIndex, loadLayerIndex } from "../../../lib/osm/layer_index.ts";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  type Bbox,
  bboxText,
  MAX_BBOX_SPAN_DEG,
  parseBbox,
  spanText,
  withinSpan,
} from "../../../lib/osm/bbox.ts";
import {
  emptyCollection,
  type LayerAnswer,
  type LayerLimits,
  normalizeRegion,
  OSM_ATTRIBUTION,
  queryLayer,
  regionKey,
  regionsCover,
} from "../../../lib/osm/layer_query.ts";
import { LayerAnswerCache } from "../../../lib/osm/layer_answer_cache.ts";
import { regionSource } from "../../../lib/osm/region_source.ts";
import {
  type ImportedRegion,
  LAYER_GEOMETRY,
  LAYER_NAMES,
  layerByName,
  type LayerName,
  listImportedRegions,
} from "../../../lib/osm/osm_store.ts";
import {
  fetchOverpassLayer,
  OVERPASS_TIMEOUT_MS,
  OverpassError,
} from "../../../lib/osm/overpass.ts";
import { createOpenAPIApp, detailedErrorSchema, httpError } from "../../middleware/errors.ts";
import { onRegionImported, type OsmContext } from "./osm_context.ts";

/** Options of osmLayerRoutes (tests shorten the times). */
export interface OsmLayerRouteOptions {
  /** How long a layer answer is served from the cache, ms (default 5 minutes). */
  cacheTtlMs?: number;
  /** How long to wait for Overpass, ms (default 40 s). */
  overpassTimeoutMs?: number;
  /** The current time for the cache, ms (default Date.now). */
  now?: () => number;
  /** Where to report a store read that failed before Overpass answers instead. */
  log?: (message: string) => void;
  /**
   * Largest layer held in memory, bytes (default LAYER_INDEX_MAX_BYTES); larger layers are
   * queried in the store each time. 0 queries every layer in the store.
   */
  indexMaxBytes?: number;
}

/** Where a layer answer came from, as the `X-Source` header says. */
export type LayerSource = "store" | "overpass" | "cache";

/** Default lifetime of a cached layer answer, ms. */
export const LAYER_CACHE_TTL_MS = 5 * 60_000;

/** Most layer answers cached; their bytes are bounded by OSM_LAYER_CACHE_MB too. */
const CACHE_ENTRIES = 256;

const errorOf = (description: string) => ({
  description,
  content: { "application/json": { schema: detailedErrorSchema } },
});

const bboxSchema = z.array(z.number()).length(4).describe(
  "[minLon, minLat, maxLon, maxLat], degrees (WGS 84)",
);

const layerInfoSchema = z.object({
  name: z.enum(LAYER_NAMES).describe(
    "The layer's name, the path segment of `GET /api/osm/{layer}`",
  ),
  alias: z.string().describe("The same layer by the name the existing frontend uses (`osm_...`)"),
  geometry: z.string().describe("GeoJSON geometry type of every feature"),
  count: z.number().int().describe("Features over all imported regions"),
}).openapi("OsmLayer");

const layersRoute = createRoute({
  method: "get",
  path: "/api/osm/layers",
  tags: ["OSM"],
  summary: "The map layers, with geometry type and feature counts",
  description: "Counts are those of the imported regions (0 before any import); features " +
    "outside them come from Overpass on request.",
  responses: {
    200: {
      description: "The five layers, in a fixed order",
      content: {
        "application/json": {
          schema: z.object({
            layers: z.array(layerInfoSchema),
            attribution: z.string().describe("The ODbL attribution the data needs"),
          }),
        },
      },
    },
  },
});

const importedRegionSchema = z.object({
  path: z.string().describe('Region path as imported, e.g. "Europe/Liechtenstein"'),
  name: z.string().describe("The last path component"),
  source_url: z.string().nullable().describe(
    "The http(s) URL the extract was downloaded from (without user-info or query); null when " +
      "it was imported from a local file",
  ),
  source_file: z.string().nullable().describe(
    "The base name of the local file it was imported from (no directory); null for a download",
  ),
  imported_at: z.string().describe("When the import committed, ISO 8601 UTC"),
  counts: z.record(z.string(), z.number().int()).describe(
    "Features per layer table (the map layers and buildings)",
  ),
  bbox: bboxSchema.nullable().describe("Extent of the region's nodes; null when it has none"),
}).openapi("OsmImportedRegion");

const regionsRoute = createRoute({
  method: "get",
  path: "/api/osm/regions",
  tags: ["OSM"],
  summary: "The imported regions",
  description: "`regions` lists the paths (the form the existing frontend reads); `details` " +
    "the same regions with source, import time, feature counts and extent.",
  responses: {
    200: {
      description: "The imported regions, by path",
      content: {
        "application/json": {
          schema: z.object({
            regions: z.array(z.string()),
            details: z.array(importedRegionSchema),
          }),
        },
      },
    },
  },
});

const X_SOURCE = {
  "X-Source": {
    schema: { type: "string" as const, enum: ["store", "overpass", "cache"] },
    description: "Which source answered: the imported regions, the Overpass API, or the " +
      "5-minute cache of either",
  },
  "X-Truncated": {
    schema: { type: "string" as const, enum: ["true"] },
    description: "Present when the answer was cut at OSM_LAYER_MAX_FEATURES or " +
      "OSM_LAYER_MAX_MB (the collection then has `truncated`, `total` and `notice`)",
  },
};

const layerQuerySchema = z.object({
  bbox: z.string().optional().describe(
    "minLon,minLat,maxLon,maxLat in degrees: four finite numbers, longitudes in [-180, 180], " +
      "latitudes in [-90, 90], min < max, any size. Features whose bounding box intersects it.",
  ),
  region: z.string().optional().describe(
    'A region path such as "Europe/Liechtenstein": components of 1 to 80 letters, digits, ' +
      "hyphens, underscores or spaces, matched without regard to case; a region includes its " +
      "sub-regions. At least one of `bbox` and `region` is required.",
  ),
});

/** The names of the layers, for messages. */
const KNOWN_LAYERS = `${LAYER_NAMES.join(", ")} (also as ${
  LAYER_NAMES.map((n) => `osm_${n}`).join(", ")
})`;

/** The layer routes over `context`; the cache empties whenever a region import completes. */
export function osmLayerRoutes(
  context: OsmContext,
  options: OsmLayerRouteOptions = {},
): OpenAPIHono {
  const app = createOpenAPIApp({ details: true });
  // Answers as UTF-8 bytes: encoding a large collection again for every hit would cost more
  // than the rest of the request.
  const cache = new LayerAnswerCache({
    maxBytes: context.settings.layerCacheBytes,
    maxEntries: CACHE_ENTRIES,
    ttlMs: options.cacheTtlMs ?? LAYER_CACHE_TTL_MS,
    ...(options.now ? { now: options.now } : {}),
  });
  const limits: LayerLimits = {
    maxFeatures: context.settings.layerMaxFeatures,
    maxBytes: context.settings.layerMaxBytes,
  };
  // The imported regions change only with an import: read once, dropped with the cache.
  let regions: Promise<ImportedRegion[]> | undefined;
  // Bumped by every import, so an answer computed across an import is not cached.
  let generation = 0;
  const importedRegions = () => {
    const read = regions ??= listImportedRegions(context.store);
    read.catch(() => {
      if (regions === read) regions = undefined;
    });
    return read;
  };
  // Layers held in memory (layer_index.ts), read at first use after each import.
  const indexes = new Map<LayerName, Promise<LayerIndex | undefined>>();
  const layerIndex = (layer: LayerName) => {
    let loading = indexes.get(layer);
    if (!loading) {
      loading = loadLayerIndex(context.store, layer, options.indexMaxBytes);
      indexes.set(layer, loading);
      loading.catch(() => {
        if (indexes.get(layer) === loading) indexes.delete(layer);
      });
    }
    return loading;
  };
  const unsubscribe = onRegionImported(context, () => {
    generation++;
    regions = undefined;
    indexes.clear();
    cache.clear();
  });
  context.shutdown.addEventListener("abort", unsubscribe, { once: true });
  const log = options.log ?? ((message: string) => console.warn(message));

  app.openapi(layersRoute, async (c) => {
    const imported = await importedRegions();
    const layers = LAYER_NAMES.map((name) => ({
      name,
      alias: `osm_${name}`,
      geometry: LAYER_GEOMETRY[name],
      count: imported.reduce((sum, r) => sum + (r.counts[name] ?? 0), 0),
    }));
    return c.json({ layers, attribution: OSM_ATTRIBUTION }, 200);
  });

  app.openapi(regionsRoute, async (c) => {
    const imported = await importedRegions();
    return c.json({
      regions: imported.map((r) => r.region_path),
      details: imported.map((r) => ({
        path: r.region_path,
        name: r.name,
        ...regionSource(r.source_url),
        imported_at: r.imported_at,
        counts: r.counts,
        bbox: r.bbox,
      })),
    }, 200);
  });

  app.openAPIRegistry.registerPath({
    method: "get",
    path: "/api/osm/{layer}",
    tags: ["OSM"],
    summary: "A map layer's features in a bounding box and/or region (GeoJSON)",
    description: "A FeatureCollection whose features have `id` = `properties.osm_id` " +
      '("node/1", "way/2", "relation/3") and properties `name`, `region_path` (null from ' +
      "Overpass), `tags` (all OSM tags) and the layer's parsed values (`voltage_kv` as a list, " +
      "`output_mw`, `area_m2`, ...). Answered from the imported regions when one covers the " +
      "request (a region named, or a bbox of any size intersecting one's extent), else from " +
      `the Overpass API (bbox clamped to ${MAX_BBOX_SPAN_DEG} x ${MAX_BBOX_SPAN_DEG} degrees ` +
      "around its centre, 40 s timeout); a bbox over that size without `region` that no " +
      "imported region covers gets an empty collection with a `notice` (Overpass is not " +
      "asked). A store answer holds at most OSM_LAYER_MAX_FEATURES (20,000) features and " +
      "OSM_LAYER_MAX_MB (32) MiB, the first by osm_id: a cut answer has `truncated: true`, " +
      "`total` (the features selected) and a `notice`, and the `X-Truncated` header. Answers " +
      "are cached for 5 minutes until a region import completes.",
    request: {
      params: z.object({
        layer: z.string().describe(`The layer: ${KNOWN_LAYERS}`),
      }),
      query: layerQuerySchema,
    },
    responses: {
      200: {
        description: "The features (an empty collection means the source has none there)",
        headers: X_SOURCE,
        content: { "application/geo+json": { schema: z.object({}).passthrough() } },
      },
      400: errorOf(
        "`bbox` malformed or out of range, `region` malformed, or neither given; the message " +
          "names the parameter",
      ),
      404: errorOf(
        "Unknown layer (the message lists the known ones), or a `region` that is not imported " +
          "given without a `bbox`",
      ),
      502: errorOf(
        "Overpass failed: the message and `details.upstream` name its status (an HTTP status, " +
          '"unreachable", "timeout", "invalid JSON" or "runtime error")',
      ),
      503: errorOf(
        "The store cannot be read and no `bbox` (or one over 5 x 5 degrees) was given to ask " +
          "Overpass",
      ),
    },
  });

  app.get("/api/osm/:layer", async (c) => {
    const name = c.req.param("layer");
    const layer = layerByName(name);
    if (!layer) {
      throw httpError(404, `Unknown layer ${JSON.stringify(name)}; known layers: ${KNOWN_LAYERS}`);
    }
    const { bbox, region } = parseLayerQuery(c.req.query("bbox"), c.req.query("region"));
    const key = `${layer}|${bbox ? bboxText(bbox) : ""}|${region ? regionKey(region) : ""}`;
    const cached = cache.get(key);
    if (cached) return answer(cached.bytes, "cache", cached.truncated);
    const started = generation;
    const request = { ...(bbox ? { bbox } : {}), ...(region ? { region } : {}) };
    let storeProblem: string | undefined;
    try {
      if (regionsCover(await importedRegions(), request)) {
        const index = await layerIndex(layer);
        const found = index
          ? index.query(request, limits)
          : await queryLayer(context.store, layer, request, limits);
        return remember(key, started, found, "store");
      }
    } catch (error) {
      storeProblem = error instanceof Error ? error.message : String(error);
      log(`osm layer ${layer}: the store cannot be read (${storeProblem}); asking Overpass`);
    }
    if (!bbox) {
      if (storeProblem) {
        throw httpError(503, `The store cannot be read (${storeProblem}) and no bbox was given`);
      }
      throw httpError(
        404,
        `Region ${JSON.stringify(region)} is not imported: download it with ` +
          "POST /api/osm/download, or give a bbox to ask Overpass",
      );
    }
    if (region === undefined && !withinSpan(bbox)) {
      // What the store has in this box is nothing; Overpass is not asked for a box this large.
      const span = `The bbox spans ${spanText(bbox)} degrees`;
      if (storeProblem) {
        throw httpError(
          503,
          `The store cannot be read (${storeProblem}); ${span.toLowerCase()}, more than the ` +
            `Overpass fallback asks for (${MAX_BBOX_SPAN_DEG} x ${MAX_BBOX_SPAN_DEG})`,
        );
      }
      return answer(
        ENCODER.encode(emptyCollection(
          `No imported region lies in this bbox. ${span}; the Overpass fallback asks for at ` +
            `most ${MAX_BBOX_SPAN_DEG} x ${MAX_BBOX_SPAN_DEG} degrees. Import a region ` +
            "(POST /api/osm/download), name one (region=...) or zoom in.",
        )),
        "store",
      );
    }
    try {
      const found = await fetchOverpassLayer(layer, bbox, {
        url: context.settings.overpassUrl,
        fetch: context.fetch,
        timeoutMs: options.overpassTimeoutMs ?? OVERPASS_TIMEOUT_MS,
        signal: context.shutdown,
        userAgent: context.settings.geocoderUserAgent,
      });
      return remember(key, started, found, "overpass");
    } catch (error) {
      if (error instanceof OverpassError) {
        throw httpError(502, error.message, { upstream: error.upstream });
      }
      throw error;
    }
  });

  function remember(
    key: string,
    started: number,
    found: LayerAnswer & { bytes?: Uint8Array<ArrayBuffer> },
    source: LayerSource,
  ) {
    const bytes = found.bytes ?? ENCODER.encode(found.text);
    const truncated = found.truncated === true;
    if (generation === started) cache.set(key, { bytes, truncated });
    return answer(bytes, source, truncated);
  }

  return app;
}

const ENCODER = new TextEncoder();

function answer(bytes: Uint8Array<ArrayBuffer>, source: LayerSource, truncated = false): Response {
  const headers: Record<string, string> = {
    "Content-Type": "application/geo+json",
    "X-Source": source,
  };
  if (truncated) headers["X-Truncated"] = "true";
  return new Response(bytes, { status: 200, headers });
}

/**
 * The checked `bbox` and `region` of a layer request; throws a 400 naming the parameter at
 * fault, or both when neither is given.
 */
function parseLayerQuery(
  bboxParam: string | undefined,
  regionParam: string | undefined,
): { bbox?: Bbox; region?: string } {
  if (bboxParam === undefined && regionParam === undefined) {
    throw httpError(
      400,
      "bbox or region is required: bbox=minLon,minLat,maxLon,maxLat or region=Continent/Country",
    );
  }
  let region: string | undefined;
  if (regionParam !== undefined) {
    try {
      region = normalizeRegion(regionParam);
    } catch (error) {
      throw httpError(
        400,
        `region ${JSON.stringify(regionParam.slice(0, 100))}: ${message(error)}`,
      );
    }
  }
  let bbox: Bbox | undefined;
  if (bboxParam !== undefined) {
    try {
      // Any size: the store has no limit; the Overpass fallback's is applied where it is asked.
      bbox = parseBbox(bboxParam);
    } catch (error) {
      throw httpError(400, message(error));
    }
  }
  return { ...(bbox ? { bbox } : {}), ...(region ? { region } : {}) };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
