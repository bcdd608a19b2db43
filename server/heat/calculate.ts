/**
 * `POST /api/v1/calculate/{code}`: the heating demand of a variant, with optional overrides of
 * its inputs and optional caller surfaces.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { overridesSchema } from "../../lib/heat/calculation/overrides.ts";
import type { VariantRow } from "../../lib/heat/parameters/variant_row.ts";
import type { Overrides } from "../../lib/heat/calculation/overrides.ts";
import type { Context } from "hono";
import {
  createOpenAPIApp,
  describeIssues,
  errorResponse,
  FORBIDDEN_RESPONSE,
  httpError,
} from "../middleware/errors.ts";
import { bodyTooLarge } from "../middleware/body_limit.ts";
import { readJsonBody } from "../middleware/json_body.ts";
import { jsonDepthMessage } from "../../lib/validation/json_depth.ts";
import { codeParamsSchema, variantOf } from "./code.ts";
import type { CalculateFn, HeatDeps } from "./deps.ts";

/** Largest accepted request body, bytes (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Unit of q_h_nd. */
export const Q_H_ND_UNIT = "kWh/(m2.a)";

const calculateResponseSchema = z
  .object({
    variant_code: z.string().describe("The requested code"),
    q_h_nd: z.number().describe("Annual net heating energy demand, kWh/(m2.a)"),
    unit: z.string().describe(`Unit text, ${Q_H_ND_UNIT}`),
    explain: z.record(z.string(), z.unknown()).optional().describe(
      "Every intermediate of the calculation (only with `?explain=true`)",
    ),
  })
  .openapi("CalculateResponse");

const explainQuerySchema = z.object({
  explain: z.enum(["true", "false"]).optional().openapi({
    description: "`true` adds every intermediate of the calculation as `explain`",
  }),
});

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

const route = createRoute({
  method: "post",
  path: "/{code}",
  summary: "Heating demand of a variant",
  description: "Without a body (or with an empty one) the archetype's inputs are used; each " +
    "member sent replaces one input, every other keeps the archetype value. Unknown members " +
    "are rejected; every number has physical bounds (`minimum`, `maximum` in the schema; the " +
    "overrides' also in `/api/v1/fields`), outside them the answer is 400. The request body " +
    "is limited to 1 MiB.",
  request: {
    params: codeParamsSchema,
    query: explainQuerySchema,
    body: {
      required: false,
      content: { "application/json": { schema: overridesSchema } },
    },
  },
  responses: {
    200: {
      description: "The demand",
      content: { "application/json": { schema: calculateResponseSchema } },
    },
    400: errorResponse(
      "Malformed code, unknown country, malformed JSON or JSON nested deeper than 64 levels, " +
        "or invalid overrides or surfaces (wrong type, unknown member, or a number outside its " +
        "bounds)",
    ),
    404: errorResponse("Variant code not found"),
    413: errorResponse("Request body over 1 MiB"),
    415: errorResponse("A non-empty body that is not declared JSON"),
    500: errorResponse("Internal fault: the calculation failed or gave a non-finite result"),
    403: FORBIDDEN_RESPONSE,
  },
});

/** Runs the calculation; its failures and non-finite results become 500 with a reason. */
export function runCalculation(
  calculate: CalculateFn,
  code: string,
  row: VariantRow,
  overrides: Overrides,
): { q_h_nd: number; explain: object } {
  let result: { q_h_nd: number; explain: object };
  try {
    result = calculate(row, overrides);
  } catch (err) {
    // TypeError and RangeError are how the calculation says which input it cannot use.
    if (err instanceof TypeError || err instanceof RangeError) {
      throw httpError(500, `Calculation failed for ${code}: ${err.message}`);
    }
    console.error(err);
    throw httpError(500, `Calculation failed for ${code}`);
  }
  if (!Number.isFinite(result.q_h_nd)) {
    throw httpError(500, `Calculation for ${code} gave a non-finite q_h_nd (${result.q_h_nd})`);
  }
  return result;
}

/** Reads the optional JSON body: empty means no overrides; else JSON, checked by the schema. */
async function overridesOf(c: Context): Promise<Overrides> {
  const read = await readJsonBody(c, MAX_BODY_BYTES);
  if (!read.ok && read.problem.kind === "too_large") throw bodyTooLarge(MAX_BODY_BYTES);
  if (!read.ok && read.problem.kind === "empty") return {};
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw httpError(415, "The request body must be JSON, sent with Content-Type: application/json");
  }
  if (!read.ok) {
    // Refused before anything walks it (issue 18: deeper than 64 levels is a 400 everywhere).
    if (read.problem.kind === "too_deep") throw httpError(400, jsonDepthMessage());
    throw httpError(400, "Malformed JSON in request body");
  }
  const body = read.value;
  const parsed = overridesSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(withBoundsMessage);
    throw httpError(
      400,
      `Invalid request body: ${describeIssues(issues, body, overridesSchema)}`,
    );
  }
  return parsed.data;
}

type Issue = z.core.$ZodIssue;

/**
 * A range issue of the body keeps the rule its schema gave it, which names both bounds and the
 * unit (`theta_i: must be between 10 and 30 deg C`), instead of the generic `must be >= 10`.
 */
function withBoundsMessage(issue: Issue): Issue {
  if (issue.code !== "too_small" && issue.code !== "too_big") return issue;
  return { code: "custom", path: issue.path, message: issue.message, input: issue.input };
}

/** Checks one request part with its route schema, synchronously; 400 names what is wrong. */
function checked<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw httpError(400, `Invalid ${where}: ${describeIssues(parsed.error.issues, value, schema)}`);
}

/**
 * The calculate route, to mount at `/api/v1/calculate`. The route is documented from its schemas, and the
 * handler checks path, query and body with the same schemas in one synchronous pass: this is
 * the service's hot path, and the generic validator middleware cost more than the calculation.
 */
export function calculateRoutes({ typology, calculate }: HeatDeps): OpenAPIHono {
  const app = createOpenAPIApp();
  app.openAPIRegistry.registerPath(route);
  app.post(route.path.replace("{code}", ":code"), async (c) => {
    const { code } = checked(codeParamsSchema, { code: c.req.param("code") }, "path");
    const { explain } = checked(explainQuerySchema, c.req.query(), "query");
    const overrides = await overridesOf(c);
    const { row } = variantOf(typology, code);
    const result = runCalculation(calculate, code, row, overrides);
    const body = { variant_code: code, q_h_nd: result.q_h_nd, unit: Q_H_ND_UNIT };
    if (explain === "true") return c.json({ ...body, explain: { ...result.explain } }, 200);
    return c.json(body, 200);
  });
  return app;
}
