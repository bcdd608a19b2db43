/**
 * The heating-demand service: variant lookup, construction periods, parameter data, field
 * metadata and the calculation, with its OpenAPI document at `/heat/openapi.json`.
 *
 * It has no authentication of its own: only the gateway (`server/gateway/app.ts`) serves it.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { calculate as tabulaCalculate } from "../../lib/heat/calculation/calculate.ts";
import type { Typology } from "../../lib/heat/typology/typology.ts";
import { API_KEY_HEADER } from "../middleware/api_key.ts";
import { createServiceApp } from "../middleware/service_app.ts";
import { aboutRoutes } from "./about.ts";
import { calculateRoutes } from "./calculate.ts";
import { dataRoutes } from "./data.ts";
import type { CalculateFn, HeatDeps } from "./deps.ts";
import { fieldRoutes } from "./fields.ts";
import { healthRoutes } from "./health.ts";
import { createLookups } from "./lookups.ts";
import { periodRoutes } from "./periods.ts";
import { variantRoutes } from "./variants.ts";

export { MAX_BODY_BYTES } from "./calculate.ts";

/** Path of the OpenAPI document. */
export const OPENAPI_PATH = "/heat/openapi.json";

/** Name of the API-key security scheme in the OpenAPI document. */
export const API_KEY_SCHEME = "ApiKey";

export { API_KEY_HEADER } from "../middleware/api_key.ts";

/** What the heat app is built from; `calculate` defaults to the TABULA calculation. */
export interface HeatAppOptions {
  typology: Typology;
  calculate?: CalculateFn;
}

/** Builds the heat service app over a loaded typology. */
export function createHeatApp({ typology, calculate }: HeatAppOptions): OpenAPIHono {
  const deps: HeatDeps = { typology, calculate: calculate ?? tabulaCalculate };
  const app = createServiceApp();

  app.route("/heat", healthRoutes());
  app.route("/heat", aboutRoutes(deps));
  const lookups = createLookups(typology);
  app.route("/api/v1/variants", variantRoutes(deps, lookups));
  app.route("/api/v1/periods", periodRoutes(deps, lookups));
  app.route("/api/v1/data", dataRoutes(deps));
  app.route("/api/v1/fields", fieldRoutes());
  app.route("/api/v1/calculate", calculateRoutes(deps));

  app.openAPIRegistry.registerComponent("securitySchemes", API_KEY_SCHEME, {
    type: "apiKey",
    in: "header",
    name: API_KEY_HEADER,
    description: "Static API key checked by the gateway on every request",
  });
  app.doc(OPENAPI_PATH, {
    openapi: "3.0.3",
    info: {
      title: "Building heating demand service",
      version: "1.0.0",
      description: "Annual net heating energy demand q_h_nd (kWh/(m2.a)) of TABULA building " +
        "archetypes, by an EN ISO 13790 seasonal calculation. Every request needs the " +
        `\`${API_KEY_HEADER}\` header.`,
    },
    security: [{ [API_KEY_SCHEME]: [] }],
  });
  return app;
}
