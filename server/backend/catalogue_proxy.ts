/**
 * The backend's pass-through to the technology catalogue (issue 10 section 4; the frontend's Go
 * backend served the same two routes): `GET /tech/health` is the catalogue's `GET /health`, and
 * any method on `/tech/api/v1/*` is the catalogue's `/api/v1/*`, with the method, the rest of the
 * path, the query string and the body sent on, and the status, headers and body sent back.
 *
 * Headers that describe one connection rather than the message (hop-by-hop, RFC 9110 section
 * 7.6.1: `Connection` and the names it lists, `Keep-Alive`, `Proxy-*`, `TE`, `Trailer`,
 * `Transfer-Encoding`, `Upgrade`) are dropped both ways, and `Host` is the catalogue's;
 * `Authorization` goes through, so signed-in calls (submissions) work through the proxy. The
 * catalogue's own `Access-Control-*` answers are dropped: the backend's cross-origin rule is the
 * one a browser sees on `/tech/*`.
 *
 * The target is always the configured catalogue's `/api/v1/` plus the caller's path segments as
 * they came, each checked once decoded (issue 18): a `.` or `..` segment, an empty one, `@`, `\`,
 * `//` or a scheme (`http:`) in one is a 400 and nothing is sent. The check reads the raw request
 * URL, since Deno hands `..` and `%2e%2e` over unresolved and `new URL()` would resolve them
 * only after the route matched.
 *
 * Failures are the proxy's own JSON `{ error }`, never a 500: a refused path 400, a method not
 * passed on (TRACE, CONNECT, anything but GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS) 405 with
 * `Allow`, the catalogue unreachable 502, no answer within the timeout (30 s) 504, a body over
 * the backend's cap 413.
 */
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  createOpenAPIApp,
  detailedErrorSchema,
  errorResponse,
  jsonError,
} from "../middleware/errors.ts";
import { BodyTooLargeError, readBodyBytes } from "../middleware/body_limit.ts";

/** How long the catalogue may take to answer (until its response headers), ms. */
export const CATALOGUE_TIMEOUT_MS = 30_000;

/** The backend's request body cap, bytes (4 MiB, as `BACKEND_MAX_BODY_MB`'s default). */
export const PROXY_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Where the catalogue's routes are found on the backend. */
export const TECH_PREFIX = "/tech";

/** The methods passed on to the catalogue; any other is answered 405 here. */
export const PROXY_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Options of the catalogue proxy. */
export interface CatalogueProxyOptions {
  /** The catalogue's base URL (`CATALOGUE_URL`), e.g. `http://localhost:8005`. */
  catalogueUrl: string;
  /** How long the catalogue may take to answer, ms (default 30 000): 504 after it. */
  timeoutMs?: number;
  /** Largest request body sent on, bytes (default 4 MiB): 413 above it. */
  maxBodyBytes?: number;
  /** `fetch` used to reach the catalogue; default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** Hop-by-hop headers (RFC 9110 7.6.1, plus the de-facto `Keep-Alive` and `Proxy-*`). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Whether a header belongs to one connection, not to the message. */
function isHopByHop(name: string, listed: ReadonlySet<string>): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith("proxy-") || listed.has(name);
}

/** The header names a `Connection` header lists: they are hop-by-hop too. */
function connectionListed(headers: Headers): Set<string> {
  const value = headers.get("connection") ?? "";
  return new Set(value.split(",").map((name) => name.trim().toLowerCase()).filter(Boolean));
}

/**
 * The request headers sent on: hop-by-hop ones, `Host` (fetch sets the catalogue's),
 * `Content-Length` (fetch sets the length of the body it sends) and `Accept-Encoding` (fetch
 * asks for and undoes its own compression, so the body it hands back is plain) left out.
 */
function requestHeaders(incoming: Headers): Headers {
  const listed = connectionListed(incoming);
  const headers = new Headers();
  for (const [name, value] of incoming) {
    if (isHopByHop(name, listed)) continue;
    if (name === "host" || name === "content-length" || name === "accept-encoding") continue;
    headers.append(name, value);
  }
  return headers;
}

/**
 * The response headers sent back: hop-by-hop and `Access-Control-*` ones left out; when the
 * catalogue compressed the body, fetch has already undone it, so its `Content-Encoding` and
 * `Content-Length` no longer describe the body and are left out too.
 */
