/**
 * The gateway: the only way in. It answers CORS preflights of allowed origins, rejects every
 * other request without the right `X-Api-Key` with 403 text/plain before a service sees it,
 * serves the API docs page, and hands everything else to the heat service.
 */
import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { API_KEY_HEADER, OPENAPI_PATH } from "../heat/app.ts";
import { secretMatcher } from "../../lib/auth/constant_time.ts";
import { corsFor } from "../middleware/cors.ts";
import { DOCS_PATH, docsRoutes } from "./docs.ts";
import { DOCS_COOKIE, DOCS_SESSION_SECONDS, docsSession } from "../middleware/docs_session.ts";

/** Anything that answers requests, e.g. a Hono app. */
export interface Service {
  fetch(request: Request): Response | Promise<Response>;
}

/** What the gateway is built from. */
export interface GatewayOptions {
  heatApp: Service;
  /** The one key every request must carry. */
  apiKey: string;
  /** Exact browser origins allowed by CORS, e.g. `https://app.example.org`. */
  allowedOrigins: readonly string[];
  /** Milliseconds since the epoch, for the docs cookie's expiry. */
  now?: () => number;
}

/** Query parameter that trades the key for a docs cookie, on the docs page only. */
export const DOCS_KEY_PARAM = "api_key";

/** Body of every 403. */
export const FORBIDDEN_TEXT = `Forbidden: missing or invalid ${API_KEY_HEADER} header`;

/** Paths a docs cookie opens, besides the page's assets. */
function isDocsPath(path: string): boolean {
  return path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`) || path === OPENAPI_PATH;
}

/** Builds the gateway in front of the heat app. */
export function createGateway({ heatApp, apiKey, allowedOrigins, now }: GatewayOptions): Hono {
  if (apiKey === "") throw new RangeError("apiKey: must not be empty");
  const keyMatches = secretMatcher(apiKey);
  const session = docsSession(apiKey, now);
  const app = new Hono();

  app.use("*", corsFor(allowedOrigins));
  app.use("*", async (c, next) => {
    if (keyMatches(c.req.header(API_KEY_HEADER))) return next();
    const path = c.req.path;
    if (isDocsPath(path) && await session.verify(getCookie(c, DOCS_COOKIE))) return next();
    const queryKey = c.req.query(DOCS_KEY_PARAM);
    if (path === DOCS_PATH && c.req.method === "GET" && queryKey !== undefined) {
      if (keyMatches(queryKey)) {
        setCookie(c, DOCS_COOKIE, await session.issue(), {
          path: "/heat",
          httpOnly: true,
          sameSite: "Strict",
          secure: new URL(c.req.url).protocol === "https:" ||
            c.req.header("x-forwarded-proto") === "https",
          maxAge: DOCS_SESSION_SECONDS,
        });
        // Drop the key from the address bar and history at once.
        c.header("Cache-Control", "no-store");
        c.header("Referrer-Policy", "no-referrer");
        return c.redirect("docs", 303);
      }
    }
    return c.text(FORBIDDEN_TEXT, 403);
  });
  app.route("/", docsRoutes());
  app.all("*", (c) => heatApp.fetch(c.req.raw));
  return app;
}
