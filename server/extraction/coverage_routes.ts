/** `GET /coverage`: which completed runs already cover a box, relative to `/api/v1`. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { RunStore } from "../../lib/extraction/run_store.ts";
import { runView } from "./run_routes.ts";
import { boxQuerySchema, coverageSchema, errorOf, jsonOf } from "./schemas.ts";

const coverageRoute = createRoute({
  method: "get",
  path: "/coverage",
  tags: ["Data"],
  summary: "Which completed runs cover a box",
  description: "The completed runs of the country whose box intersects the query box, and the " +
    "exact share of the query box covered by the union of their boxes; `covered` when that " +
    "share is 1 (within 1e-9).",
  request: { query: boxQuerySchema },
  responses: {
    200: jsonOf("The coverage", coverageSchema),
    400: errorOf("A parameter missing or at fault (named), or min not below max"),
  },
});

/** Mounts the coverage route on `api`. */
export function coverageRoutes(api: OpenAPIHono, deps: { runs: RunStore }): void {
  api.openapi(coverageRoute, async (c) => {
    const { country, xmin, ymin, xmax, ymax } = c.req.valid("query");
    const found = await deps.runs.coverage(country, [xmin, ymin, xmax, ymax]);
    return c.json({ ...found, runs: found.runs.map(runView) }, 200);
  });
}
