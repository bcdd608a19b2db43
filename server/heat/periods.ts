/** `/api/v1/periods/{country_iso2}`: the construction-year bands of a country, oldest first. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { BUILDING_TYPES, OPEN_YEAR_FROM, OPEN_YEAR_TO } from "../../lib/heat/typology/periods.ts";
import { createOpenAPIApp, errorResponse, FORBIDDEN_RESPONSE } from "../middleware/errors.ts";
import { countryOf, countryParamsSchema } from "./country.ts";
import type { HeatDeps } from "./deps.ts";
import type { Lookups } from "./lookups.ts";
import { SET_RULE, setQuerySchema } from "./variant_set.ts";

const periodSchema = z
  .object({
    period: z.string().describe("Period code; the value the match endpoint's `period` takes"),
    year_from: z.number().int().describe(`First year of the band; ${OPEN_YEAR_FROM} = open-ended`),
    year_to: z.number().int().describe(`Last year of the band; ${OPEN_YEAR_TO} = open-ended`),
  })
  .openapi("ConstructionPeriod");

const periodsResponseSchema = z
  .object({
    country: z.string().describe("Country name"),
    data: z.array(periodSchema).describe("Oldest band first"),
  })
  .openapi("PeriodsResponse");

const route = createRoute({
  method: "get",
  path: "/{country_iso2}",
  summary: "Construction periods of a country",
  description: "The periods of one variant set of the country, over the building types SFH, " +
    "TH, MFH and AB, or of one `type`. " + SET_RULE,
  request: {
    params: countryParamsSchema,
    query: z.object({
      type: z.enum(BUILDING_TYPES).optional().openapi({ description: "Only this building type" }),
      set: setQuerySchema,
    }),
  },
  responses: {
    200: {
      description: "Periods, oldest first",
      content: { "application/json": { schema: periodsResponseSchema } },
    },
    400: errorResponse(
      "Unknown country or set, a country or set that does not match its pattern, invalid type",
    ),
    403: FORBIDDEN_RESPONSE,
  },
});

/** The period routes, to mount at `/api/v1/periods`. */
export function periodRoutes({ typology }: HeatDeps, lookups: Lookups): OpenAPIHono {
  const app = createOpenAPIApp();
  app.openapi(route, (c) => {
    const info = countryOf(typology, c.req.valid("param").country_iso2);
    const query = c.req.valid("query");
    const set = lookups.set(info.iso2, query.set);
    return c.json({ country: info.name, data: lookups.periods(info.iso2, set, query.type) }, 200);
  });
  return app;
}
