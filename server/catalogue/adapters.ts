/**
 * The adapters: one technology instance as PyPSA component parameters (capital cost annualised
 * with the capital recovery factor) or as a Calliope 0.6 technology with its notes, omitted keys
 * and units under `/api/v1/adapt`; below
 * `/api/v1/technologies` all technologies as a Calliope `techs` block, and a Calliope
 * technology with constraint and cost overrides.
 *
 * Mount the technology group before the technology routes: `/technologies/calliope` must win
 * over `/technologies/{id}`.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  applyCalliopeOverrides,
  calliopeAnswer,
  toCalliopeReport,
  toCalliopeTechs,
} from "../../lib/catalogue/calliope/mod.ts";
import { isReservedKey, RESERVED_KEY_MESSAGE } from "../../lib/catalogue/adapters/own_keys.ts";
import { NoSuchInstanceError } from "../../lib/catalogue/adapters/pick_instance.ts";
import { toPyPSA } from "../../lib/catalogue/adapters/pypsa.ts";
import { DOMAINS } from "../../lib/catalogue/schema/technology_schema.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import {
  apiError,
  calliopeAnswerSchema,
  calliopeConfigSchema,
  calliopeOverridesSchema,
  calliopeTechsSchema,
  fuelQuery,
  instanceIndexQuery,
  numberQuery,
  pypsaSchema,
  technologyParamsSchema,
} from "./schemas.ts";
import { technologyOr404 } from "./technologies.ts";

const calliopeQuerySchema = z.object({
  instance_index: instanceIndexQuery,
  cost_class: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a word of letters, digits and _")
    .refine((name) => !isReservedKey(name), RESERVED_KEY_MESSAGE)
    .default("monetary")
    .openapi({ default: "monetary", description: "Cost class the costs go under" }),
  interest_rate: numberQuery(
    "`interest_rate` of the cost class, fraction, 0 to 1",
    0,
    1,
    0.07,
  ),
  fuel: fuelQuery,
});

const calliopeRequestErrors = {
  400: apiError(
    "Invalid instance_index, interest_rate or cost_class (a reserved name such as " +
      "`constructor` included)",
  ),
  404: apiError("Unknown technology id, or no instance at instance_index"),
};

const calliopeResponses = {
  200: {
    description: "`{ <technology_id>: { essentials, constraints, costs }, notes, omitted, " +
      "units }`: the tech block under the id is valid Calliope 0.6; `notes` say what is left " +
      "to the modeller, `omitted` the keys left to Calliope's defaults, `units` the unit of " +
      "every numeric key served",
    content: { "application/json": { schema: calliopeAnswerSchema } },
  },
  ...calliopeRequestErrors,
};

/** An optional decimal query parameter over 0 and at most 100,000 (hours, km). */
function positiveQuery(description: string) {
  return z
    .string()
    .regex(/^\d{1,6}(\.\d{1,6})?$/, "must be a decimal number")
    .transform(Number)
    .pipe(z.number().gt(0).max(100_000))
    .optional()
    .openapi({ type: "number", description });
}

const pypsaRoute = createRoute({
  method: "get",
  path: "/pypsa/{id}",
  tags: ["Adapters"],
  summary: "PyPSA component parameters of one instance",
  request: {
    params: technologyParamsSchema,
    query: z.object({
      instance_index: instanceIndexQuery,
      discount_rate: numberQuery("Discount rate as a fraction, 0 to 1", 0, 1, 0.07),
      max_hours: positiveQuery(
        "StorageUnit `max_hours` (h), over 0: with it `capital_cost` includes the energy part; " +
          "the catalogue gives no energy-to-power ratio",
      ),
      length_km: positiveQuery(
        "Link length (km), over 0: a line, cable or pipeline costed per kW and km needs it for " +
          "`capital_cost` (null without it)",
      ),
      fuel: fuelQuery,
    }),
  },
  responses: {
    200: {
      description: "Component type and parameters",
      content: { "application/json": { schema: pypsaSchema } },
    },
    400: apiError(
      "Invalid instance_index, discount_rate negative, over 1 or not a number, max_hours or " +
        "length_km not over 0, or fuel not true/false",
    ),
    404: apiError("Unknown technology id, or no instance at instance_index"),
  },
});

const calliopeAdaptRoute = createRoute({
  method: "get",
  path: "/calliope/{id}",
  tags: ["Adapters"],
  summary: "Calliope 0.6 configuration of one instance",
  request: { params: technologyParamsSchema, query: calliopeQuerySchema },
  responses: calliopeResponses,
});

