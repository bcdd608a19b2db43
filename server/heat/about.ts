/** `/heat/about`: the data's attribution and licence, the method and the data set's size. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { METHOD, TABULA_ATTRIBUTION } from "../../lib/heat/tabula/attribution.ts";
import { createOpenAPIApp, FORBIDDEN_RESPONSE } from "../middleware/errors.ts";
import type { HeatDeps } from "./deps.ts";

const aboutSchema = z.object({
  service: z.string(),
  version: z.string(),
  method: z.string(),
  data: z.object({
    name: z.string(),
    attribution: z.string(),
    publisher: z.string(),
    licence: z.string(),
    licence_url: z.string(),
    website: z.string(),
    sources: z.array(z.string()),
    countries: z.number().int(),
    variants: z.number().int(),
    references: z.number().int(),
  }),
}).openapi("AboutResponse");

const route = createRoute({
  method: "get",
  path: "/about",
  summary: "Data attribution, licence and method",
  responses: {
    200: {
      description: "About the service",
      content: { "application/json": { schema: aboutSchema } },
    },
    403: FORBIDDEN_RESPONSE,
  },
});

/** The about route, to mount at `/heat`. */
export function aboutRoutes({ typology }: HeatDeps): OpenAPIHono {
  const app = createOpenAPIApp();
  const variants = typology.allVariants();
  const body = {
    service: "heat",
    version: "1.0.0",
    method: METHOD,
    data: {
      ...TABULA_ATTRIBUTION,
      sources: [...TABULA_ATTRIBUTION.sources],
      countries: typology.countries().length,
      variants: variants.length,
      references: variants.filter((v) => typology.reference(String(v.Code_BuildingVariant)))
        .length,
    },
  };
  app.openapi(route, (c) => c.json(body, 200));
  return app;
}
