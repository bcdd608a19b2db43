import assert from "node:assert/strict";
import { LAYER_NAMES, type LayerName } from "../../../../lib/osm/osm_store.ts";
import {
  isTileUrlTemplate,
  MAPLIBRE_VERSION,
  OSM_ATTRIBUTION_TEXT,
  OSM_COPYRIGHT_URL,
  osmMapRoutes,
} from "../../../../server/backend/map/osm_map_routes.ts";
import { withBrowser } from "../../../_browser.ts";
import { backendModule } from "../../../../server/backend/module.ts";
import type { RunningService } from "../../../../server/service_module.ts";
import { readOsmStoreSettings } from "../../../../server/osm_store_settings.ts";
import { openSharedOsmStore } from "../../../../server/shared_osm_store.ts";

const ASSETS = `/api/osm/map/maplibre-${MAPLIBRE_VERSION}`;

/** Feature counts of the Liechtenstein cross-check layers. */
const EXPECTED: Record<LayerName, number> = {
  substations: 5,
  power_plants: 161,
  power_lines: 15,
  communes: 11,
  districts: 2,
};

/**
 * The whole backend service on a temporary state, its OSM store seeded with the shipped
 * Liechtenstein extract, served on a free port: the page, the data routes and their mount order
 * as `deno task start` has them.
 */
async function serveBackend(dir: string) {
  const shutdown = new AbortController();
  const osm = await openSharedOsmStore(
    readOsmStoreSettings({ OSM_STORE_PATH: `${dir}/osm.duckdb` }),
    () => {},
  );
  await osm.seeded;
  // Bound first, as server/main.ts does: the page's module scripts carry an Origin that the
  // backend allows by the port it listens on.
  const running = Promise.withResolvers<RunningService>();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request, info) => (await running.promise).fetch(request, info),
  );
  const service = await backendModule.configure({
    BACKEND_PORT: "0",
    BACKEND_STATE_PATH: `${dir}/backend.duckdb`,
    CATALOGUE_URL: "http://127.0.0.1:9",
    OVERPASS_URL: "http://127.0.0.1:9",
    NOMINATIM_URL: "http://127.0.0.1:9",
  }).start({
    shutdown: shutdown.signal,
    dataStore: () => Promise.reject(new Error("not used")),
    osmStore: () => Promise.resolve(osm),
    log: () => {},
    address: server.addr,
  });
  running.resolve(service);
  return {
    port: server.addr.port,
    async close() {
      shutdown.abort();
      await server.shutdown();
      await service.close();
      await osm.close();
    },
  };
}

Deno.test("GET /api/osm/map serves a self-contained page with the ODbL attribution", async () => {
  const app = osmMapRoutes();
  const response = await app.request("/api/osm/map");
  assert.equal(response.status, 200);
  assert.match(response.headers.get("Content-Type") ?? "", /^text\/html/);
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  assert.match(csp, /script-src 'self'(;|$)/);
  const html = await response.text();
  assert.ok(html.includes(OSM_ATTRIBUTION_TEXT));
  assert.ok(html.includes(`href="${OSM_COPYRIGHT_URL}"`));
  const tags = [...html.matchAll(/<(script|link)\b[^>]*>/g)].map((m) => m[0]);
  assert.ok(tags.length >= 3, "the page loads its script and styles");
  for (const tag of tags) {
    const url = tag.match(/\b(?:src|href)="([^"]*)"/)?.[1] ?? "";
    assert.doesNotMatch(url, /^(https?:)?\/\//, `no outside URL in ${tag}`);
  }
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
  for (const layer of LAYER_NAMES) assert.ok(html.includes(`data-layer="${layer}"`), layer);
  assert.ok(!html.includes("data-tiles"), "a plain background unless tiles are configured");
});

Deno.test("GET /api/osm/map takes a raster tile template from the options or ?tiles=", async (t) => {
  const template = "https://tile.example.org/{z}/{x}/{y}.png";
  await t.step("from the options", async () => {
    const response = await osmMapRoutes({ tileUrl: template }).request("/api/osm/map");
    const html = await response.text();
    assert.ok(html.includes(`data-tiles="${template}"`));
    assert.match(
      response.headers.get("Content-Security-Policy") ?? "",
      /https:\/\/tile\.example\.org/,
    );
  });
  await t.step("from ?tiles=", async () => {
    const query = `?tiles=${encodeURIComponent(template)}`;
    const response = await osmMapRoutes().request(`/api/osm/map${query}`);
    assert.equal(response.status, 200);
    assert.ok((await response.text()).includes(`data-tiles="${template}"`));
  });
  await t.step("a bad template is 400 naming the parameter", async () => {
    const query = `?tiles=${encodeURIComponent('javascript:alert("{z}{x}{y}")')}`;
    const response = await osmMapRoutes().request(`/api/osm/map${query}`);
    assert.equal(response.status, 400);
    assert.match(JSON.stringify(await response.json()), /tiles/);
  });
  await t.step("a bad configured template throws", () => {
    assert.throws(() => osmMapRoutes({ tileUrl: "ftp://x/{z}/{x}/{y}" }), TypeError);
  });
  await t.step("isTileUrlTemplate()", () => {
    assert.equal(isTileUrlTemplate(template), true);
    assert.equal(isTileUrlTemplate("https://tile.example.org/{z}/{x}.png"), false);
    assert.equal(isTileUrlTemplate("{z}{x}{y}"), false);
  });
});

