/**
 * The adapters: one technology instance as PyPSA component parameters (capital cost annualised
 * with the capital recovery factor) or as a Calliope 0.6 technology, all technologies as a
 * Calliope `techs` block, and a Calliope technology with constraint and cost overrides.
 *
 * Mount before the technology routes: `/technologies/calliope` must win over
 * `/technologies/{id}`.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  applyCalliopeOverrides,
  CalliopeOverridesSchema,
  toCalliope,
  toCalliopeTechs,
} from "../../lib/catalogue/calliope.ts";
import { toPyPSA } from "../../lib/catalogue/pypsa.ts";
import { DOMAINS } from "../../lib/catalogue/technology_schema.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { apiError, instanceIndexQuery, numberQuery, technologyParamsSchema } from "./schemas.ts";
import { API, technologyOr404 } from "./technologies.ts";

const pypsaSchema = z.object({
  technology_id: z.string(),
  instance_index: z.number().int(),
  instance_id: z.string(),
  component_type: z.enum(["Generator", "StorageUnit", "Link"]).describe(
    "generation: Generator; storage: StorageUnit; transmission and conversion: Link",
  ),
  discount_rate: z.number(),
  parameters: z.object({
    carrier: z.string(),
    efficiency: z.number().nullable().describe("efficiency_percent / 100; per unit"),
    capital_cost: z.number().nullable().describe(
      "USD/MW/a: capex × 1000 × CRF(discount rate, lifetime) + fixed O&M × 1000",
    ),
    marginal_cost: z.number().nullable().describe("opex_var_usd_per_mwh; USD/MWh"),
    co2_emissions: z.number().nullable().describe("g/kWh / 1000; tCO2/MWh"),
    lifetime: z.number().nullable().describe("lifetime_years; a"),
  }),
  capital_cost_parts: z.object({
    crf: z.number().nullable(),
    annuitised_capex: z.number().nullable(),
    fixed_om: z.number().nullable(),
  }),
  units: z.record(z.string(), z.string()),
  missing: z.array(z.string()).describe(
    "Catalogue fields not given: what is built on them is null",
  ),
  notes: z.array(z.string()),
}).openapi("PyPSAParameters");

const calliopeTechSchema = z.object({
  essentials: z.object({
    name: z.string(),
    color: z.string(),
    carrier_in: z.string().optional(),
    carrier_out: z.string(),
    parent: z.string(),
  }),
  constraints: z.record(z.string(), z.number().optional()),
  costs: z.record(z.string(), z.record(z.string(), z.number().optional())),
}).openapi("CalliopeTech");

const calliopeConfigSchema = z.record(z.string(), calliopeTechSchema).openapi("CalliopeConfig", {
  description: "Calliope 0.6 technologies keyed by technology id, as under `techs:`",
});

const calliopeQuerySchema = z.object({
  instance_index: instanceIndexQuery,
  cost_class: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a word of letters, digits and _")
    .default("monetary")
    .openapi({ default: "monetary", description: "Cost class the costs go under" }),
});

const calliopeResponses = {
  200: {
    description: "`{ <technology_id>: { essentials, constraints, costs } }`",
    content: { "application/json": { schema: calliopeConfigSchema } },
  },
  400: apiError("Invalid instance_index or cost_class"),
  404: apiError("Unknown technology id, or no instance at instance_index"),
};

const pypsaRoute = createRoute({
  method: "get",
  path: `${API}/adapt/pypsa/{id}`,
  tags: ["Adapters"],
  summary: "PyPSA component parameters of one instance",
  request: {
    params: technologyParamsSchema,
    query: z.object({
      instance_index: instanceIndexQuery,
      discount_rate: numberQuery("Discount rate as a fraction, 0 to 1", 0, 1, 0.07),
    }),
  },
  responses: {
    200: {
      description: "Component type and parameters",
      content: { "application/json": { schema: pypsaSchema } },
    },
    400: apiError("Invalid instance_index, or discount_rate negative, over 1 or not a number"),
    404: apiError("Unknown technology id, or no instance at instance_index"),
  },
});

const calliopeAdaptRoute = createRoute({
  method: "get",
  path: `${API}/adapt/calliope/{id}`,
  tags: ["Adapters"],
  summary: "Calliope 0.6 configuration of one instance",
  request: { params: technologyParamsSchema, query: calliopeQuerySchema },
  responses: calliopeResponses,
});

const calliopeTechsRoute = createRoute({
  method: "get",
  path: `${API}/technologies/calliope`,
  tags: ["Adapters"],
  summary: "All technologies (first instance each) as a Calliope `techs` block",
  request: {
    query: z.object({
      category: z.enum(DOMAINS).optional().openapi({ description: "Only this domain" }),
    }),
  },
  responses: {
    200: {
      description: "`{ techs: { <technology_id>: config } }`",
      content: {
        "application/json": {
          schema: z.object({ techs: calliopeConfigSchema }).openapi("CalliopeTechs"),
        },
      },
    },
    400: apiError("Unknown category"),
  },
});

const calliopeTechRoute = createRoute({
  method: "get",
  path: `${API}/technologies/{id}/calliope`,
  tags: ["Adapters"],
  summary: "One technology in Calliope 0.6 form (same as /adapt/calliope/{id})",
  request: { params: technologyParamsSchema, query: calliopeQuerySchema },
  responses: calliopeResponses,
});

const calliopeOverrideRoute = createRoute({
  method: "post",
  path: `${API}/technologies/{id}/calliope`,
  tags: ["Adapters"],
  summary: "One technology in Calliope 0.6 form with constraint and cost overrides",
  description: "The body's `constraints` and `costs` replace (or add) members of the generated " +
    "configuration. Keys must be ones Calliope 0.6 knows and allows for the technology's parent.",
  request: {
    params: technologyParamsSchema,
    query: calliopeQuerySchema,
    body: {
      required: true,
      content: { "application/json": { schema: CalliopeOverridesSchema } },
    },
  },
  responses: {
    ...calliopeResponses,
    400: apiError(
      "Unknown or non-numeric override keys, keys not allowed for the technology's parent, " +
        "malformed JSON, or invalid query",
    ),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
  },
});

/** A RangeError of an adapter (no such instance) as a 404. */
function adapt<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError) throw httpError(404, error.message);
    throw error;
  }
}

