/**
 * The building-data extraction service: runs that extract the buildings of a box from the
 * imported OSM footprints (surfaces, heat link), the coverage of completed runs, the buildings
 * and their footprints. Every route is under `/api/v1`; `/api/v1/openapi.json` and
 * `/api/v1/docs` describe them. No CORS headers (trusted callers on the same machine only),
 * errors `{ error, details? }`, bodies over 1 MiB 413.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ExtractionRuns } from "../../lib/extraction/extraction_runs.ts";
import type { RunStore } from "../../lib/extraction/run_store.ts";
import type { Store } from "../../lib/store/store.ts";
import { swaggerUiRoutes } from "../middleware/docs.ts";
import { createOpenAPIApp } from "../middleware/errors.ts";
import { limitQuery } from "../middleware/query.ts";
import { buildingRoutes } from "./building_routes.ts";
import { coverageRoutes } from "./coverage_routes.ts";
import { geometryRoutes } from "./geometry_routes.ts";
import { runRoutes } from "./run_routes.ts";
import { healthSchema, jsonOf, MAX_GEOMETRY_FEATURES } from "./schemas.ts";

/** Version of the interface, shown by `/api/v1/health` and the OpenAPI document. */
export const EXTRACTION_VERSION = "1.0.0";

/** Prefix of every route. */
export const API_PREFIX = "/api/v1";

/**
 * Longest query value, characters: `GET /geometry?ids=` takes up to MAX_GEOMETRY_FEATURES ids
 * of up to about 24 characters each, percent-encoded ("relation%2F1234567890%2C"), which the
 * shared 256-character bound of createServiceApp would refuse.
 */
export const MAX_QUERY_VALUE_CHARS = MAX_GEOMETRY_FEATURES * 26;

/** Longest query string, characters (the ids value and a few short parameters). */
export const MAX_QUERY_CHARS = MAX_QUERY_VALUE_CHARS + 4096;

/** What the app is built from. */
export interface ExtractionAppDeps {
  runs: RunStore;
  manager: ExtractionRuns;
  /** The OSM store with the footprints (`buildings`). */
  osmStore: Store;
}

/** Builds the extraction service's app. */
export function createExtractionApp(deps: ExtractionAppDeps): OpenAPIHono {
  // createOpenAPIApp and not createServiceApp: the same error format and JSON 404, with query
  // bounds wide enough for an ids list (createServiceApp's are fixed at 256 characters).
  const app = createOpenAPIApp({ details: true });
  app.use("*", limitQuery(MAX_QUERY_VALUE_CHARS, MAX_QUERY_CHARS));
  const api = createOpenAPIApp({ details: true });
  api.openAPIRegistry.registerPath({
    method: "get",
    path: "/health",
    tags: ["Service"],
    summary: "Liveness and the runs in progress",
    responses: { 200: jsonOf("The service runs", healthSchema) },
  });
  api.get("/health", (c) =>
    c.json({
      status: "ok" as const,
      version: EXTRACTION_VERSION,
      runs: deps.manager.counts(),
    }));
  runRoutes(api, { runs: deps.runs, manager: deps.manager });
  coverageRoutes(api, { runs: deps.runs });
  buildingRoutes(api, { runs: deps.runs });
  geometryRoutes(api, { osmStore: deps.osmStore });
  app.route(API_PREFIX, api);
  app.route(API_PREFIX, swaggerUiRoutes({ path: "/docs", title: "Building-data extraction API" }));
  app.doc(`${API_PREFIX}/openapi.json`, {
    openapi: "3.0.3",
    info: {
      title: "Building-data extraction",
      version: EXTRACTION_VERSION,
      description: "Extract the buildings of a box from imported OpenStreetMap footprints: " +
        "surfaces with area, azimuth (outward normal, degrees clockwise from north, null for " +
        "horizontal surfaces) and tilt (0 = vertical wall, 90 = flat roof and floor, 90 - " +
        "pitch for a pitched plane), and each building's link to the heating demand (TABULA " +
        "variant and q_h_nd). Errors: `{ error, details? }`; bodies over 1 MiB: 413. No " +
        "authentication and no CORS: for trusted callers only. Data © OpenStreetMap " +
        "contributors, ODbL 1.0.",
    },
  });
  return app;
}
