/**
 * The backend's cross-origin rule (spec, issue 10 section 6, made exact by issue 18):
 *
 * - no `Origin`, or an empty one (curl, same-origin GETs, the Vite proxy): allowed, nothing
 *   added; `Origin: null` (Electron's file:// pages, sandboxed frames): allowed and answered
 *   `Access-Control-Allow-Origin: null` (the spec: "origin `null` or empty");
 * - `http://localhost:5173`, `:5174` and the same on `127.0.0.1` (the frontend's dev servers):
 *   allowed, the origin echoed, preflights answered 204 (methods GET, POST, PUT, DELETE,
 *   OPTIONS; header Content-Type);
 * - the backend's own pages (`/api/osm/map`, `/api/docs`), whose module scripts and requests
 *   carry an `Origin`: allowed the same way by a fixed list, `http://localhost:PORT` and
 *   `http://127.0.0.1:PORT` of the port it listens on plus BACKEND_PUBLIC_ORIGIN (behind a
 *   proxy). Never by what the request's `Host` says: a page of any site whose name is made to
 *   resolve to this machine (DNS rebinding) sends an `Origin` equal to its `Host`;
 * - every other origin: 403 JSON on every route, preflights included.
 */
import type { MiddlewareHandler } from "hono";
import { PREFLIGHT_MAX_AGE } from "../middleware/cors.ts";
import { jsonError } from "../middleware/errors.ts";

/** The browser origins of the frontend's dev servers. */
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

/**
 * Response headers a browser script may read: the page total of the lists, where a layer came
 * from and whether it was cut, a download's id, and when to come back after a 503.
 */
export const BACKEND_EXPOSED_HEADERS = [
  "X-Total-Count",
  "X-Source",
  "X-Truncated",
  "X-Download-Id",
  "Retry-After",
] as const;

/**
 * The origins of the backend's own pages: `http://localhost:PORT` and `http://127.0.0.1:PORT`
 * of the port it listens on (none while it is unknown), then `publicOrigins`.
 */
export function backendOwnOrigins(
  port: number | undefined,
  publicOrigins: readonly string[] = [],
): string[] {
  const local = port === undefined || port === 0
    ? []
    : [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  return [...local, ...publicOrigins];
}

/** Options of the rule. */
export interface BackendCorsOptions {
  /** The backend's own origins (`backendOwnOrigins`), allowed besides the dev servers. */
  ownOrigins?: readonly string[];
}

/** The middleware of the rule; mount it before every route. */
export function backendCors(options: BackendCorsOptions = {}): MiddlewareHandler {
  const allowed = new Set<string>([...BACKEND_ORIGINS, ...(options.ownOrigins ?? []), "null"]);
  return async (c, next) => {
    const header = c.req.header("origin");
    // An empty Origin is no origin.
    const origin = header === "" ? undefined : header;
    if (origin !== undefined && !allowed.has(origin)) {
      c.header("Vary", "Origin");
      return jsonError(c, 403, `Origin ${origin.slice(0, 200)} is not allowed`);
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
    if (origin !== undefined) {
      c.res.headers.set("Access-Control-Allow-Origin", origin);
      c.res.headers.set("Access-Control-Expose-Headers", BACKEND_EXPOSED_HEADERS.join(", "));
    }
  };
}
