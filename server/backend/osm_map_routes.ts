/**
 * The map page: `GET /api/osm/map` shows the five layers of the imported regions with MapLibre
 * GL, served from the npm package (no CDN, no inline script, no outside tile server unless one
 * is configured). The page's script reads `GET /api/osm/regions` and
 * `GET /api/osm/{layer}?region=` beside it. Paths are absolute, so the backend mounts the app
 * with `app.route("/", osmMapRoutes())`.
 *
 * For tests and tools the page sets `window.map` (the MapLibre map), `window.mapReady` (features
 * loaded per layer, after the first `idle`) or `window.mapError` (why loading failed).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { LAYER_NAMES, type LayerName } from "../../lib/osm/osm_store.ts";
import {
  createOpenAPIApp,
  detailedErrorSchema,
  errorResponse,
  jsonError,
} from "../middleware/errors.ts";

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

/** The page's style sheet. */
const MAP_CSS = `html, body { margin: 0; height: 100%; font: 14px/1.4 system-ui, sans-serif; }
#map { position: absolute; inset: 0; background: #eef0f2; }
#panel { position: absolute; top: 10px; right: 10px; max-width: 260px; padding: 8px 12px;
  background: rgba(255, 255, 255, 0.92); border-radius: 6px; box-shadow: 0 1px 4px #0004; }
#layers { border: 0; margin: 0; padding: 0; }
#layers legend { font-weight: 600; padding: 0; margin-bottom: 4px; }
#layers label { display: block; cursor: pointer; }
.count { color: #666; }
.swatch { display: inline-block; width: 12px; height: 12px; margin: 0 6px 0 4px;
  vertical-align: -1px; border-radius: 2px; }
.swatch.substations { background: #1f3b8c; border-radius: 50%; }
.swatch.power_plants { background: #2a9d8f; border-radius: 50%; }
.swatch.power_lines { background: #d62828; height: 3px; vertical-align: 3px; }
.swatch.communes { background: #f4a26155; border: 1px solid #e76f51; }
.swatch.districts { border: 2px dashed #6a4c93; }
#status { margin: 6px 0 0; color: #333; }
#status.error { color: #b00020; font-weight: 600; }
.attribution { margin: 6px 0 0; font-size: 12px; }
.popup h3 { margin: 0 0 4px; font-size: 14px; }
.popup table { border-collapse: collapse; font-size: 12px; }
.popup th { text-align: left; padding-right: 8px; color: #555; font-weight: 500; }
`;

/**
 * The page's script (an ES module: MapLibre 6 ships modules only, without a default export).
 * Popups are built with DOM nodes and textContent: tag values are data, never HTML.
 */