function responseHeaders(upstream: Headers): Headers {
  const listed = connectionListed(upstream);
  const decoded = upstream.has("content-encoding");
  const headers = new Headers();
  for (const [name, value] of upstream) {
    if (isHopByHop(name, listed) || name.startsWith("access-control-")) continue;
    if (decoded && (name === "content-encoding" || name === "content-length")) continue;
    if (name === "set-cookie") continue; // appended one by one below
    headers.append(name, value);
  }
  for (const cookie of upstream.getSetCookie()) headers.append("set-cookie", cookie);
  return headers;
}

/** The request body as bytes, at most `maxBytes`; undefined when there is none. */
async function readBody(
  req: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const body = await readBodyBytes(req, maxBytes);
  return body.length === 0 ? undefined : body;
}

/**
 * The catalogue's origin and base path (no trailing slash); throws TypeError when it is not an
 * http(s) URL.
 */
function baseUrl(catalogueUrl: string): { origin: string; path: string } {
  const url = new URL(catalogueUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`catalogueUrl must be an http(s) URL, got ${JSON.stringify(catalogueUrl)}`);
  }
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, "") };
}

/**
 * The raw path and query string (`?` included, or "") of a request URL, as Hono routes on it
 * (from the first `/` after the scheme), not resolved: `new URL()` would apply `..` segments.
 */
function rawTarget(url: string): { path: string; query: string } {
  const start = url.indexOf("/", url.indexOf(":") + 4);
  if (start < 0) return { path: "/", query: "" };
  const rest = url.slice(start).replace(/#.*$/s, "");
  const query = rest.indexOf("?");
  return query < 0
    ? { path: rest, query: "" }
    : { path: rest.slice(0, query), query: rest.slice(query) };
}

/** 405 JSON with `Allow` for a method not in `allowed`; undefined when it is allowed. */
function refuseMethod(c: Context, allowed: readonly string[]): Response | undefined {
  const method = c.req.method;
  if (allowed.includes(method)) return undefined;
  c.header("Allow", allowed.join(", "));
  return jsonError(
    c,
    405,
    `Method ${method.slice(0, 32)} is not passed on to the catalogue; allowed: ` +
      allowed.join(", "),
  );
}

/** A scheme at the start of a segment, as in `http:` or `javascript:`. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Why one decoded path segment may not be sent on, or undefined when it may. */
function segmentProblem(decoded: string): string | undefined {
  if (decoded.includes("@")) return "contains @";
  if (decoded.includes("\\")) return "contains \\";
  if (SCHEME.test(decoded)) return "names a scheme";
  // An encoded `/` is kept as it came (`a%2Fb`), but no part of it may be empty or a dot part.
  for (const part of decoded.split("/")) {
    if (part === "") return decoded === "" ? "is empty" : "contains //";
    if (part === "." || part === "..") return `is a ${part} segment`;
  }
  return undefined;
}

/**
 * The part of `path` (raw, as requested) below `/tech/api/v1/`, checked segment by segment;
 * a string saying what is wrong when it may not be sent on.
 */
export function catalogueSubpath(path: string): { ok: string } | { problem: string } {
  const segments = path.split("/").slice(1);
  const expected = [TECH_PREFIX.slice(1), "api", "v1"];
  if (segments.length <= expected.length) return { problem: "nothing below /tech/api/v1/" };
  for (const [index, raw] of segments.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return {
        problem: `segment ${JSON.stringify(raw.slice(0, 64))} is not valid percent-encoded UTF-8`,
      };
    }
    if (index < expected.length) {
      if (decoded !== expected[index]) return { problem: "not below /tech/api/v1/" };
      continue;
    }
    const problem = segmentProblem(decoded);
    if (problem) return { problem: `segment ${JSON.stringify(raw.slice(0, 64))} ${problem}` };
  }
  return { ok: segments.slice(expected.length).join("/") };
}

const upstreamErrors = {
  400: errorResponse(
    "Invalid catalogue path: a segment is empty, `.` or `..`, or holds `@`, `\\`, `//` or a " +
      "scheme (checked once decoded); nothing was sent on",
    detailedErrorSchema,
  ),
  405: errorResponse(
    "A method the proxy does not pass on (TRACE, CONNECT, ...); `Allow` lists those it does",
    detailedErrorSchema,
  ),
  413: errorResponse("Request body larger than the backend's cap (4 MiB)", detailedErrorSchema),
  502: errorResponse(
    "The catalogue is unreachable at CATALOGUE_URL (connection refused, reset or bad answer)",
    detailedErrorSchema,
  ),
  504: errorResponse("The catalogue did not answer within 30 s", detailedErrorSchema),
};

const passedThrough = {
  description: "The catalogue's answer: its status, headers (hop-by-hop ones dropped) and body",
};

