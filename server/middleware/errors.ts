/**
 * The one error format of the HTTP services, `{ error: string, details?: unknown }`, and the one
 * place that makes it: validation failures become 400 through the default hook, handlers throw
 * `HTTPException`s, and the root `onError` turns both, and anything unexpected, into JSON.
 *
 * What differs between services is a parameter: the heat service answers `{ error }` only; the
 * catalogue service (`createOpenAPIApp({ details: true })`) adds `details`, e.g. the list of
 * validation issues, where a handler or the validation hook has them.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, Env, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The ErrorResponse of the interface. */
export const errorSchema = z
  .object({ error: z.string().describe("Human-readable message") })
  .openapi("ErrorResponse");

/** The error body of services that add details: `{ error, details? }`. */
export const detailedErrorSchema = z
  .object({
    error: z.string().describe("Human-readable message"),
    details: z.unknown().optional().describe(
      "Structured facts about the error where there are any, e.g. the list of validation " +
        "issues (`[{ path, message }]`) or the problems of a rejected reload",
    ),
  })
  .openapi("ErrorResponse");

/** An OpenAPI error response entry for `createRoute`, with the status's meaning. */
export function errorResponse(description: string, schema: z.ZodType = errorSchema) {
  return { description, content: { "application/json": { schema } } };
}

/**
 * The 403 the gateway answers for a missing or wrong key: part of every route's contract,
 * though the service itself never sends it.
 */
export const FORBIDDEN_RESPONSE = {
  description: "Missing or invalid X-Api-Key (plain text, answered by the gateway)",
  content: { "text/plain": { schema: z.string() } },
};

/** An HTTP error that carries structured details besides its message. */
export class DetailedHTTPException extends HTTPException {
  readonly details: unknown;

  constructor(status: ContentfulStatusCode, message: string, details: unknown) {
    super(status, { message });
    this.details = details;
  }
}

/**
 * An exception that the root error handler answers with `status` and `{ error: message }`, plus
 * `details` when given (shown by services that add details).
 */
export function httpError(
  status: ContentfulStatusCode,
  message: string,
  details?: unknown,
): HTTPException {
  return details === undefined
    ? new HTTPException(status, { message })
    : new DetailedHTTPException(status, message, details);
}

type Issue = z.core.$ZodIssue;
type Segment = PropertyKey;

