/**
 * A static API key in front of a service: every request without the right key is refused with
 * 403 text/plain before the service sees it. Optionally the service's docs pages may be opened
 * in a browser, which cannot send the header on a page load: `<docs>?api_key=KEY` once trades
 * the key for a signed cookie (`docs_session.ts`) that opens only the docs and the document.
 */
import type { MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { secretMatcher } from "../../lib/auth/constant_time.ts";
import { DOCS_SESSION_SECONDS, docsSession } from "./docs_session.ts";

/** Header that carries the key. */
export const API_KEY_HEADER = "X-Api-Key";

/** Query parameter that trades the key for a docs cookie, on the docs page only. */
export const DOCS_KEY_PARAM = "api_key";

/** Body of every 403. */
export const FORBIDDEN_TEXT = `Forbidden: missing or invalid ${API_KEY_HEADER} header`;

/** Browser access to the docs pages of a key-protected service. */
export interface DocsAccess {
  /** Path of the docs page; its assets live below it. */
  page: string;
  /** Path of the OpenAPI document the page reads. */
  document: string;
  /** Name of the cookie, e.g. `heat_docs`. */
  cookie: string;
  /** Path the cookie is sent to, e.g. `/heat`. */
  cookiePath: string;
}

/** What the key check is built from. */
export interface ApiKeyOptions {
  /** The one key every request must carry; must not be empty. */
  key: string;
  /** Docs pages a browser may open with a cookie; none when omitted. */
  docs?: DocsAccess;
  /** Milliseconds since the epoch, for the docs cookie's expiry. */
  now?: () => number;
}

/** Middleware that lets only requests with the key (or a valid docs cookie) through. */
export function requireApiKey({ key, docs, now }: ApiKeyOptions): MiddlewareHandler {
  if (key === "") throw new RangeError("apiKey: must not be empty");
  const keyMatches = secretMatcher(key);
  const session = docsSession(key, now);
  const isDocsPath = (path: string) =>
    docs !== undefined &&
    (path === docs.page || path.startsWith(`${docs.page}/`) || path === docs.document);

  return async (c, next) => {
    if (keyMatches(c.req.header(API_KEY_HEADER))) return next();
    if (docs === undefined) return c.text(FORBIDDEN_TEXT, 403);
    const path = c.req.path;
    if (isDocsPath(path) && await session.verify(getCookie(c, docs.cookie))) return next();
    const queryKey = c.req.query(DOCS_KEY_PARAM);
    if (path === docs.page && c.req.method === "GET" && queryKey !== undefined) {
      if (keyMatches(queryKey)) {
        setCookie(c, docs.cookie, await session.issue(), {
          path: docs.cookiePath,
          httpOnly: true,
          sameSite: "Strict",
          secure: new URL(c.req.url).protocol === "https:" ||
            c.req.header("x-forwarded-proto") === "https",
          maxAge: DOCS_SESSION_SECONDS,
        });
        // Drop the key from the address bar and history at once.
        c.header("Cache-Control", "no-store");
        c.header("Referrer-Policy", "no-referrer");
        return c.redirect(docs.page.slice(docs.page.lastIndexOf("/") + 1), 303);
      }
    }
    return c.text(FORBIDDEN_TEXT, 403);
  };
}