/**
 * The proxy routes, `GET /tech/health` and `ALL /tech/api/v1/*`, as an app to mount at the
 * backend's root (`app.route("/", catalogueProxy({ catalogueUrl }))`). Throws TypeError when
 * `catalogueUrl` is not an http(s) URL.
 */
export function catalogueProxy(options: CatalogueProxyOptions): OpenAPIHono {
  const { origin, path: basePath } = baseUrl(options.catalogueUrl);
  const base = `${origin}${basePath}`;
  const timeoutMs = options.timeoutMs ?? CATALOGUE_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? PROXY_MAX_BODY_BYTES;
  const fetchFn = options.fetch ?? globalThis.fetch;

  /**
   * Sends the request on to `path` (checked; it begins with `under`) and `query` (raw) of the
   * catalogue and passes its answer back.
   */
  async function forward(
    c: Context,
    under: "/health" | "/api/v1/",
    path: string,
    query: string,
  ): Promise<Response> {
    const incoming = c.req.raw;
    let body: Uint8Array<ArrayBuffer> | undefined;
    try {
      body = await readBody(incoming, maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return jsonError(c, 413, `Request body larger than ${maxBodyBytes} bytes`);
      }
      return jsonError(c, 400, "The request body could not be read");
    }
    const target = `${base}${path}${query}`;
    // Belt and braces: whatever the checks let through stays on the catalogue, below `under`.
    const parsed = new URL(target);
    if (parsed.origin !== origin || !parsed.pathname.startsWith(`${basePath}${under}`)) {
      return jsonError(c, 400, "Invalid catalogue path: it leaves the catalogue's base URL");
    }
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    try {
      const upstream = await fetchFn(target, {
        method: incoming.method,
        headers: requestHeaders(incoming.headers),
        ...(body === undefined || incoming.method === "GET" || incoming.method === "HEAD"
          ? {}
          : { body }),
        redirect: "manual",
        // Only the wait for the answer is bounded: once it streams back, a caller that goes
        // away cancels the stream, and with it the catalogue's request.
        signal: timeout.signal,
      });
      return new Response(upstream.body, {
        status: upstream.status,
        statusText: upstream.statusText,
        headers: responseHeaders(upstream.headers),
      });
    } catch (error) {
      if (timeout.signal.aborted) {
        return jsonError(
          c,
          504,
          `The technology catalogue at ${base} did not answer within ${timeoutMs / 1000} s`,
        );
      }
      const reason = error instanceof Error ? error.message : String(error);
      return jsonError(
        c,
        502,
        `The technology catalogue is unreachable at ${base}: ${reason}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  const app = createOpenAPIApp({ details: true });
  app.openAPIRegistry.registerPath({
    method: "get",
    path: `${TECH_PREFIX}/health`,
    tags: ["Catalogue proxy"],
    summary: "The technology catalogue's health (its GET /health, passed through)",
    responses: { 200: passedThrough, 502: upstreamErrors[502], 504: upstreamErrors[504] },
  });
  for (const method of ["get", "post", "put", "patch", "delete"] as const) {
    app.openAPIRegistry.registerPath({
      method,
      path: `${TECH_PREFIX}/api/v1/{path}`,
      tags: ["Catalogue proxy"],
      summary: "Passed through to the technology catalogue's /api/v1/{path}",
      description: "Method, path, query string, body and `Authorization` go to the catalogue " +
        "(`CATALOGUE_URL`); its status, headers and body come back. The catalogue's own " +
        "routes are documented at its `/openapi.json`, e.g. `GET technologies?type=storage`, " +
        "`GET technologies/{id}`, `POST technologies/batch`.",
      request: {
        params: z.object({
          path: z.string().openapi({
            param: { name: "path", in: "path" },
            example: "technologies/onshore_wind",
          }),
        }),
      },
      responses: { default: passedThrough, ...upstreamErrors },
    });
  }
  app.all(
    `${TECH_PREFIX}/health`,
    (c) =>
      refuseMethod(c, ["GET", "HEAD"]) ??
        forward(c, "/health", "/health", rawTarget(c.req.url).query),
  );
  app.all(`${TECH_PREFIX}/api/v1/*`, (c) => {
    const refused = refuseMethod(c, PROXY_METHODS);
    if (refused) return refused;
    const { path, query } = rawTarget(c.req.raw.url);
    const subpath = catalogueSubpath(path);
    if ("problem" in subpath) {
      return jsonError(c, 400, `Invalid catalogue path: ${subpath.problem}`);
    }
    return forward(c, "/api/v1/", `/api/v1/${subpath.ok}`, query);
  });
  return app;
}
