/**
 * Errors of the OpenTech-DB frontend's routes carry `detail` beside the catalogue's `error`:
 * the frontend shows `detail` (FastAPI's member) and would otherwise show only a status code.
 * The answer stays within the one bound of every error answer (MAX_ERROR_BYTES): a message that
 * long is shortened in `detail` (left out when `error` alone fills the bound), and `error` keeps
 * it whole.
 */
import type { MiddlewareHandler } from "hono";
import { MAX_ERROR_BYTES } from "../../middleware/errors.ts";

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

/** The error body with `detail`, shortened so that the whole stays within MAX_ERROR_BYTES. */
export function withDetail(body: Record<string, unknown> & { error: string }): string {
  const whole = JSON.stringify({ ...body, detail: body.error });
  if (byteLength(whole) <= MAX_ERROR_BYTES) return whole;
  // Six bytes per character at most (`\uXXXX`), so the cut always fits.
  const room = MAX_ERROR_BYTES - byteLength(JSON.stringify({ ...body, detail: "…" }));
  // An `error` at the bound already leaves no room: the answer stays as it was.
  if (room < 0) return JSON.stringify(body);
  const detail = `${body.error.slice(0, Math.max(0, Math.floor(room / 6)))}…`;
  return JSON.stringify({ ...body, detail });
}

/** Adds `detail` (the text of `error`) to JSON error answers of the routes it wraps. */
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
    c.res = new Response(withDetail({ ...body, error: body.error }), {
      status: res.status,
      headers: res.headers,
    });
  };
}
