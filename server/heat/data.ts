/** `/api/v1/data/{code}`: the full parameter set of one variant. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { toTabulaData } from "../../lib/heat/parameters/parameters.ts";
import { createOpenAPIApp, errorResponse, FORBIDDEN_RESPONSE } from "../middleware/errors.ts";
import { codeParamsSchema, variantOf } from "./code.ts";
import type { HeatDeps } from "./deps.ts";

const groupsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

const dataResponseSchema = z
  .object({
    country: z.string().describe("Country name"),
    variant_code: z.string().describe("The requested code"),
    expected_q_h_nd: z.number().optional().describe(
      "Reference q_h_nd of the dataset for this variant, kWh/(m2.a), where one exists",
    ),
    tabula_data: z
      .object({ BasicParameters: groupsSchema, AdvancedParameters: groupsSchema })
      .describe("Full parameter set by group; `/api/v1/fields` describes every member"),
  })
  .openapi("DataResponse");

const route = createRoute({
  method: "get",
  path: "/{code}",
  summary: "Parameter set of a variant",
  request: { params: codeParamsSchema },
  responses: {
    200: {
      description: "The variant's inputs",
      content: { "application/json": { schema: dataResponseSchema } },
    },
    400: errorResponse("Malformed code or unknown country"),
    404: errorResponse("Variant code not found"),
    403: FORBIDDEN_RESPONSE,
  },
});

/** The data route, to mount at `/api/v1/data`. */
export function dataRoutes({ typology }: HeatDeps): OpenAPIHono {
  const app = createOpenAPIApp();
  app.openapi(route, (c) => {
    const { code } = c.req.valid("param");
    const { country, row } = variantOf(typology, code);
    const expected = typology.reference(code)?.["q_h_nd"];
    return c.json({
      country: country.name,
      variant_code: code,
      ...(typeof expected === "number" && Number.isFinite(expected)
        ? { expected_q_h_nd: expected }
        : {}),
      tabula_data: toTabulaData(row),
    }, 200);
  });
  return app;
}
