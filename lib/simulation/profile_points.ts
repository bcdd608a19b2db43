/**
 * A source profile as a zod schema checked by a plain loop. The client sends one point per step
 * (525,601 points for a year at 1-minute steps); a zod object schema per point took about a
 * second of the event loop for those, and an invalid profile produced one issue per point (a
 * 6.8 MB body got a 52 MB answer). Here each point is read by a small function, at most
 * `MAX_POINT_ISSUES` problems are reported and then one that counts the rest, and an array over
 * the limit is refused by its length before any point is read.
 */
import { z } from "zod";

/** Problems of single points reported before the rest are only counted. */
export const MAX_POINT_ISSUES = 20;

/** Reports a problem of the point being read, at `path` inside it. */
export type ReportProblem = (path: readonly (string | number)[], message: string) => void;

/**
 * Reads one raw point: the canonical point, or undefined after reporting why it is wrong.
 * Must not throw.
 */
export type ReadPoint<T> = (raw: unknown, report: ReportProblem) => T | undefined;

/**
 * An array of profile points read by `read`, at most `maxPoints` long.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const schema = profilePoints((raw, report) => {
 *   const t = (raw as { t?: unknown })?.t;
 *   if (typeof t === "number") return { t };
 *   report(["t"], "expected a number");
 * }, 1000);
 * assert.deepEqual(schema.parse([{ t: 1 }, { t: 2 }]), [{ t: 1 }, { t: 2 }]);
 * assert.deepEqual(schema.safeParse([{ t: "x" }]).error?.issues[0]?.path, [0, "t"]);
 * ```
 */
export function profilePoints<T>(read: ReadPoint<T>, maxPoints: number) {
  return z.custom<unknown[]>((value) => Array.isArray(value), {
    message: "expected an array of profile points",
  }).transform((raw, ctx): T[] => {
    if (raw.length > maxPoints) {
      ctx.addIssue({
        code: "custom",
        message: `the profile has ${raw.length} points, more than ${maxPoints}`,
        input: raw.length,
      });
      return z.NEVER;
    }
    const out = new Array<T>(raw.length);
    let wrong = 0;
    let index = 0;
    const report: ReportProblem = (path, message) => {
      wrong++;
      if (wrong <= MAX_POINT_ISSUES) {
        ctx.addIssue({ code: "custom", message, path: [index, ...path], input: raw[index] });
      }
    };
    for (; index < raw.length; index++) {
      const point = read(raw[index], report);
      if (point !== undefined) out[index] = point;
    }
    if (wrong > MAX_POINT_ISSUES) {
      ctx.addIssue({
        code: "custom",
        message: `and ${wrong - MAX_POINT_ISSUES} more wrong points (the first ` +
          `${MAX_POINT_ISSUES} are listed)`,
        input: wrong,
      });
    }
    return wrong > 0 ? z.NEVER : out;
  });
}

/** The record of a point, or undefined after reporting that it is not an object. */
export function pointRecord(
  raw: unknown,
  report: ReportProblem,
): Record<string, unknown> | undefined {
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    return raw as Record<string, unknown>;
  }
  report(
    [],
    `expected an object, got ${raw === null ? "null" : Array.isArray(raw) ? "array" : typeof raw}`,
  );
  return undefined;
}

/**
 * A finite number from `min` to `max` at `key`, or undefined after reporting why not (also
 * when it is missing, unless `optional`, where missing or null gives null).
 */
export function pointNumber(
  value: unknown,
  key: string,
  report: ReportProblem,
  { min = -Infinity, max = Infinity, optional = false } = {},
): number | null | undefined {
  if (value === undefined || value === null) {
    if (optional) return null;
    report([key], "required: expected a number");
    return undefined;
  }
  if (typeof value !== "number" || !Number.isFinite(value)) {
    report([key], `expected a number, got ${typeof value === "number" ? value : typeof value}`);
    return undefined;
  }
  if (value < min || value > max) {
    report(
      [key],
      max === Infinity
        ? `must be at least ${min}, got ${value}`
        : `must be from ${min} to ${max}, got ${value}`,
    );
    return undefined;
  }
  return value;
}
