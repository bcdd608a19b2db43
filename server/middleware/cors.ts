/**
 * Allowed browser origins: a preflight from one of them is answered here (it carries no key),
 * and responses to them carry the CORS headers; other origins get none.
 */
import type { MiddlewareHandler } from "hono";

/** Headers a browser caller may send. */
export const ALLOWED_HEADERS = ["X-Api-Key", "Content-Type"] as const;
/** Methods a browser caller may use. */
export const ALLOWED_METHODS = ["GET", "POST", "OPTIONS"] as const;
/** How long a browser may cache a preflight answer, seconds. */
export const PREFLIGHT_MAX_AGE = 600;

/** What a service lets browser callers send besides the defaults. */
export interface CorsOptions {
  /** Request headers allowed (default ALLOWED_HEADERS). */
  headers?: readonly string[];
  /** Methods allowed (default ALLOWED_METHODS). */
  methods?: readonly string[];
}

/** CORS middleware for the given exact origins (scheme, host and port, no trailing slash). */
export function corsFor(
  allowedOrigins: readonly string[],
  { headers = ALLOWED_HEADERS, methods = ALLOWED_METHODS }: CorsOptions = {},
): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = c.req.header("origin");
    const isAllowed = origin !== undefined && allowed.has(origin);
    const isPreflight = c.req.method === "OPTIONS" &&
      c.req.header("access-control-request-method") !== undefined;
    if (isPreflight && isAllowed) {
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": methods.join(", "),
          "Access-Control-Allow-Headers": headers.join(", "),
          "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE),
          "Vary": "Origin",
        },
      });
    }
    await next();
    c.res.headers.append("Vary", "Origin");
    if (isAllowed) c.res.headers.set("Access-Control-Allow-Origin", origin);
  };
}