Deno.test("osmMapRoutes() serves the page's assets with types and cache headers", async (t) => {
  const app = osmMapRoutes();
  const cases: [string, RegExp, RegExp][] = [
    ["/api/osm/map/map.js", /^text\/javascript/, /no-cache/],
    ["/api/osm/map/map.css", /^text\/css/, /no-cache/],
    [`${ASSETS}/maplibre-gl.mjs`, /^text\/javascript/, /immutable/],
    [`${ASSETS}/maplibre-gl-worker.mjs`, /^text\/javascript/, /immutable/],
    [`${ASSETS}/maplibre-gl.css`, /^text\/css/, /immutable/],
  ];
  for (const [path, type, cache] of cases) {
    await t.step(path, async () => {
      const response = await app.request(path);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("Content-Type") ?? "", type);
      assert.match(response.headers.get("Cache-Control") ?? "", cache);
      assert.ok((await response.arrayBuffer()).byteLength > 0);
    });
  }
  await t.step("other files of the package are 404", async () => {
    const response = await app.request(`${ASSETS}/package.json`);
    assert.equal(response.status, 404);
    assert.ok((await response.json()).error);
  });
  await t.step("MAPLIBRE_VERSION is the installed package's", async () => {
    const pkg = new URL(import.meta.resolve("maplibre-gl/package.json"));
    assert.equal(JSON.parse(await Deno.readTextFile(pkg)).version, MAPLIBRE_VERSION);
  });
  await t.step("the page script imports MapLibre by its served path", async () => {
    const script = await (await app.request("/api/osm/map/map.js")).text();
    assert.ok(script.includes(`"./maplibre-${MAPLIBRE_VERSION}/maplibre-gl.mjs"`));
  });
});

Deno.test({
  name: "GET /api/osm/map draws Liechtenstein's layers in headless Chromium",
  async fn() {
    const dir = await Deno.makeTempDir();
    const server = await serveBackend(dir);
    try {
      await withBrowser(async (browser) => {
        const page = await browser.newPage();
        await page.navigate(`http://127.0.0.1:${server.port}/api/osm/map`);
        const ready = await page.waitFor<Record<string, number> | undefined>(
          "window.mapError ? Promise.reject(new Error(window.mapError)) : window.mapReady",
          30_000,
        );
        assert.deepEqual(ready, EXPECTED);

        const rendered = await page.evaluate<Record<string, number>>(`(() => {
          const ids = ["communes-fill", "districts-line", "power_plants", "substations",
            "power_lines"];
          return Object.fromEntries(ids.map((id) =>
            [id, window.map.queryRenderedFeatures({ layers: [id] }).length]));
        })()`);
        assert.ok(rendered["communes-fill"]! > 0, `communes drawn: ${JSON.stringify(rendered)}`);
        assert.ok(rendered["power_plants"]! > 0, `plants drawn: ${JSON.stringify(rendered)}`);

        const attribution = await page.evaluate<string>(
          `document.querySelector(".maplibregl-ctrl-attrib").textContent`,
        );
        assert.ok(attribution.includes(OSM_ATTRIBUTION_TEXT), attribution);

        // Click a drawn plant with real mouse events (one not under the panel); the popup
        // names the feature under the pointer.
        const target = await page.evaluate<{ x: number; y: number; ids: string[] } | null>(`(() => {
          const map = window.map;
          const canvas = map.getCanvas();
          const box = canvas.getBoundingClientRect();
          for (const plant of map.queryRenderedFeatures({ layers: ["power_plants"] })) {
            const point = map.project(plant.geometry.coordinates);
            const x = box.left + point.x, y = box.top + point.y;
            if (document.elementFromPoint(x, y) !== canvas) continue;
            const under = map.queryRenderedFeatures(point, { layers: ["power_plants"] });
            if (under.length > 0) return { x, y, ids: under.map((f) => f.properties.osm_id) };
          }
          return null;
        })()`);
        assert.ok(target, "a drawn plant is in view, not under the panel");
        await page.click(target.x, target.y);
        const popup = await page.waitFor<string>(
          `document.querySelector(".maplibregl-popup-content")?.textContent`,
          5_000,
        );
        assert.ok(
          target.ids.some((id) => popup.includes(id)),
          `popup "${popup}" names one of ${target.ids.join(", ")}`,
        );

        // The layer switcher hides a layer's drawing.
        await page.evaluate(`(() => {
          const box = document.querySelector('input[data-layer="power_plants"]');
          box.click();
        })()`);
        const visibility = await page.evaluate<string>(
          `window.map.getLayoutProperty("power_plants", "visibility")`,
        );
        assert.equal(visibility, "none");

        assert.deepEqual(page.errors(), []);

        // The check above means something: a page's console errors and failed requests show.
        const other = await browser.newPage();
        await other.navigate(`http://127.0.0.1:${server.port}/api/osm/no_such_layer`);
        await other.evaluate(`console.error("deliberate"); true`);
        const problems = other.errors().map((p) => `${p.kind}: ${p.text}`).join("\n");
        assert.match(problems, /request: 404 .*no_such_layer/);
        assert.match(problems, /console: deliberate/);
      });
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
