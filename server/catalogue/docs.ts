/**
 * The catalogue's interactive docs over `/openapi.json`: Swagger UI at `/docs` and Redoc at
 * `/redoc`, both public like the document itself.
 */
import { Hono } from "hono";
import { redocRoutes, swaggerUiRoutes } from "../middleware/docs.ts";

/** Path of the Swagger UI page. */
export const SWAGGER_PATH = "/docs";
/** Path of the Redoc page; its script lives below it. */
export const REDOC_PATH = "/redoc";

const TITLE = "Technology catalogue service API";

/** The two docs pages and their assets. */
export function docsRoutes(): Hono {
  const app = new Hono();
  app.route("/", swaggerUiRoutes({ path: SWAGGER_PATH, title: TITLE }));
  app.route("/", redocRoutes({ path: REDOC_PATH, title: TITLE }));
  return app;
}
