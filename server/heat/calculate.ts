/**
 * `POST /api/v1/calculate/{code}`: the heating demand of a variant, with optional overrides of
 * its inputs and optional caller surfaces.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { overridesSchema } from "../../lib/heat/overrides.ts";
import type { VariantRow } from "../../lib/heat/variant_row.ts";
import type { Overrides } from "../../lib/heat/overrides.ts";
import {
  createOpenAPIApp,
  errorResponse,
  FORBIDDEN_RESPONSE,
  httpError,
  validationHook,
} from "../errors.ts";
import { codeParamsSchema, variantOf } from "./code.ts";
import type { CalculateFn, HeatDeps } from "./deps.ts";

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

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * An empty body means no overrides whatever its Content-Type (some clients always send one);
 * a non-empty body must be declared JSON.
 */
const jsonBodyOrNone: MiddlewareHandler = async (c, next) => {
  // Hono caches the text, so the JSON validator parses it without reading the stream again.
  const text = c.req.raw.body ? await c.req.text() : "";
  if (text.trim() === "") {
    const headers = new Headers(c.req.raw.headers);
    headers.delete("content-type");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
  } else {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw httpError(
        415,
        "The request body must be JSON, sent with Content-Type: application/json",
      );
    }
  }
  await next();
};

const route = createRoute({
  method: "post",
  path: "/api/v1/calculate/{code}",
  summary: "Heating demand of a variant",
  description: "Without a body (or with an empty one) the archetype's inputs are used; each " +
    "member sent replaces one input, every other keeps the archetype value. Unknown members " +
    "are rejected. The request body is limited to 1 MiB.",
  middleware: [jsonBodyOrNone] as const,
  request: {
    params: codeParamsSchema,
    query: z.object({
      explain: z.enum(["true", "false"]).optional().openapi({
        description: "`true` adds every intermediate of the calculation as `explain`",
      }),
    }),
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
    400: errorResponse("Malformed code, unknown country, malformed JSON or invalid overrides"),
    404: errorResponse("Variant code not found"),
    413: errorResponse("Request body over 1 MiB"),
    415: errorResponse("A non-empty body that is not declared JSON"),
    500: errorResponse("The calculation failed or gave a non-finite result"),
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

/** The calculate route, as an app to mount. */
export function calculateRoutes({ typology, calculate }: HeatDeps): OpenAPIHono {
  const app = createOpenAPIApp();
  app.openapi(route, (c) => {
    const { code } = c.req.valid("param");
    const { row } = variantOf(typology, code);
    const result = runCalculation(calculate, code, row, c.req.valid("json"));
    const body = { variant_code: code, q_h_nd: result.q_h_nd, unit: Q_H_ND_UNIT };
    if (c.req.valid("query").explain === "true") {
      return c.json({ ...body, explain: { ...result.explain } }, 200);
    }
    return c.json(body, 200);
  }, validationHook(overridesSchema));
  return app;
}
