/**
 * The modelling backend as a module. It owns its state file (BACKEND_STATE_PATH: models, jobs,
 * run history), held open read-write while the service runs. A stop ends the unfinished jobs
 * (failed, `interrupted by restart`, cancelled on the runner), writes their last log lines,
 * then checkpoints and closes the store. The map routes work on the process's shared OSM store
 * (`context.osmStore()`, OSM_STORE_PATH), which the process opens and closes.
 */
import { dirname, join } from "node:path";
import { openStore } from "../../lib/store/store.ts";
import { createTemplateLibrary } from "../../lib/templates/template_library.ts";
import type { ServiceModule } from "../service_module.ts";
import { createBackendApp } from "./app.ts";
import { peerUrls, readBackendSettings } from "./config.ts";
import { backendOwnOrigins } from "./backend_cors.ts";
import { checkPeers } from "./peer_check.ts";
import { TEMPLATE_ROUTES_BASE, templateRoutes } from "./template_routes.ts";
import { catalogueProxy } from "./catalogue_proxy.ts";
import { readGeoSettings } from "./map/geo_config.ts";
import { geoRoutes } from "./map/osm_routes.ts";
import { openOsmService } from "./map/osm_service.ts";
import { osmMapRoutes } from "./map/osm_map_routes.ts";
import { osmDownloadRoutes, regionDownloadLimits } from "./map/osm_download_routes.ts";
import { osmLayerRoutes } from "./map/osm_layer_routes.ts";
import { announceRegionImported } from "./map/osm_context.ts";
import { createRegionDownloads } from "../../lib/osm/download/region_download.ts";

/** The modelling backend (BACKEND_PORT, default 8082). */
export const backendModule: ServiceModule = {
  name: "backend",
  configure(env) {
    const settings = readBackendSettings(env);
    const geoSettings = readGeoSettings(env);
    return {
      port: settings.port,
      async start(context) {
        await Deno.mkdir(dirname(settings.statePath), { recursive: true });
        // RUNNER_URL / CATALOGUE_URL unset: the runner and catalogue of this process, if any.
        const peers = peerUrls(settings, (name) => context.peerUrl?.(name));
        const urls = { ...settings, ...peers };
        // The catalogue's current values over the built-in defaults; offline, the defaults.
        const templates = await createTemplateLibrary({
          catalogueUrl: urls.catalogueUrl,
          log: context.log,
        });
        // Started in one process with the catalogue, the backend starts before the catalogue
        // listens: merge its values once more shortly after the start.
        const retry = setTimeout(() => void templates.refresh().catch(() => {}), 3000);
        Deno.unrefTimer(retry);
        context.shutdown.addEventListener("abort", () => clearTimeout(retry), { once: true });
        const osm = await openOsmService(geoSettings, await context.osmStore(), {
          shutdown: context.shutdown,
        });
        // Extracts download beside the OSM store (each file removed when its import ends).
        const downloadDir = osm.context.store.path === ":memory:"
          ? await Deno.makeTempDir({ prefix: "osm_downloads" })
          : join(dirname(osm.context.store.path), "osm_downloads");
        await Deno.mkdir(downloadDir, { recursive: true });
        const downloads = createRegionDownloads({
          store: osm.context.store,
          fetch: osm.context.fetch,
          downloadDir,
          onImported: (path) => announceRegionImported(osm.context, path),
          signal: context.shutdown,
          log: context.log,
          ...regionDownloadLimits(geoSettings),
        });
        // Downloads an earlier process left running read as failed; finished ones stay readable.
        await downloads.restore();
        const state = await openStore(settings.statePath);
        let backend;
        try {
          backend = await createBackendApp({
            store: state,
            config: urls,
            ownOrigins: backendOwnOrigins(
              context.address?.port ?? settings.port,
              settings.publicOrigins,
            ),
            shutdown: context.shutdown,
            log: context.log,
            templates,
            extraRoutes(app) {
              app.route(TEMPLATE_ROUTES_BASE, templateRoutes(templates));
              // The map page, regions-db and downloads before `/api/osm/{layer}`, which would
              // take `map` for a layer name.
              app.route("/", geoRoutes(osm.geo));
              app.route("/", osmMapRoutes());
              app.route("/", osmDownloadRoutes(osm.context, { downloadDir, downloads }));
              app.route("/", osmLayerRoutes(osm.context, { log: context.log }));
              app.route(
                "/",
                catalogueProxy({
                  catalogueUrl: urls.catalogueUrl,
                  maxBodyBytes: settings.maxBodyBytes,
                }),
              );
            },
          });
        } catch (error) {
          await state.close();
          await downloads.close();
          throw error;
        }
        if (backend.interrupted > 0) {
          context.log(
            `${backend.interrupted} job(s) left unfinished: failed, interrupted by restart`,
          );
        }
        const from = { set: "as set", process: "of this process", default: "default" } as const;
        context.log(
          `runner ${urls.runnerUrl} (${from[peers.sources.runner]}), ` +
            `catalogue ${urls.catalogueUrl} (${from[peers.sources.catalogue]})`,
        );
        // Once every service of the process listens: say once if a neighbour does not answer.
        const checked = (context.ready ?? Promise.resolve()).then(() =>
          checkPeers([
            {
              name: "runner",
              url: urls.runnerUrl,
              variable: "RUNNER_URL",
              consequence: "model runs fail",
            },
            {
              name: "catalogue",
              url: urls.catalogueUrl,
              variable: "CATALOGUE_URL",
              consequence: "/tech/* answers 502 and templates use built-in values",
            },
          ], { log: context.log, signal: context.shutdown }), () => {});
        // Streams of running jobs end when their jobs end: at once when the stop begins.
        context.shutdown.addEventListener("abort", () => void backend.close(), { once: true });
        const { app } = backend;
        return {
          fetch: (request, info) => app.fetch(request, info),
          async close() {
            await checked;
            await backend.close();
            // A running import commits first: the shared OSM store closes after this.
            await downloads.close();
            await state.close();
          },
        };
      },
    };
  },
};
