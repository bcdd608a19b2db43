/**
 * The map page: `GET /api/osm/map` shows the five layers of the imported regions with MapLibre
 * GL, served from the npm package (no CDN, no inline script, no outside tile server unless one
 * is configured). The page's script reads `GET /api/osm/regions` and
 * `GET /api/osm/{layer}?region=` beside it. Paths are absolute, so the backend mounts the app
 * with `app.route("/", osmMapRoutes())`. The page's script and style sheet are real files,
 * `assets/map_page.js` and `assets/map_page.css`, which `deno check`, `deno lint` and `deno fmt`
 * cover; they are served as `/api/osm/map/map.js` and `/api/osm/map/map.css`.
 *
 * For tests and tools the page sets `window.map` (the MapLibre map), `window.mapReady` (features
 * loaded per layer, after the first `idle`) or `window.mapError` (why loading failed).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { LAYER_NAMES, type LayerName } from "../../../lib/osm/osm_store.ts";
import {
  createOpenAPIApp,
  detailedErrorSchema,
  errorResponse,
  jsonError,
} from "../../middleware/errors.ts";

/** The MapLibre GL release served; its assets live below a versioned path, cached for a year. */
export const MAPLIBRE_VERSION = "6.17.0";

/** Where the page's assets live, relative to `/api/osm/`. */
const ASSET_DIR = "map";

/** Where MapLibre's files live, relative to the page's assets; versioned so they never go stale. */
const MAPLIBRE_DIR = `maplibre-${MAPLIBRE_VERSION}`;

/** The attribution every view of OSM-derived data must show (ODbL 1.0, section 4.3). */
export const OSM_ATTRIBUTION_TEXT = "© OpenStreetMap contributors, ODbL";

/** Where the attribution links to. */
export const OSM_COPYRIGHT_URL = "https://www.openstreetmap.org/copyright";

/** Files of `maplibre-gl/dist` served, with their media types. The shared chunk is empty in 6.x
 * but the package lists it, so it is served for bundlers that ask. */
const MAPLIBRE_FILES: Readonly<Record<string, string>> = {
  "maplibre-gl.mjs": "text/javascript; charset=utf-8",
  "maplibre-gl-worker.mjs": "text/javascript; charset=utf-8",
  "maplibre-gl-shared.mjs": "text/javascript; charset=utf-8",
  "maplibre-gl.css": "text/css; charset=utf-8",
  "maplibre-gl.mjs.map": "application/json; charset=utf-8",
  "maplibre-gl-worker.mjs.map": "application/json; charset=utf-8",
};

/** Display names of the layers, in the switcher's order (points on top of lines on areas). */
const LAYER_LABELS: Readonly<Record<LayerName, string>> = {
  substations: "Substations",
  power_plants: "Power plants",
  power_lines: "Power lines",
  communes: "Communes",
  districts: "Districts",
};

/** What the page may be configured with. */
export interface OsmMapOptions {
  /**
   * An OSM raster tile URL template (`https://.../{z}/{x}/{y}.png`) drawn under the layers;
   * absent: a plain background (no request leaves the server's origin). The page's `?tiles=`
   * overrides it per view.
   */
  tileUrl?: string;
}

