/**
 * The heat service's interactive API docs: a Swagger UI page at `/heat/docs` over
 * `/heat/openapi.json`. "Try it out" calls need the key entered through the page's Authorize
 * button (the document declares the `X-Api-Key` scheme); the gateway checks access first.
 */
import type { Hono } from "hono";
import { swaggerUiRoutes } from "../middleware/docs.ts";

/** Path of the docs page; its assets live below it. */
export const DOCS_PATH = "/heat/docs";

/** The heat docs page and its assets; the gateway checks access before these run. */
export function docsRoutes(): Hono {
  return swaggerUiRoutes({ path: DOCS_PATH, title: "Heating demand service API" });
}
