/**
 * Interactive API docs pages over an OpenAPI document beside them: Swagger UI and Redoc, their
 * assets served from the `swagger-ui-dist` and `redoc` packages (no CDN, no inline script).
 * Every service mounts them where its document lives; access checks stay with the service.
 */
import { Hono } from "hono";
import { jsonError } from "./errors.ts";

/**
 * The page; its URLs are relative to the page URL (`<dir>/...` for assets, `openapi.json` beside
 * the page), so the page also works below a proxy's path prefix.
 */
function swaggerPage(title: string, dir: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<title>${title}</title>
<link rel="stylesheet" href="${dir}/swagger-ui.css">
<link rel="icon" type="image/png" href="${dir}/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${dir}/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${dir}/swagger-ui-bundle.js"></script>
<script src="${dir}/init.js"></script>
</body>
</html>
`;
}

/** Starts Swagger UI; a separate file so that the page needs no inline script. */
const INIT = `window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "openapi.json",
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
  });
});
`;

/** Files taken from swagger-ui-dist, by name, with their media type. */
const PACKAGE_ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

/** Headers of the docs pages and their assets. */
export const SECURITY_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
};

const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/** Reads a file of the swagger-ui-dist package once and keeps it. */
function packageFile(name: string): Promise<Uint8Array<ArrayBuffer>> {
  let file = cache.get(name);
  if (!file) {
    file = Deno.readFile(new URL(import.meta.resolve(`swagger-ui-dist/${name}`)));
    cache.set(name, file);
  }
  return file;
}

/** Where a Swagger UI page is served and what it is called. */
export interface SwaggerUiOptions {
  /** Path of the page, e.g. `/docs`; its assets live below it, `openapi.json` beside it. */
  path: string;
  /** Title of the page. */
  title: string;
}

/** A Swagger UI page over the OpenAPI document beside it, with assets from swagger-ui-dist. */
export function swaggerUiRoutes({ path, title }: SwaggerUiOptions): Hono {
  const app = new Hono();
  const html = swaggerPage(title, path.slice(path.lastIndexOf("/") + 1));
  app.get(path, (c) => c.html(html, 200, SECURITY_HEADERS));
  app.get(
    `${path}/init.js`,
    (c) =>
      c.body(INIT, 200, { ...SECURITY_HEADERS, "Content-Type": "text/javascript; charset=utf-8" }),
  );
  app.get(`${path}/:asset`, async (c) => {
    const name = c.req.param("asset");
    const type = PACKAGE_ASSETS[name];
    if (type === undefined) return jsonError(c, 404, `Not found: ${c.req.method} ${c.req.path}`);
    const headers = { ...SECURITY_HEADERS, "Cache-Control": "private, max-age=86400" };
    return c.body(await packageFile(name), 200, { ...headers, "Content-Type": type });
  });
  return app;
}

/** Where a Redoc page is served and what it is called. */
export interface RedocOptions {
  /** Path of the page, e.g. `/redoc`; its script lives below it, `openapi.json` beside it. */
  path: string;
  /** Title of the page. */
  title: string;
}

/** Redoc reads `openapi.json` beside the page; no inline script, no fonts from elsewhere. */
function redocPage(title: string, dir: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="openapi.json"></redoc>
<script src="${dir}/redoc.standalone.js"></script>
</body>
</html>
`;
}

let bundle: Promise<Uint8Array<ArrayBuffer>> | undefined;

/** The one outside address in Redoc's bundle: the logo of its "API docs by Redocly" credit. */
export const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";

/** What stands in its place: an empty image, fetched from nowhere. */
export const REDOC_LOGO_STAND_IN =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

/**
 * The standalone Redoc bundle of the `redoc` package, read once, with its credit's logo fetched
 * from nowhere: the page makes no request outside the service (the credit's text stays).
 */
function redocBundle(): Promise<Uint8Array<ArrayBuffer>> {
  bundle ??= Deno.readTextFile(
    new URL(import.meta.resolve("redoc/bundles/redoc.standalone.js")),
  ).then((text) => {
    if (!text.includes(REDOC_LOGO_URL)) return new TextEncoder().encode(text);
    return new TextEncoder().encode(
      text.replaceAll(
        REDOC_LOGO_URL,
        "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
      ),
    );
  });
  return bundle;
}

/** A Redoc page over the OpenAPI document beside it, with its script from the redoc package. */
export function redocRoutes({ path, title }: RedocOptions): Hono {
  const app = new Hono();
  const html = redocPage(title, path.slice(path.lastIndexOf("/") + 1));
  app.get(path, (c) => c.html(html, 200, SECURITY_HEADERS));
  app.get(`${path}/redoc.standalone.js`, async (c) =>
    c.body(await redocBundle(), 200, {
      ...SECURITY_HEADERS,
      "Cache-Control": "public, max-age=86400",
      "Content-Type": "text/javascript; charset=utf-8",
    }));
  return app;
}