/** Follows a path into a parsed value; undefined where it leads nowhere. */
function valueAt(input: unknown, path: readonly Segment[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/** `surfaces[0] (id "r1").area`: array indexes in brackets, and a surface's id where it has one. */
function formatPath(input: unknown, path: readonly Segment[]): string {
  let text = "";
  path.forEach((segment, i) => {
    text += typeof segment === "number" ? `[${segment}]` : `${text ? "." : ""}${String(segment)}`;
    const value = valueAt(input, path.slice(0, i + 1));
    if (typeof segment === "number" && value && typeof value === "object") {
      const id = (value as Record<string, unknown>)["id"];
      if (typeof id === "string") text += ` (id ${JSON.stringify(id)})`;
    }
  });
  return text;
}

/** Member names of the object schema found at `path`, for suggestions on unknown members. */
function membersAt(schema: z.ZodType | undefined, path: readonly Segment[]): string[] {
  let current: unknown = schema;
  for (const segment of [...path, undefined]) {
    while (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap();
    }
    if (segment === undefined) break;
    if (current instanceof z.ZodObject && typeof segment === "string") {
      current = current.shape[segment];
    } else if (current instanceof z.ZodArray && typeof segment === "number") {
      current = current.element;
    } else return [];
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

/**
 * "unknown member", with the near name where the key differs only in case, or with the allowed
 * names when `members` is given.
 */
function unknownMember(key: string, members: readonly string[]): string {
  const near = members.find((m) => m.toLowerCase() === key.toLowerCase());
  if (near) return `unknown member (did you mean "${near}"?)`;
  return members.length ? `unknown member; allowed: ${members.join(", ")}` : "unknown member";
}

function bound(issue: { origin: string; inclusive?: boolean; exact?: boolean }, op: string) {
  return issue.inclusive && !issue.exact ? `${op}=` : op;
}

/** The rule an issue broke, without its path: "must be > 0". */
function rule(issue: Issue, input: unknown): string {
  switch (issue.code) {
    case "too_small":
    case "too_big": {
      const limit = issue.code === "too_small" ? issue.minimum : issue.maximum;
      if (issue.origin === "string") {
        const what = `${limit} character${limit === 1 ? "" : "s"}`;
        if (issue.exact) return `must be exactly ${what}`;
        return issue.code === "too_small"
          ? `must have at least ${what}`
          : `must have at most ${what}`;
      }
      if (issue.origin === "array") {
        return `must have ${issue.code === "too_small" ? "at least" : "at most"} ${limit} items`;
      }
      return `must be ${bound(issue, issue.code === "too_small" ? ">" : "<")} ${limit}`;
    }
    case "invalid_type": {
      const value = valueAt(input, issue.path);
      if (value === undefined) return "is required";
      if (issue.expected === "int") return "must be an integer";
      if (issue.expected === "number" && typeof value === "number") {
        return "must be a finite number";
      }
      const article = /^[aeiou]/.test(issue.expected) ? "an" : "a";
      return `must be ${article} ${issue.expected}`;
    }
    case "invalid_value": {
      const values = issue.values.map(String).join(", ");
      return valueAt(input, issue.path) === undefined
        ? `is required; one of ${values}`
        : `must be one of ${values}`;
    }
    default:
      return issue.message;
  }
}

/** How many problems an error names; the rest are counted. */
export const MAX_PROBLEMS = 20;

/** The largest error answer, bytes of JSON. */
export const MAX_ERROR_BYTES = 64 * 1024;

/** Each problem of the issues as `{ path, message, unknown }`, in order, at most `limit + 1`. */
function problems(issues: readonly Issue[], input: unknown, limit: number) {
  const found: {
    path: string;
    message: string;
    /** For an unknown member: its key and the path of the object that has it. */
    unknown?: { key: string; at: readonly Segment[] };
  }[] = [];
  let total = 0;
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        total++;
        if (found.length < limit) {
          found.push({
            path: formatPath(input, [...issue.path, key]),
            message: "unknown member",
            unknown: { key, at: issue.path },
          });
        }
      }
    } else {
      total++;
      if (found.length < limit) {
        found.push({ path: formatPath(input, issue.path), message: rule(issue, input) });
      }
    }
  }
  return { found, total };
}

/**
 * One readable sentence naming the fields at fault and the rule each broke: the first
 * MAX_PROBLEMS, then how many more there are; for unknown members the allowed names once.
 */
export function describeIssues(
  issues: readonly Issue[],
  input: unknown,
  schema?: z.ZodType,
): string {
  const { found, total } = problems(issues, input, MAX_PROBLEMS);
  // The allowed names once per object with unknown members, not once per unknown member.
  const listed = new Set<string>();
  const lines = found.map(({ path, message, unknown }) => {
    if (!unknown) return path ? `${path}: ${message}` : message;
    const parent = formatPath(input, unknown.at);
    const members = membersAt(schema, unknown.at);
    const near = members.find((m) => m.toLowerCase() === unknown.key.toLowerCase());
    if (near || listed.has(parent)) {
      return `${path}: ${unknownMember(unknown.key, near ? [near] : [])}`;
    }
    listed.add(parent);
    return `${path}: ${unknownMember(unknown.key, members)}`;
  });
  if (total > found.length) lines.push(`and ${total - found.length} more problems`);
  return lines.join("; ");
}

const TARGET_NAMES: Readonly<Record<string, string>> = {
  json: "request body",
  query: "query",
  param: "path",
};

/** One validation issue as `details` lists it: the member's path and the rule it broke. */
export interface IssueDetail {
  path: string;
  message: string;
}

/** The issues as a list for `details` (the first MAX_PROBLEMS), with the message's wording. */
export function issueDetails(issues: readonly Issue[], input: unknown): IssueDetail[] {
  return problems(issues, input, MAX_PROBLEMS).found.map(({ path, message }) => ({
    path,
    message,
  }));
}

/** Options of the validation hook and of createOpenAPIApp. */
export interface ErrorFormatOptions {
  /** Add `details` (the list of issues) to validation errors. */
  details?: boolean;
}

/**
 * A validation hook that throws 400 with every problem named; pass the schema to get
 * suggestions for unknown members (`theta_e` -> `Theta_e`).
 */
export function validationHook(schema?: z.ZodType, options: ErrorFormatOptions = {}) {
  return (
    result: { target: string } & ({ success: true } | { success: false; error: z.ZodError }),
  ): undefined => {
    if (result.success) return undefined;
    const input = "data" in result ? result.data : undefined;
    const message = describeIssues(result.error.issues, input, schema);
    const where = TARGET_NAMES[result.target] ?? result.target;
    const details = options.details ? issueDetails(result.error.issues, input) : undefined;
    throw httpError(400, `Invalid ${where}: ${message}`, details);
  };
}

/**
 * JSON error response in the one format; `details` only when given. An answer is never over
 * MAX_ERROR_BYTES: longer details are dropped, then the message is cut.
 */
export function jsonError(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  details?: unknown,
): Response {
  return c.json(boundedError(message, details), status);
}

/** `{ error, details? }` within MAX_ERROR_BYTES of JSON. */
export function boundedError(message: string, details?: unknown): ErrorBody {
  const body: ErrorBody = details === undefined ? { error: message } : { error: message, details };
  if (jsonBytes(body) <= MAX_ERROR_BYTES) return body;
  const error = jsonBytes({ error: message }) <= MAX_ERROR_BYTES
    ? message
    : `${cutToBytes(message, MAX_ERROR_BYTES - 1024)} ... (cut)`;
  return { error };
}

/** The error body. */
export interface ErrorBody {
  error: string;
  details?: unknown;
}

function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** The longest prefix of `text` whose JSON string is at most `bytes` bytes. */
export function cutToBytes(text: string, bytes: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (jsonBytes(text.slice(0, mid)) <= bytes) low = mid;
    else high = mid - 1;
  }
  return text.slice(0, low);
}