/** A tile URL template the page accepts: http(s) with `{z}`, `{x}` and `{y}`. */
export function isTileUrlTemplate(value: string): boolean {
  if (!/\{z\}/.test(value) || !/\{x\}/.test(value) || !/\{y\}/.test(value)) return false;
  try {
    const url = new URL(value.replace(/\{[a-z]\}/g, "0"));
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** Escapes text for an HTML attribute or element. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page; every URL in it is relative to the page, so it also works below a path prefix. */
function mapPage(tileUrl: string | undefined): string {
  const tiles = tileUrl === undefined ? "" : ` data-tiles="${escapeHtml(tileUrl)}"`;
  const switches = LAYER_NAMES.map((layer) =>
    `<label><input type="checkbox" data-layer="${layer}" checked>` +
    `<span class="swatch ${layer}"></span>${LAYER_LABELS[layer]} ` +
    `<span class="count" data-count="${layer}"></span></label>`
  ).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Grid map: OpenStreetMap layers</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_DIR}/${MAPLIBRE_DIR}/maplibre-gl.css">
<link rel="stylesheet" href="${ASSET_DIR}/map.css">
<script type="module" src="${ASSET_DIR}/map.js"></script>
</head>
<body${tiles}>
<div id="map"></div>
<aside id="panel">
<fieldset id="layers">
<legend>Layers</legend>
${switches}
</fieldset>
<p id="status" role="status">Loading the imported regions…</p>
<p class="attribution">Data <a href="${OSM_COPYRIGHT_URL}" target="_blank" rel="noopener">${OSM_ATTRIBUTION_TEXT}</a></p>
</aside>
</body>
</html>
`;
}

/** The page's script and style sheet (`assets/`), read once: see `pageAssets()`. */
let assets: { script: string; style: string } | undefined;

/**
 * The page's script with MapLibre imported from its served path (the file names the npm
 * package, whose types check it), and its style sheet. Read at the first `osmMapRoutes()`, so a
 * missing file stops the start.
 */
function pageAssets(): { script: string; style: string } {
  if (assets) return assets;
  const read = (name: string) => Deno.readTextFileSync(new URL(`assets/${name}`, import.meta.url));
  const source = read("map_page.js");
  const specifier = 'from "maplibre-gl";';
  if (source.split(specifier).length !== 2) {
    throw new SyntaxError(`Cannot serve "assets/map_page.js": it must import ${specifier} once`);
  }
  assets = {
    script: source.replace(specifier, `from "./${MAPLIBRE_DIR}/maplibre-gl.mjs";`),
    style: read("map_page.css"),
  };
  return assets;
}

/** Headers of the page and its own assets (they change with a deploy: revalidate each time). */
const PAGE_HEADERS = {
  "Cache-Control": "no-cache",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
};

/**
 * The page's Content-Security-Policy: everything from this origin, MapLibre's worker possibly
 * from a blob (it wraps the module in one when needed), tiles from the configured origin only.
 * Inline styles are allowed because MapLibre positions its controls and popups with them.
 */
function contentSecurityPolicy(tileUrl: string | undefined): string {
  const tiles = tileUrl === undefined
    ? ""
    : ` ${new URL(tileUrl.replace(/\{[a-z]\}/g, "0")).origin}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    `img-src 'self' data: blob:${tiles}`,
    `connect-src 'self'${tiles}`,
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const files = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/** Reads a file of maplibre-gl's dist once and keeps it. */
function maplibreFile(name: string): Promise<Uint8Array<ArrayBuffer>> {
  let file = files.get(name);
  if (!file) {
    file = Deno.readFile(new URL(import.meta.resolve(`maplibre-gl/dist/${name}`)));
    files.set(name, file);
  }
  return file;
}

const mapPageRoute = createRoute({
  method: "get",
  path: "/api/osm/map",
  tags: ["OSM"],
  summary: "The map page: the imported regions' layers in MapLibre GL",
  description: "An HTML page showing substations, power plants, power lines, communes and " +
    "districts of every imported region, with a layer switcher, feature popups and the ODbL " +
    "attribution. Its scripts and styles are served below `/api/osm/map/`; it reads " +
    "`/api/osm/regions` and `/api/osm/{layer}?region=`. The background is plain unless a " +
    "raster tile URL is configured or given as `?tiles=`.",
  request: {
    query: z.object({
      tiles: z.string().max(500).refine(isTileUrlTemplate, {
        message: "must be an http(s) URL template with {z}, {x} and {y}",
      }).optional().describe("An OSM raster tile URL template drawn under the layers"),
    }),
  },
  responses: {
    200: { description: "The page", content: { "text/html": { schema: z.string() } } },
    400: errorResponse(
      "`tiles` is not an http(s) URL template with {z}, {x} and {y}",
      detailedErrorSchema,
    ),
  },
});

/** The map page, its script and style, and MapLibre's files, at absolute paths. */
export function osmMapRoutes(options: OsmMapOptions = {}): OpenAPIHono {
  if (options.tileUrl !== undefined && !isTileUrlTemplate(options.tileUrl)) {
    throw new TypeError(
      `Map tile URL "${options.tileUrl}" is not an http(s) template with {z}, {x} and {y}`,
    );
  }
  const { script, style } = pageAssets();
  const app = createOpenAPIApp({ details: true });

  app.openapi(mapPageRoute, (c) => {
    const tileUrl = c.req.valid("query").tiles ?? options.tileUrl;
    return c.html(mapPage(tileUrl), 200, {
      ...PAGE_HEADERS,
      "Content-Security-Policy": contentSecurityPolicy(tileUrl),
    }) as never;
  });
  app.get(
    `/api/osm/${ASSET_DIR}/map.js`,
    (c) =>
      c.body(script, 200, { ...PAGE_HEADERS, "Content-Type": "text/javascript; charset=utf-8" }),
  );
  app.get(
    `/api/osm/${ASSET_DIR}/map.css`,
    (c) => c.body(style, 200, { ...PAGE_HEADERS, "Content-Type": "text/css; charset=utf-8" }),
  );
  app.get(`/api/osm/${ASSET_DIR}/${MAPLIBRE_DIR}/:file`, async (c) => {
    const name = c.req.param("file");
    const type = MAPLIBRE_FILES[name];
    if (type === undefined) return jsonError(c, 404, `Not found: ${c.req.method} ${c.req.path}`);
    return c.body(await maplibreFile(name), 200, {
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Type": type,
      // The worker module is fetched by the page's own origin only; no CORS needed.
    });
  });
  return app;
}
