/**
 * The answers of the simulation services: errors as `{detail}` (the shape the existing client
 * reads, never over 64 KiB), JSON streamed in pieces, and the figures their messages carry.
 */
import type { Context } from "hono";
import { boundedDetail, type DetailIssue } from "./error_detail.ts";
import { jsonStream } from "./json_stream.ts";

/** An error answer as the client reads it, never over 64 KiB. */
export function detail(
  c: Context,
  status: 400 | 404 | 409 | 410 | 413 | 422 | 426 | 500 | 503,
  text: string | readonly DetailIssue[],
) {
  return c.json({ detail: boundedDetail(text) }, status);
}

/** A JSON answer streamed in pieces (results run to hundreds of MB; see `json_stream.ts`). */
export function streamed(c: Context, value: unknown): Response {
  return c.body(jsonStream(value), 200, { "content-type": "application/json" });
}

const MIB = 1024 * 1024;

/** Bytes as MiB for messages (`8`, `0.5`). */
export function mib(bytes: number): string {
  return String(Math.round((bytes / MIB) * 1000) / 1000);
}

/** A count with thousands separators, for messages. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}