/** Message of a request whose connection closed before its body was read. */
export const CLIENT_CLOSED_MESSAGE =
  "The request body could not be read: the connection was closed";

/** The client closed the connection while its request was read (an aborted upload). */
export class ClientClosedError extends HTTPException {
  constructor(cause?: unknown) {
    super(400, { message: CLIENT_CLOSED_MESSAGE, cause });
  }
}

/** Whether an error is Deno's word for a connection that is gone. */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof Deno.errors.BadResource || error instanceof Deno.errors.Http ||
    error instanceof Deno.errors.ConnectionReset || error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.UnexpectedEof || error instanceof Deno.errors.Interrupted;
}

/**
 * Root error handler: known HTTP errors keep their status; a request whose connection closed is
 * one short log line and no 500 (nobody is there to read the answer); anything else is a bare
 * 500, with the stack in the log only.
 */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ClientClosedError || isConnectionClosed(err)) {
    console.error(`${c.req.method} ${c.req.path}: the client closed the connection`);
    return jsonError(c, 400, CLIENT_CLOSED_MESSAGE);
  }
  if (err instanceof DetailedHTTPException) {
    return jsonError(c, err.status, err.message, err.details);
  }
  if (err instanceof HTTPException) return jsonError(c, err.status, err.message);
  // The stack goes to the server log only; the caller learns nothing of the internals.
  console.error(err);
  return jsonError(c, 500, "Internal server error");
};

/** Unknown paths answer in the same format. */
export const notFound: NotFoundHandler = (c) =>
  jsonError(c, 404, `Not found: ${c.req.method} ${c.req.path}`);

/**
 * An OpenAPIHono whose validation failures and errors all come out as `{ error }`, or as
 * `{ error, details? }` with `details: true`.
 */
export function createOpenAPIApp<E extends Env = Env>(
  options: ErrorFormatOptions = {},
): OpenAPIHono<E> {
  const app = new OpenAPIHono<E>({ defaultHook: validationHook(undefined, options) });
  app.onError(onError);
  app.notFound(notFound);
  return app;
}
