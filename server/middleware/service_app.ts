/**
 * The root app of a service: the one error format, bounded query strings, and JSON for every
 * unmatched request: 405 with `Allow` when the path exists for other methods, else 404.
 * Route groups are mounted into it with `app.route(...)`; they are plain `createOpenAPIApp`s.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import { createOpenAPIApp, type ErrorFormatOptions, jsonError } from "./errors.ts";
import { limitQuery } from "./query.ts";

/** A route's path pattern as a regular expression: `:name` and `:name{...}` match a segment. */
function pathPattern(path: string): RegExp {
  let source = "";
  for (const part of path.split(/(:\w+(?:\{[^}]*\})?|\*)/)) {
    if (part === "*") source += ".*";
    else if (part.startsWith(":")) source += "[^/]+";
    else source += part.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}/?$`);
}

/** Builds a service's root app. */
export function createServiceApp<E extends Env = Env>(
  options: ErrorFormatOptions = {},
): OpenAPIHono<E> {
  const app = createOpenAPIApp<E>(options);
  app.use("*", limitQuery());
  // Routes are known only once every group is mounted: compiled at the first unmatched request.
  let routes: { method: string; pattern: RegExp }[] | undefined;
  app.notFound((c) => {
    routes ??= app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, pattern: pathPattern(r.path) }));
    const path = c.req.path;
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length === 0) return jsonError(c, 404, `Not found: ${c.req.method} ${path}`);
    if (allowed.includes("GET")) allowed.push("HEAD");
    c.header("Allow", allowed.join(", "));
    return jsonError(
      c,
      405,
      `Method ${c.req.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`,
    );
  });
  return app;
}