/** The adapter routes, as an app to mount. */
export function adapterRoutes({ catalogue }: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi(calliopeTechsRoute, (c) => {
    const { category } = c.req.valid("query");
    return c.json(toCalliopeTechs(catalogue.current().technologies, category), 200);
  });

  app.openapi(pypsaRoute, (c) => {
    const { id } = c.req.valid("param");
    const { instance_index, discount_rate } = c.req.valid("query");
    const technology = technologyOr404(catalogue.current(), id);
    const result = adapt(() =>
      toPyPSA(technology, { instanceIndex: instance_index, discountRate: discount_rate })
    );
    return c.json(result, 200);
  });

  const calliope = (id: string, instanceIndex: number, costClass: string) => {
    const technology = technologyOr404(catalogue.current(), id);
    return adapt(() => toCalliope(technology, { instanceIndex, costClass }));
  };

  app.openapi(calliopeAdaptRoute, (c) => {
    const { instance_index, cost_class } = c.req.valid("query");
    return c.json(calliope(c.req.valid("param").id, instance_index, cost_class), 200);
  });

  app.openapi(calliopeTechRoute, (c) => {
    const { instance_index, cost_class } = c.req.valid("query");
    return c.json(calliope(c.req.valid("param").id, instance_index, cost_class), 200);
  });

  app.openapi(calliopeOverrideRoute, (c) => {
    const { instance_index, cost_class } = c.req.valid("query");
    const config = calliope(c.req.valid("param").id, instance_index, cost_class);
    try {
      return c.json(applyCalliopeOverrides(config, c.req.valid("json")), 200);
    } catch (error) {
      // The body passed the schema; what is left is a key the technology's parent does not allow.
      if (error instanceof TypeError) {
        throw httpError(400, `Invalid request body: ${error.message}`);
      }
      throw error;
    }
  });

  return app;
}
