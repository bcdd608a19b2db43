// @ts-check
/**
 * The map page's script, served as `/api/osm/map/map.js` (an ES module: MapLibre 6 ships modules
 * only, without a default export). The route serves this file with the `"maplibre-gl"` specifier
 * replaced by MapLibre's served path; type checking reads the npm package's types.
 *
 * The page names the layers (in the switcher's order), their labels and the attribution; the
 * script reads them from it, so the server's tables stay their one source. Popups are built with
 * DOM nodes and textContent: tag values are data, never HTML.
 *
 * For tests and tools it sets `window.map` (the MapLibre map), `window.mapReady` (features loaded
 * per layer, after the first `idle`) or `window.mapError` (why loading failed).
 */
import { Map, NavigationControl, Popup, ScaleControl } from "maplibre-gl";

/**
 * @typedef {import("maplibre-gl").StyleSpecification} StyleSpecification
 * @typedef {import("maplibre-gl").LngLatBoundsLike} LngLatBoundsLike
 * @typedef {Extract<import("maplibre-gl").GeoJSONSourceSpecification["data"], { type: "FeatureCollection" }>} FeatureCollection
 * @typedef {{ path: string, name?: string | null, bbox?: unknown }} RegionDetail
 * @typedef {{ map?: Map, mapReady?: Record<string, number>, mapError?: string }} PageGlobals
 */

const switches = /** @type {HTMLInputElement[]} */ ([
  ...document.querySelectorAll("#layers input[data-layer]"),
]);
const LAYERS = switches.map((box) => /** @type {string} */ (box.dataset.layer));
// A switch's label is its layer's name until the count is filled in.
/** @type {Record<string, string>} */
const LABELS = Object.fromEntries(
  switches.map((box) => [box.dataset.layer, box.parentElement?.textContent?.trim()]),
);
const ATTRIBUTION = /** @type {Element} */ (document.querySelector(".attribution a")).outerHTML;
// The map layers drawing each data layer, and which of them answer clicks (top first).
/** @type {Record<string, string[]>} */
const DRAWN = {
  districts: ["districts-fill", "districts-line"],
  communes: ["communes-fill", "communes-line"],
  power_lines: ["power_lines"],
  substations: ["substations"],
  power_plants: ["power_plants"],
};
const CLICKABLE = ["power_plants", "substations", "power_lines", "communes-fill", "districts-fill"];
// Properties worth showing first, per layer; other tags follow.
/** @type {Record<string, string[]>} */
const KEY_PROPERTIES = {
  substations: ["power", "voltage_kv", "operator"],
  power_plants: ["source", "output_mw", "power", "operator"],
  power_lines: ["power", "voltage_kv", "circuits", "cables", "operator"],
  communes: ["admin_level", "area_m2"],
  districts: ["admin_level", "area_m2"],
};
const MAX_TAGS = 8;

const page = /** @type {PageGlobals} */ (globalThis);
const status = /** @type {HTMLElement} */ (document.getElementById("status"));
const tiles = document.body.dataset.tiles;
/** @type {StyleSpecification} */
const style = {
  version: 8,
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#eef0f2" } }],
};
if (tiles) {
  style.sources.osm = {
    type: "raster",
    tiles: [tiles],
    tileSize: 256,
    maxzoom: 19,
    attribution: ATTRIBUTION,
  };
  style.layers.push({ id: "osm-tiles", type: "raster", source: "osm" });
}
const map = new Map({
  container: "map",
  style,
  center: [10, 47],
  zoom: 3,
  attributionControl: { compact: false, customAttribution: ATTRIBUTION },
});
page.map = map;
map.addControl(new NavigationControl(), "top-left");
map.addControl(new ScaleControl(), "bottom-left");

/**
 * @param {string} text
 * @param {boolean} [isError]
 */
function setStatus(text, isError) {
  status.textContent = text;
  status.classList.toggle("error", Boolean(isError));
}

/**
 * @param {URL} url
 * @returns {Promise<any>}
 */
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

