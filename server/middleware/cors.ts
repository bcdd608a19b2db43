/**
 * CORS by policy: each service states which exact origins may call it from a browser, with
 * which headers and methods. A preflight from an allowed origin is answered here (it carries no
 * credentials), and responses to allowed origins carry the CORS headers; other origins get none.
 */
import type { MiddlewareHandler } from "hono";

/** How long a browser may cache a preflight answer by default, seconds. */
export const PREFLIGHT_MAX_AGE = 600;

/** What one service lets browser callers do. */
export interface CorsPolicy {
  /** Exact origins: scheme, host and port, no trailing slash. */
  origins: readonly string[];
  /** Request headers a caller may send, e.g. `["Authorization", "Content-Type"]`. */
  headers: readonly string[];
  /** Methods a caller may use, e.g. `["GET", "POST", "OPTIONS"]`. */
  methods: readonly string[];
  /** Preflight cache lifetime, seconds (default PREFLIGHT_MAX_AGE). */
  maxAgeSeconds?: number;
}

/** CORS middleware for one policy. */
export function cors(
  { origins, headers, methods, maxAgeSeconds = PREFLIGHT_MAX_AGE }: CorsPolicy,
): MiddlewareHandler {
  const allowed = new Set(origins);
  const preflightHeaders = {
    "Access-Control-Allow-Methods": methods.join(", "),
    "Access-Control-Allow-Headers": headers.join(", "),
    "Access-Control-Max-Age": String(maxAgeSeconds),
    "Vary": "Origin",
  };
  return async (c, next) => {
    const origin = c.req.header("origin");
    const isAllowed = origin !== undefined && allowed.has(origin);
    const isPreflight = c.req.method === "OPTIONS" &&
      c.req.header("access-control-request-method") !== undefined;
    if (isPreflight && isAllowed) {
      return new Response(null, {
        status: 204,
        headers: { "Access-Control-Allow-Origin": origin, ...preflightHeaders },
      });
    }
    await next();
    c.res.headers.append("Vary", "Origin");
    if (isAllowed) c.res.headers.set("Access-Control-Allow-Origin", origin);
  };
}