const calliopeTechsRoute = createRoute({
  method: "get",
  path: "/calliope",
  tags: ["Adapters"],
  summary: "All technologies (first instance each) as a Calliope `techs` block",
  request: {
    query: z.object({
      category: z.enum(DOMAINS).optional().openapi({ description: "Only this domain" }),
      fuel: fuelQuery,
    }),
  },
  responses: {
    200: {
      description: "`{ techs: { <technology_id>: config } }`",
      content: {
        "application/json": {
          schema: calliopeTechsSchema,
        },
      },
    },
    400: apiError("Unknown category"),
  },
});

const calliopeTechRoute = createRoute({
  method: "get",
  path: "/{id}/calliope",
  tags: ["Adapters"],
  summary: "One technology in Calliope 0.6 form (same as /adapt/calliope/{id})",
  request: { params: technologyParamsSchema, query: calliopeQuerySchema },
  responses: calliopeResponses,
});

const calliopeOverrideRoute = createRoute({
  method: "post",
  path: "/{id}/calliope",
  tags: ["Adapters"],
  summary: "One technology in Calliope 0.6 form with constraint and cost overrides",
  description: "The body's `constraints` and `costs` replace (or add) members of the generated " +
    "configuration. Keys must be ones Calliope 0.6 knows and allows for the technology's parent.",
  request: {
    params: technologyParamsSchema,
    query: calliopeQuerySchema,
    body: {
      required: true,
      content: { "application/json": { schema: calliopeOverridesSchema } },
    },
  },
  responses: {
    200: {
      description: "`{ <technology_id>: { essentials, constraints, costs } }` with the overrides",
      content: { "application/json": { schema: calliopeConfigSchema } },
    },
    ...calliopeRequestErrors,
    400: apiError(
      "Unknown or non-numeric override keys, reserved names (`__proto__`, `constructor`, " +
        "`prototype`, ...) as keys, keys not allowed for the technology's parent, malformed " +
        "JSON, or invalid query",
    ),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
  },
});

/** An adapter's answer; a technology without the instance asked for is a 404. */
function adapt<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof NoSuchInstanceError) throw httpError(404, error.message);
    throw error;
  }
}

/** The Calliope form of one instance of a technology with notes, or a 404. */
function calliopeOf(
  { catalogue }: CatalogueDeps,
  id: string,
  query: { instance_index: number; cost_class: string; interest_rate: number; fuel: boolean },
) {
  const current = catalogue.current();
  const technology = technologyOr404(current, id);
  return adapt(() =>
    toCalliopeReport(technology, {
      instanceIndex: query.instance_index,
      costClass: query.cost_class,
      interestRate: query.interest_rate,
      fuels: current.source.fuels,
      fuel: query.fuel,
    })
  );
}

/** One instance in PyPSA or Calliope form, to mount at `/api/v1/adapt`. */
export function adapterRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi(pypsaRoute, (c) => {
    const { id } = c.req.valid("param");
    const { instance_index, discount_rate, max_hours, length_km, fuel } = c.req.valid("query");
    const current = deps.catalogue.current();
    const technology = technologyOr404(current, id);
    const result = adapt(() =>
      toPyPSA(technology, {
        instanceIndex: instance_index,
        discountRate: discount_rate,
        fuels: current.source.fuels,
        fuel,
        ...(max_hours === undefined ? {} : { maxHours: max_hours }),
        ...(length_km === undefined ? {} : { lengthKm: length_km }),
      })
    );
    return c.json(result, 200);
  });

  app.openapi(calliopeAdaptRoute, (c) => {
    const report = calliopeOf(deps, c.req.valid("param").id, c.req.valid("query"));
    return c.json(calliopeAnswer(report), 200);
  });

  return app;
}

/**
 * The Calliope forms of the technologies, to mount at `/api/v1/technologies` before the
 * technology routes (`/calliope` must win over `/{id}`).
 */
export function calliopeTechnologyRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi(calliopeTechsRoute, (c) => {
    const { category, fuel } = c.req.valid("query");
    const current = deps.catalogue.current();
    return c.json(
      toCalliopeTechs(current.technologies, category, { fuels: current.source.fuels, fuel }),
      200,
    );
  });

  app.openapi(calliopeTechRoute, (c) => {
    const report = calliopeOf(deps, c.req.valid("param").id, c.req.valid("query"));
    return c.json(calliopeAnswer(report), 200);
  });

  app.openapi(calliopeOverrideRoute, async (c) => {
    const { config } = calliopeOf(deps, c.req.valid("param").id, c.req.valid("query"));
    // The body as parsed, before the schema: the schema drops a `__proto__` key silently, the
    // overrides refuse it.
    const body: unknown = await c.req.json();
    try {
      return c.json(applyCalliopeOverrides(config, body), 200);
    } catch (error) {
      // The body passed the schema; what is left is a reserved name, or a key the technology's
      // parent does not allow.
      if (error instanceof TypeError) {
        throw httpError(400, `Invalid request body: ${error.message}`);
      }
      throw error;
    }
  });

  return app;
}
