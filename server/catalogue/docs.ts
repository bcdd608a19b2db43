/**
 * The catalogue's interactive docs over `/openapi.json`: Swagger UI at `/docs` and Redoc at
 * `/redoc`, their assets served from the `swagger-ui-dist` and `redoc` packages (no CDN).
 */
import { Hono } from "hono";
import { SECURITY_HEADERS, swaggerUiRoutes } from "../gateway/docs.ts";

/** Path of the Swagger UI page. */
export const SWAGGER_PATH = "/docs";
/** Path of the Redoc page; its script lives below it. */
export const REDOC_PATH = "/redoc";

const TITLE = "Technology catalogue service API";

/** Redoc reads `openapi.json` beside the page; no inline script, no fonts from elsewhere. */
const REDOC_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLE}</title>
</head>
<body>
<redoc spec-url="openapi.json"></redoc>
<script src="redoc/redoc.standalone.js"></script>
</body>
</html>
`;

let bundle: Promise<Uint8Array<ArrayBuffer>> | undefined;

/** The standalone Redoc bundle of the `redoc` package, read once. */
function redocBundle(): Promise<Uint8Array<ArrayBuffer>> {
  bundle ??= Deno.readFile(new URL(import.meta.resolve("redoc/bundles/redoc.standalone.js")));
  return bundle;
}

/** The two docs pages and their assets. */
export function docsRoutes(): Hono {
  const app = new Hono();
  app.route("/", swaggerUiRoutes({ path: SWAGGER_PATH, title: TITLE }));
  app.get(REDOC_PATH, (c) => c.html(REDOC_PAGE, 200, SECURITY_HEADERS));
  app.get(`${REDOC_PATH}/redoc.standalone.js`, async (c) =>
    c.body(await redocBundle(), 200, {
      ...SECURITY_HEADERS,
      "Cache-Control": "public, max-age=86400",
      "Content-Type": "text/javascript; charset=utf-8",
    }));
  return app;
}
