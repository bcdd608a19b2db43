/** `/api/v1/fields`: unit, group, path and descriptions of every parameter-set member. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { fieldMetadata, fieldMetadataSchema } from "../../lib/heat/parameters/parameters.ts";
import { createOpenAPIApp, FORBIDDEN_RESPONSE } from "../middleware/errors.ts";

const route = createRoute({
  method: "get",
  path: "/",
  summary: "Metadata of the parameter-set fields",
  description: "Static: identical for every country. Numeric fields carry the range of their " +
    "data values (`minimum`, `maximum`); fields a calculation may replace carry the request " +
    "member and its bounds (`override`).",
  responses: {
    200: {
      description: "One entry per field of `tabula_data`",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(fieldMetadataSchema) }).openapi("FieldsResponse"),
        },
      },
    },
    403: FORBIDDEN_RESPONSE,
  },
});

/** The fields route, to mount at `/api/v1/fields`. */
export function fieldRoutes(): OpenAPIHono {
  const app = createOpenAPIApp();
  const body = { data: fieldMetadata() };
  app.openapi(route, (c) => c.json(body, 200));
  return app;
}
