/**
 * Query strings within bounds before any route parses them: every parameter name and value is
 * at most MAX_QUERY_VALUE_CHARS characters and the whole query at most MAX_QUERY_CHARS, else
 * 400 naming the parameter. Splitting the query is linear in its length.
 * Numbers are recognised by patterns that cannot backtrack, so their cost grows linearly with
 * the (already bounded) length.
 */
import type { MiddlewareHandler } from "hono";
import { httpError } from "./errors.ts";

/** Longest query parameter name or value, characters (after percent-decoding). */
export const MAX_QUERY_VALUE_CHARS = 256;

/** Longest query string, characters (as sent, percent-encoded). */
export const MAX_QUERY_CHARS = 4096;

/** A decimal number: optional sign, digits with an optional fraction, optional exponent. */
export const DECIMAL_PATTERN = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A non-negative integer written in digits. */
export const DIGITS_PATTERN = /^\d+$/;

/** An integer written in digits, with an optional minus sign. */
export const INTEGER_PATTERN = /^-?\d+$/;

/** Refuses a query string, or any of its names or values, over the limits with 400 `{ error }`. */
export function limitQuery(
  maxValueChars = MAX_QUERY_VALUE_CHARS,
  maxQueryChars = MAX_QUERY_CHARS,
): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const start = url.indexOf("?");
    if (start >= 0) {
      const end = url.indexOf("#", start);
      const query = url.slice(start + 1, end < 0 ? undefined : end);
      for (const [name, value] of new URLSearchParams(query)) {
        if (name.length > maxValueChars) {
          throw httpError(
            400,
            `Query parameter name "${name.slice(0, 32)}...": longer than ${maxValueChars} ` +
              "characters",
          );
        }
        if (value.length > maxValueChars) {
          throw httpError(
            400,
            `Query parameter ${name}: longer than ${maxValueChars} characters`,
          );
        }
      }
      if (query.length > maxQueryChars) {
        throw httpError(400, `Query string longer than ${maxQueryChars} characters`);
      }
    }
    await next();
  };
}
