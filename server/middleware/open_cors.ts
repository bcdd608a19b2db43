/**
 * CORS for every origin, as the spec asks of the runner and the simulation services: the
 * existing frontend calls them cross-origin from a dev server, a static site or Electron
 * (`file://`), on whatever port it found free. It carries no credentials, so `*` is enough. A `POST` with a JSON body and a `DELETE` both make
 * the browser send a preflight first; it is answered here with the requested headers allowed.
 */
import type { MiddlewareHandler } from "hono";
import { PREFLIGHT_MAX_AGE } from "./cors.ts";

/** Methods a browser may use. */
export const OPEN_CORS_METHODS = ["GET", "POST", "DELETE", "OPTIONS"] as const;

/** Answers preflights and adds `Access-Control-Allow-Origin: *` to every response. */
export function openCors(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
      const requested = c.req.header("access-control-request-headers");
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": "*",
          "Access-Control-Allow-Methods": OPEN_CORS_METHODS.join(", "),
          // Any requested header is allowed: echoing the list also works where `*` is not
          // understood.
          ...(requested ? { "Access-Control-Allow-Headers": requested } : {}),
          "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE),
          "Vary": "Access-Control-Request-Headers",
        },
      });
    }
    await next();
    // A 101 (WebSocket) answer has immutable headers and needs none.
    if (c.res.status !== 101) c.res.headers.set("Access-Control-Allow-Origin", "*");
  };
}
