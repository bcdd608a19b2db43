/**
 * The heat gateway: the only way in to the heat service. It answers CORS preflights of allowed
 * origins, refuses every other request without the right `X-Api-Key` with 403 text/plain before
 * the service sees it, serves the heat docs page, and hands everything else to the heat app.
 */
import { Hono } from "hono";
import { OPENAPI_PATH } from "../heat/app.ts";
import { API_KEY_HEADER, requireApiKey } from "../middleware/api_key.ts";
import { cors } from "../middleware/cors.ts";
import { DOCS_PATH, docsRoutes } from "./docs.ts";

export { DOCS_KEY_PARAM, FORBIDDEN_TEXT } from "../middleware/api_key.ts";

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

/** What browser callers of the heat service may send. */
export const HEAT_CORS = {
  headers: [API_KEY_HEADER, "Content-Type"],
  methods: ["GET", "POST", "OPTIONS"],
} as const;

/** Name of the heat docs cookie. */
export const DOCS_COOKIE = "heat_docs";

/** Builds the gateway in front of the heat app. */
export function createGateway({ heatApp, apiKey, allowedOrigins, now }: GatewayOptions): Hono {
  const app = new Hono();
  app.use("*", cors({ origins: allowedOrigins, ...HEAT_CORS }));
  app.use(
    "*",
    requireApiKey({
      key: apiKey,
      docs: { page: DOCS_PATH, document: OPENAPI_PATH, cookie: DOCS_COOKIE, cookiePath: "/heat" },
      ...(now ? { now } : {}),
    }),
  );
  app.route("/", docsRoutes());
  app.all("*", (c) => heatApp.fetch(c.req.raw));
  return app;
}
