/**
 * `/api/v1/variants/{country_iso2}`: a country's variant codes, and `/match`, the refurbishment
 * levels of one building type and construction period (or year).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { BUILDING_TYPES, periodOfYear } from "../../lib/heat/typology/periods.ts";
import { LEVEL_LABELS } from "../../lib/heat/typology/match.ts";
import { CODE_SEGMENT_PATTERN, variantPrefix } from "../../lib/heat/typology/variant_code.ts";
import {
  createOpenAPIApp,
  errorResponse,
  FORBIDDEN_RESPONSE,
  httpError,
} from "../middleware/errors.ts";
import { countryOf, countryParamsSchema } from "./country.ts";
import { SET_RULE, setQuerySchema } from "./variant_set.ts";
import type { HeatDeps } from "./deps.ts";
import type { Lookups } from "./lookups.ts";

const variantsResponseSchema = z
  .object({
    country: z.string().describe("Country name, a lower-case word, e.g. `germany`"),
    data: z.array(z.string()).describe("All variant codes of the country"),
  })
  .openapi("VariantsResponse");

const variantLevelSchema = z
  .object({
    code: z.string().describe("Variant code"),
    label: z.string().describe(
      `Level name: ${Object.values(LEVEL_LABELS).map((l) => `"${l}"`).join(", ")}`,
    ),
  })
  .openapi("VariantLevel");

const matchResponseSchema = z
  .object({
    country: z.string().describe("Country name"),
    prefix: z.string().describe(
      "Code prefix `<country>.<variant-set>.<type>.<period>` shared by the matched variants; " +
        "`<country>.<variant-set>.<type>` when the year falls in no period of the type",
    ),
    data: z.array(variantLevelSchema).describe("Ordered from existing state to most refurbished"),
  })
  .openapi("MatchResponse");

const yearSchema = z
  .string()
  .regex(/^-?\d+$/, "must be an integer")
  .transform(Number)
  .optional()
  .openapi({ type: "integer", description: "Construction year", example: 1965 });

/** A period segment (CODE_SEGMENT_PATTERN), optionally with its country as in `DE.02`. */
const PERIOD_PATTERN = /^([A-Z]{2}\.)?[A-Za-z0-9-]+$/;

const matchQuerySchema = z.object({
  type: z.enum(BUILDING_TYPES).openapi({
    description: "Building type: single-family house, terraced house, multi-family house, " +
      "apartment block",
  }),
  period: z.string().regex(
    PERIOD_PATTERN,
    `must match ${PERIOD_PATTERN.source} (a period as /api/v1/periods lists it, e.g. 02, or DE.02)`,
  ).optional().openapi({
    description: "Period code as `/api/v1/periods` lists it, e.g. `02`; `DE.02` is accepted too",
    example: "02",
  }),
  year: yearSchema,
  set: setQuerySchema,
});

const listRoute = createRoute({
  method: "get",
  path: "/{country_iso2}",
  summary: "All variant codes of a country",
  request: { params: countryParamsSchema },
  responses: {
    200: {
      description: "The country's variant codes",
      content: { "application/json": { schema: variantsResponseSchema } },
    },
    400: errorResponse("Unknown country, or one that does not match its pattern"),
    403: FORBIDDEN_RESPONSE,
  },
});

const matchRoute = createRoute({
  method: "get",
  path: "/{country_iso2}/match",
  summary: "Variant codes of a building type and period or year",
  description: "Exactly one of `period` and `year`. A year resolves to the period whose band " +
    "contains it for the country, set and type; a year with no archetype gives an empty " +
    "`data`. The levels are those of the main option of the type and period (the generic " +
    "building `Gen.ReEx.001`, variants `.001`, `.002`, `.003`). " + SET_RULE,
  request: { params: countryParamsSchema, query: matchQuerySchema },
  responses: {
    200: {
      description: "Levels from existing state to advanced refurbishment",
      content: { "application/json": { schema: matchResponseSchema } },
    },
    400: errorResponse(
      "Unknown country or set; a country, set or period that does not match its pattern; " +
        "missing or invalid type; neither or both of period and year; non-integer year",
    ),
    403: FORBIDDEN_RESPONSE,
  },
});

/**
 * The period segment of a `period` value: as given, or without the country in the dataset's
 * own form `DE.02`; 400 when it names another country.
 */
function periodSegment(period: string, iso2: string): string {
  if (CODE_SEGMENT_PATTERN.test(period)) return period;
  // Else PERIOD_PATTERN holds: `<country>.<segment>`.
  const segment = period.slice(3);
  if (period.slice(0, 2) !== iso2) {
    throw httpError(
      400,
      `Invalid query: period: "${period}" names another country than ${iso2}; ` +
        `give ${segment} or ${iso2}.${segment}`,
    );
  }
  return segment;
}

/** The variant routes, to mount at `/api/v1/variants`. */
export function variantRoutes({ typology }: HeatDeps, lookups: Lookups): OpenAPIHono {
  const app = createOpenAPIApp();

  app.openapi(listRoute, (c) => {
    const info = countryOf(typology, c.req.valid("param").country_iso2);
    return c.json({ country: info.name, data: [...typology.variantCodes(info.iso2)] }, 200);
  });

  app.openapi(matchRoute, (c) => {
    const info = countryOf(typology, c.req.valid("param").country_iso2);
    const query = c.req.valid("query");
    if ((query.period === undefined) === (query.year === undefined)) {
      throw httpError(400, "Invalid query: give exactly one of period and year");
    }
    const set = lookups.set(info.iso2, query.set);
    let period = query.period === undefined ? undefined : periodSegment(query.period, info.iso2);
    if (query.year !== undefined) {
      period = periodOfYear(lookups.periods(info.iso2, set, query.type), query.year)?.period;
    }
    if (period === undefined) {
      return c.json({
        country: info.name,
        prefix: [info.iso2, set, query.type].join("."),
        data: [],
      }, 200);
    }
    const key = { country: info.iso2, set, type: query.type, period };
    const data = lookups.levels(key);
    return c.json({
      country: info.name,
      prefix: variantPrefix(info.iso2, set, query.type, period),
      data,
    }, 200);
  });

  return app;
}
