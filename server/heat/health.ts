/** `/heat/health`: answers while the server runs, without touching the database. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { createOpenAPIApp, FORBIDDEN_RESPONSE } from "../middleware/errors.ts";

const route = createRoute({
  method: "get",
  path: "/health",
  summary: "Liveness",
  responses: {
    200: {
      description: "The server runs",
      content: {
        "application/json": {
          schema: z.object({ status: z.string() }).openapi("HealthResponse"),
        },
      },
    },
    403: FORBIDDEN_RESPONSE,
  },
});

/** The health route, to mount at `/heat`. */
export function healthRoutes(): OpenAPIHono {
  const app = createOpenAPIApp();
  app.openapi(route, (c) => c.json({ status: "ok" }, 200));
  return app;
}