const MAP_JS =
  `import { Map, NavigationControl, Popup, ScaleControl } from "./${MAPLIBRE_DIR}/maplibre-gl.mjs";

const ATTRIBUTION = '<a href="${OSM_COPYRIGHT_URL}" target="_blank" rel="noopener">${OSM_ATTRIBUTION_TEXT}</a>';
const LAYERS = ${JSON.stringify(LAYER_NAMES)};
const LABELS = ${JSON.stringify(LAYER_LABELS)};
// The map layers drawing each data layer, and which of them answer clicks (top first).
const DRAWN = {
  districts: ["districts-fill", "districts-line"],
  communes: ["communes-fill", "communes-line"],
  power_lines: ["power_lines"],
  substations: ["substations"],
  power_plants: ["power_plants"],
};
const CLICKABLE = ["power_plants", "substations", "power_lines", "communes-fill", "districts-fill"];
// Properties worth showing first, per layer; other tags follow.
const KEY_PROPERTIES = {
  substations: ["power", "voltage_kv", "operator"],
  power_plants: ["source", "output_mw", "power", "operator"],
  power_lines: ["power", "voltage_kv", "circuits", "cables", "operator"],
  communes: ["admin_level", "area_m2"],
  districts: ["admin_level", "area_m2"],
};
const MAX_TAGS = 8;

const status = document.getElementById("status");
const tiles = document.body.dataset.tiles;
const style = {
  version: 8,
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#eef0f2" } }],
};
if (tiles) {
  style.sources.osm = { type: "raster", tiles: [tiles], tileSize: 256, maxzoom: 19, attribution: ATTRIBUTION };
  style.layers.push({ id: "osm-tiles", type: "raster", source: "osm" });
}
const map = new Map({
  container: "map",
  style,
  center: [10, 47],
  zoom: 3,
  attributionControl: { compact: false, customAttribution: ATTRIBUTION },
});
window.map = map;
map.addControl(new NavigationControl(), "top-left");
map.addControl(new ScaleControl(), "bottom-left");

function setStatus(text, isError) {
  status.textContent = text;
  status.classList.toggle("error", Boolean(isError));
}

async function getJson(url) {
  const response = await fetch(url);
  if (!response.ok) {
    let message = response.statusText;
    try {
      message = (await response.json()).error ?? message;
    } catch {
      // not JSON: keep the status text
    }
    throw new Error(url.pathname + url.search + ": " + response.status + " " + message);
  }
  return response.json();
}

function addLayers(collections) {
  for (const layer of LAYERS) {
    map.addSource(layer, { type: "geojson", data: collections[layer], attribution: ATTRIBUTION });
  }
  map.addLayer({ id: "districts-fill", type: "fill", source: "districts",
    paint: { "fill-color": "#6a4c93", "fill-opacity": 0.04 } });
  map.addLayer({ id: "districts-line", type: "line", source: "districts",
    paint: { "line-color": "#6a4c93", "line-width": 2.5, "line-dasharray": [3, 2] } });
  map.addLayer({ id: "communes-fill", type: "fill", source: "communes",
    paint: { "fill-color": "#f4a261", "fill-opacity": 0.2 } });
  map.addLayer({ id: "communes-line", type: "line", source: "communes",
    paint: { "line-color": "#e76f51", "line-width": 1 } });
  map.addLayer({ id: "power_lines", type: "line", source: "power_lines",
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": "#d62828", "line-width": ["interpolate", ["linear"], ["zoom"], 8, 1.5, 14, 4] } });
  map.addLayer({ id: "substations", type: "circle", source: "substations",
    paint: { "circle-color": "#1f3b8c", "circle-radius": 6,
      "circle-stroke-color": "#ffffff", "circle-stroke-width": 1.5 } });
  map.addLayer({ id: "power_plants", type: "circle", source: "power_plants",
    paint: {
      "circle-color": ["match", ["get", "source"],
        "hydro", "#277da1", "solar", "#f9c74f", "wind", "#90be6d", "biomass", "#6a994e",
        "gas", "#f3722c", "#2a9d8f"],
      "circle-radius": 4.5, "circle-stroke-color": "#ffffff", "circle-stroke-width": 1,
    } });
}

function setupSwitcher() {
  for (const box of document.querySelectorAll("#layers input[data-layer]")) {
    box.addEventListener("change", () => {
      const visibility = box.checked ? "visible" : "none";
      for (const id of DRAWN[box.dataset.layer] ?? []) map.setLayoutProperty(id, "visibility", visibility);
    });
  }
}

// MapLibre hands nested properties back as JSON text; take either form.
function parsed(value) {
  if (typeof value !== "string" || !/^[[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function shown(key, value) {
  const v = parsed(value);
  if (Array.isArray(v)) return v.join(", ") + (key === "voltage_kv" ? " kV" : "");
  if (key === "voltage_kv") return v + " kV";
  if (key === "output_mw") return v + " MW";
  if (key === "area_m2" && typeof v === "number") return (v / 1e6).toFixed(2) + " km²";
  return String(v);
}

function popupContent(layer, properties) {
  const tags = parsed(properties.tags) ?? {};
  const rows = [["osm_id", properties.osm_id], ["layer", LABELS[layer]]];
  const used = new Set(["osm_id", "name"]);
  for (const key of KEY_PROPERTIES[layer] ?? []) {
    const value = properties[key] ?? (typeof tags === "object" ? tags[key] : undefined);
    if (value === undefined || value === null || value === "") continue;
    rows.push([key, shown(key, value)]);
    used.add(key);
  }
  if (tags && typeof tags === "object") {
    for (const [key, value] of Object.entries(tags)) {
      if (rows.length >= 2 + MAX_TAGS) break;
      if (used.has(key) || key.startsWith("name:") || key.startsWith("bfs:")) continue;
      rows.push([key, String(value)]);
    }
  }
  const root = document.createElement("div");
  root.className = "popup";
  const title = document.createElement("h3");
  title.textContent = properties.name || LABELS[layer];
  root.append(title);
  const table = document.createElement("table");
  for (const [key, value] of rows) {
    const tr = table.insertRow();
    const th = document.createElement("th");
    th.textContent = key;
    tr.append(th);
    tr.insertCell().textContent = value;
  }
  root.append(table);
  return root;
}

function setupPopups() {
  map.on("click", (event) => {
    const feature = map.queryRenderedFeatures(event.point, { layers: CLICKABLE })[0];
    if (!feature) return;
    const layer = feature.source;
    new Popup({ maxWidth: "320px" })
      .setLngLat(event.lngLat)
      .setDOMContent(popupContent(layer, feature.properties))
      .addTo(map);
  });
  for (const id of CLICKABLE) {
    map.on("mouseenter", id, () => (map.getCanvas().style.cursor = "pointer"));
    map.on("mouseleave", id, () => (map.getCanvas().style.cursor = ""));
  }
}

async function load() {
  await map.once("load");
  const regions = await getJson(new URL("../regions", import.meta.url));
  const details = regions.details ?? [];
  const collections = {};
  await Promise.all(LAYERS.map(async (layer) => {
    const parts = await Promise.all(details.map((region) => {
      const url = new URL("../" + layer, import.meta.url);
      url.searchParams.set("region", region.path);
      return getJson(url);
    }));
    collections[layer] = { type: "FeatureCollection", features: parts.flatMap((p) => p.features) };
  }));
  addLayers(collections);
  setupSwitcher();
  setupPopups();
  const counts = {};
  for (const layer of LAYERS) {
    counts[layer] = collections[layer].features.length;
    document.querySelector('[data-count="' + layer + '"]').textContent = "(" + counts[layer] + ")";
  }
  const boxes = details.map((region) => region.bbox).filter((b) => Array.isArray(b) && b.length === 4);
  if (boxes.length > 0) {
    const bounds = [
      [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1]))],
      [Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))],
    ];
    map.fitBounds(bounds, { padding: 40, animate: false });
  }
  setStatus(details.length === 0
    ? "No region imported yet: download one (POST /api/osm/download) or run deno task geo-import."
    : details.map((region) => region.name ?? region.path).join(", "));
  await map.once("idle");
  window.mapReady = counts;
}

load().catch((error) => {
  window.mapError = error.message;
  setStatus("Cannot load the map: " + error.message, true);
  console.error(error);
});
`;

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
      c.body(MAP_JS, 200, { ...PAGE_HEADERS, "Content-Type": "text/javascript; charset=utf-8" }),
  );
  app.get(
    `/api/osm/${ASSET_DIR}/map.css`,
    (c) => c.body(MAP_CSS, 200, { ...PAGE_HEADERS, "Content-Type": "text/css; charset=utf-8" }),
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
