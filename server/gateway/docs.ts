/**
 * The interactive API docs: a Swagger UI page at `/heat/docs` over `/heat/openapi.json`, its
 * assets served from the `swagger-ui-dist` package (no CDN). "Try it out" calls need the key
 * entered through the page's Authorize button (the document declares the `X-Api-Key` scheme).
 */
import { Hono } from "hono";

/** Path of the docs page; its assets live below it. */
export const DOCS_PATH = "/heat/docs";

/**
 * The page; its URLs are relative to the page URL (`<dir>/...` for assets, `openapi.json` beside
 * the page), so the page also works below a proxy's path prefix.
 */
function page(title: string, dir: string): string {
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
  const html = page(title, path.slice(path.lastIndexOf("/") + 1));
  app.get(path, (c) => c.html(html, 200, SECURITY_HEADERS));
  app.get(
    `${path}/init.js`,
    (c) =>
      c.body(INIT, 200, { ...SECURITY_HEADERS, "Content-Type": "text/javascript; charset=utf-8" }),
  );
  app.get(`${path}/:asset`, async (c) => {
    const name = c.req.param("asset");
    const type = PACKAGE_ASSETS[name];
    if (type === undefined) return c.notFound();
    const headers = { ...SECURITY_HEADERS, "Cache-Control": "private, max-age=86400" };
    return c.body(await packageFile(name), 200, { ...headers, "Content-Type": type });
  });
  return app;
}

/** The heat docs page and its assets; the gateway checks access before these run. */
export function docsRoutes(): Hono {
  return swaggerUiRoutes({ path: DOCS_PATH, title: "Heating demand service API" });
}
