/**
 * The fuel records of the catalogue, mounted at `/api/v1/fuels`: per fuel and source year the
 * price (USD/MWh_th) and the CO2 intensity (tCO2/MWh_th) with the source rows as given. Thermal
 * instances name their fuel in `fuel`. Everything comes from the snapshot in memory.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { type FuelRecord, fuelRecordSchema } from "../../lib/catalogue/schema/fuel_schema.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { apiError } from "./schemas.ts";

/** `FuelRecord` in the OpenAPI document (see `named()` in schemas.ts for the prototype call). */
const fuelSchema = z.ZodType.prototype.openapi.call(
  fuelRecordSchema,
  "FuelRecord",
) as typeof fuelRecordSchema;

const fuelListSchema = z.object({
  fuels: z.array(fuelSchema),
}).openapi("FuelList");

const fuelQuerySchema = z.object({
  year: z.string().regex(/^\d{4}$/, "must be a four-digit year").transform(Number).optional()
    .openapi({ type: "integer", description: "Only the records of this source year" }),
});

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Catalogue"],
  summary: "Fuel prices and CO2 intensities",
  description: "One record per fuel and source year, from the source's `fuel` and " +
    "`CO2 intensity` rows: price in USD/MWh_th (EUR × the catalogue's pinned rate), CO2 " +
    "intensity in tCO2/MWh_th, null where the source has none (`notes` says why).",
  request: { query: fuelQuerySchema },
  responses: {
    200: {
      description: "The fuel records",
      content: { "application/json": { schema: fuelListSchema } },
    },
    400: apiError("Invalid query: year"),
  },
});

const fuelRoute = createRoute({
  method: "get",
  path: "/{fuel_id}",
  tags: ["Catalogue"],
  summary: "One fuel, every source year",
  request: {
    params: z.object({
      fuel_id: z.string().openapi({ param: { name: "fuel_id", in: "path" }, example: "gas" }),
    }),
    query: fuelQuerySchema,
  },
  responses: {
    200: {
      description: "The fuel's records",
      content: { "application/json": { schema: fuelListSchema } },
    },
    400: apiError("Invalid query: year"),
    404: apiError("Unknown fuel id"),
  },
});

const ofYear = (fuels: readonly FuelRecord[], year: number | undefined) =>
  year === undefined ? [...fuels] : fuels.filter((f) => f.year === year);

/** The fuel routes, to mount at `/api/v1/fuels`. */
export function fuelRoutes({ catalogue }: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi(listRoute, (c) => {
    const { year } = c.req.valid("query");
    return c.json({ fuels: ofYear(catalogue.current().source.fuels, year) }, 200);
  });

  app.openapi(fuelRoute, (c) => {
    const { fuel_id } = c.req.valid("param");
    const { year } = c.req.valid("query");
    const records = catalogue.current().source.fuels.filter((f) => f.fuel_id === fuel_id);
    if (records.length === 0) throw httpError(404, `Fuel "${fuel_id}" not found`);
    return c.json({ fuels: ofYear(records, year) }, 200);
  });

  return app;
}