/** @param {Record<string, FeatureCollection>} collections */
function addLayers(collections) {
  for (const layer of LAYERS) {
    map.addSource(layer, { type: "geojson", data: collections[layer], attribution: ATTRIBUTION });
  }
  map.addLayer({
    id: "districts-fill",
    type: "fill",
    source: "districts",
    paint: { "fill-color": "#6a4c93", "fill-opacity": 0.04 },
  });
  map.addLayer({
    id: "districts-line",
    type: "line",
    source: "districts",
    paint: { "line-color": "#6a4c93", "line-width": 2.5, "line-dasharray": [3, 2] },
  });
  map.addLayer({
    id: "communes-fill",
    type: "fill",
    source: "communes",
    paint: { "fill-color": "#f4a261", "fill-opacity": 0.2 },
  });
  map.addLayer({
    id: "communes-line",
    type: "line",
    source: "communes",
    paint: { "line-color": "#e76f51", "line-width": 1 },
  });
  map.addLayer({
    id: "power_lines",
    type: "line",
    source: "power_lines",
    layout: { "line-cap": "round", "line-join": "round" },
    paint: {
      "line-color": "#d62828",
      "line-width": ["interpolate", ["linear"], ["zoom"], 8, 1.5, 14, 4],
    },
  });
  map.addLayer({
    id: "substations",
    type: "circle",
    source: "substations",
    paint: {
      "circle-color": "#1f3b8c",
      "circle-radius": 6,
      "circle-stroke-color": "#ffffff",
      "circle-stroke-width": 1.5,
    },
  });
  map.addLayer({
    id: "power_plants",
    type: "circle",
    source: "power_plants",
    paint: {
      "circle-color": [
        "match",
        ["get", "source"],
        "hydro",
        "#277da1",
        "solar",
        "#f9c74f",
        "wind",
        "#90be6d",
        "biomass",
        "#6a994e",
        "gas",
        "#f3722c",
        "#2a9d8f",
      ],
      "circle-radius": 4.5,
      "circle-stroke-color": "#ffffff",
      "circle-stroke-width": 1,
    },
  });
}

function setupSwitcher() {
  for (const box of switches) {
    box.addEventListener("change", () => {
      const visibility = box.checked ? "visible" : "none";
      for (const id of DRAWN[box.dataset.layer ?? ""] ?? []) {
        map.setLayoutProperty(id, "visibility", visibility);
      }
    });
  }
}

/**
 * MapLibre hands nested properties back as JSON text; take either form.
 * @param {unknown} value
 * @returns {any}
 */
function parsed(value) {
  if (typeof value !== "string" || !/^[[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * @param {string} key
 * @param {unknown} value
 */
function shown(key, value) {
  const v = parsed(value);
  if (Array.isArray(v)) return v.join(", ") + (key === "voltage_kv" ? " kV" : "");
  if (key === "voltage_kv") return v + " kV";
  if (key === "output_mw") return v + " MW";
  if (key === "area_m2" && typeof v === "number") return (v / 1e6).toFixed(2) + " km²";
  return String(v);
}

/**
 * @param {string} layer
 * @param {Record<string, any>} properties
 */
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

/**
 * @param {unknown} b
 * @returns {b is [number, number, number, number]}
 */
function isBox(b) {
  return Array.isArray(b) && b.length === 4;
}

async function load() {
  await map.once("load");
  const regions = await getJson(new URL("../regions", import.meta.url));
  /** @type {RegionDetail[]} */
  const details = regions.details ?? [];
  /** @type {Record<string, FeatureCollection>} */
  const collections = {};
  await Promise.all(LAYERS.map(async (layer) => {
    /** @type {FeatureCollection[]} */
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
  /** @type {Record<string, number>} */
  const counts = {};
  for (const layer of LAYERS) {
    counts[layer] = /** @type {FeatureCollection} */ (collections[layer]).features.length;
    const count = /** @type {Element} */ (document.querySelector('[data-count="' + layer + '"]'));
    count.textContent = "(" + counts[layer] + ")";
  }
  /** @type {[number, number, number, number][]} */
  const boxes = details.map((region) => region.bbox).filter(isBox);
  if (boxes.length > 0) {
    /** @type {LngLatBoundsLike} */
    const bounds = [
      [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1]))],
      [Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))],
    ];
    map.fitBounds(bounds, { padding: 40, animate: false });
  }
  setStatus(
    details.length === 0
      ? "No region imported yet: download one (POST /api/osm/download) or run deno task geo-import."
      : details.map((region) => region.name ?? region.path).join(", "),
  );
  await map.once("idle");
  page.mapReady = counts;
}

load().catch((error) => {
  page.mapError = error.message;
  setStatus("Cannot load the map: " + error.message, true);
  console.error(error);
});
