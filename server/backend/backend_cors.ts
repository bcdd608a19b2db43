/**
 * The backend's cross-origin rule (spec, issue 10 section 6), as the frontend's Go backend
 * applied it:
 *
 * - no `Origin` (curl, same-origin GETs, the Vite proxy) or `Origin: null` (Electron's file://
 *   pages, sandboxed frames): allowed; a literal `null` origin is answered
 *   `Access-Control-Allow-Origin: null`;
 * - `http://localhost:5173`, `:5174` and the same on `127.0.0.1` (the frontend's dev servers):
 *   allowed, the origin echoed, preflights answered 204 (methods GET, POST, PUT, DELETE,
 *   OPTIONS; header Content-Type);
 * - the backend's own origin (the scheme, host and port the request was sent to): allowed,
 *   nothing added, as for any same-origin request: its own pages (`/api/osm/map`, `/api/docs`)
 *   load module scripts and data, which browsers send with an `Origin` header;
 * - every other origin: 403 JSON on every route, preflights included.
 */
import type { MiddlewareHandler } from "hono";
import { PREFLIGHT_MAX_AGE } from "../middleware/cors.ts";
import { jsonError } from "../middleware/errors.ts";

/** The browser origins the backend answers. */
export const BACKEND_ORIGINS = [
  "http://localhost:5173",
  "http://localhost:5174",
  "http://127.0.0.1:5173",
  "http://127.0.0.1:5174",
] as const;

/** Methods a browser may use. */
export const BACKEND_CORS_METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS"] as const;

/** Request headers a browser may send. */
export const BACKEND_CORS_HEADERS = ["Content-Type"] as const;

/** The middleware of the rule; mount it before every route. */
export function backendCors(): MiddlewareHandler {
  const allowed = new Set<string>([...BACKEND_ORIGINS, "null"]);
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin !== undefined && origin === new URL(c.req.url).origin) return await next();
    if (origin !== undefined && !allowed.has(origin)) {
      c.header("Vary", "Origin");
      return jsonError(c, 403, `Origin ${origin} is not allowed`);
    }
    const isPreflight = c.req.method === "OPTIONS" &&
      c.req.header("access-control-request-method") !== undefined;
    if (isPreflight && origin !== undefined) {
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": BACKEND_CORS_METHODS.join(", "),
          "Access-Control-Allow-Headers": BACKEND_CORS_HEADERS.join(", "),
          "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE),
          "Vary": "Origin",
        },
      });
    }
    await next();
    c.res.headers.append("Vary", "Origin");
    if (origin !== undefined) c.res.headers.set("Access-Control-Allow-Origin", origin);
  };
}
