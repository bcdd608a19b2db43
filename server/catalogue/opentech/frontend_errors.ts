/**
 * Errors of the OpenTech-DB frontend's routes carry `detail` beside the catalogue's `error`:
 * the frontend shows `detail` (FastAPI's member) and would otherwise show only a status code.
 */
import type { MiddlewareHandler } from "hono";

/** Adds `detail` (the same text as `error`) to JSON error answers of the routes it wraps. */
export function errorDetail(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || !(res.headers.get("content-type") ?? "").includes("json")) return;
    const body = await res.clone().json().catch(() => undefined) as
      | Record<string, unknown>
      | undefined;
    if (!body || typeof body.error !== "string" || "detail" in body) return;
    res.headers.delete("content-length");
    c.res = new Response(JSON.stringify({ ...body, detail: body.error }), {
      status: res.status,
      headers: res.headers,
    });
  };
}
