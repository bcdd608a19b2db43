/**
 * The public catalogue reads, mounted at `/api/v1/technologies`: the list (paginated, filtered
 * by Calliope type, tag and lifecycle), `/category/{cat}`, `/{id}` with all instances, the
 * instance routes, and `POST /batch` (several details at once, for the modelling frontend).
 * Everything comes from the snapshot in memory; the detail is JSON text made once.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import { CALLIOPE_PARENTS } from "../../lib/catalogue/calliope/mod.ts";
import {
  opentechInstance,
  withOpentechSummary,
} from "../../lib/catalogue/opentech/opentech_technology.ts";
import {
  filterTechnologies,
  type TechnologyFilter,
} from "../../lib/catalogue/served/catalogue_filter.ts";
import type { CatalogueSnapshot } from "../../lib/catalogue/served/catalogue_snapshot.ts";
import type { ServedTechnology } from "../../lib/catalogue/served/served_technology.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import {
  apiError,
  categoryParamsSchema,
  instanceSchema,
  technologyDetailSchema,
  technologyListSchema,
  technologyParamsSchema,
  technologyQuerySchema,
} from "./schemas.ts";

const instanceListSchema = z.object({
  technology_id: z.string(),
  instances: z.array(instanceSchema),
}).openapi("InstanceList");

/** Most ids one batch request may ask for (the largest page of the list). */
export const MAX_BATCH_IDS = 200;

/** The list's filters: those of every technology list, and the Calliope type. */
const listQuerySchema = technologyQuerySchema.extend({
  type: z.enum(CALLIOPE_PARENTS).optional().openapi({
    description: "Calliope 0.6 parent the catalogue's Calliope adapter gives the technology: " +
      "`supply`, `supply_plus` (variable renewables: a profile or a `variable` tag), " +
      "`storage`, `transmission` or `conversion`",
    example: "storage",
  }),
});

const listResponses = {
  200: {
    description: "One page of technology summaries",
    content: { "application/json": { schema: technologyListSchema } },
  },
  400: apiError("Invalid query: skip, limit, type, tag or lifecycle (e.g. limit 0)"),
};

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Catalogue"],
  summary: "Technologies, paginated and filtered",
  request: { query: listQuerySchema },
  responses: listResponses,
});

const batchRequestSchema = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).min(1).max(MAX_BATCH_IDS).openapi({
    description: `Technology ids, 1 to ${MAX_BATCH_IDS}; an id asked twice is answered once`,
    example: ["onshore_wind", "lithium_ion_bess", "no_such_technology"],
  }),
}).openapi("TechnologyBatchRequest");

const batchResponseSchema = z.object({
  technologies: z.array(technologyDetailSchema).describe(
    "The known technologies with all their instances, in the order asked",
  ),
  unknown: z.array(z.string()).describe("The ids asked for that the catalogue does not have"),
}).openapi("TechnologyBatch");

const batchRoute = createRoute({
  method: "post",
  path: "/batch",
  tags: ["Catalogue"],
  summary: "Several technologies by id, with all their instances",
  description: "Each known id's detail as `GET /{id}` gives it, in the order asked; unknown " +
    "ids are listed in `unknown` and do not fail the request.",
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: batchRequestSchema } },
    },
  },
  responses: {
    200: {
      description: "The technologies found, and the ids not found",
      content: { "application/json": { schema: batchResponseSchema } },
    },
    400: apiError(
      `Malformed JSON, no \`ids\`, an empty list or more than ${MAX_BATCH_IDS} ids, an id that ` +
        "is not a non-empty string, or other members",
    ),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
  },
});

const categoryRoute = createRoute({
  method: "get",
  path: "/category/{cat}",
  tags: ["Catalogue"],
  summary: "Technologies of one category (domain)",
  request: { params: categoryParamsSchema, query: technologyQuerySchema },
  responses: {
    ...listResponses,
    400: apiError("Unknown category, or invalid query"),
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["Catalogue"],
  summary: "One technology with all its instances",
  description: "`oeo_class` is the last segment of the class IRI, `oeo_uri` the full IRI. A " +
    "field the source lacks is null; each instance lists those spec fields in `missing_fields`.",
  request: { params: technologyParamsSchema },
  responses: {
    200: {
      description: "The technology",
      content: { "application/json": { schema: technologyDetailSchema } },
    },
    404: apiError("Unknown technology id"),
  },
});

const instancesRoute = createRoute({
  method: "get",
  path: "/{id}/instances",
  tags: ["Catalogue"],
  summary: "All instances of a technology",
  request: { params: technologyParamsSchema },
  responses: {
    200: {
      description: "The instances",
      content: { "application/json": { schema: instanceListSchema } },
    },
    404: apiError("Unknown technology id"),
  },
});

const instanceRoute = createRoute({
  method: "get",
  path: "/{id}/instances/{iid}",
  tags: ["Catalogue"],
  summary: "One instance",
  request: {
    params: technologyParamsSchema.extend({
      iid: z.string().openapi({ param: { name: "iid", in: "path" } }),
    }),
  },
  responses: {
    200: {
      description: "The instance",
      content: { "application/json": { schema: instanceSchema } },
    },
    404: apiError("Unknown technology or instance id"),
  },
});

/** The technology of `id` in the snapshot, or a 404. */
export function technologyOr404(snapshot: CatalogueSnapshot, id: string): ServedTechnology {
  const technology = snapshot.technology(id);
  if (!technology) throw httpError(404, `Technology "${id}" not found`);
  return technology;
}

/**
 * A 200 with JSON text made earlier, typed as the route's JSON answer: the text is the
 * serialisation of a value of type `T`, cached so that it is not made on every request.
 */
export function jsonText<T>(c: Context, text: string): TypedResponse<T, 200, "json"> {
  c.header("Content-Type", "application/json");
  return c.body(text, 200) as unknown as TypedResponse<T, 200, "json">;
}

function page(snapshot: CatalogueSnapshot, filter: TechnologyFilter, skip: number, limit: number) {
  const matching = filterTechnologies(snapshot, filter);
  return {
    total: matching.length,
    skip,
    limit,
    technologies: matching.slice(skip, skip + limit).map(withOpentechSummary),
  };
}

/** The catalogue read routes, to mount at `/api/v1/technologies`. */
export function technologyRoutes({ catalogue }: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi(listRoute, (c) => {
    const { skip, limit, type, tag, lifecycle } = c.req.valid("query");
    return c.json(page(catalogue.current(), { type, tag, lifecycle }, skip, limit), 200);
  });

  app.openapi(batchRoute, (c) => {
    const { ids } = c.req.valid("json");
    const current = catalogue.current();
    const found: string[] = [];
    const unknown: string[] = [];
    for (const id of new Set(ids)) {
      const text = current.technologyJson(id);
      if (text === undefined) unknown.push(id);
      else found.push(text);
    }
    // The details are cached JSON text: joined, not parsed and serialised again.
    const text = `{"technologies":[${found.join(",")}],"unknown":${JSON.stringify(unknown)}}`;
    return jsonText<z.infer<typeof batchResponseSchema>>(c, text);
  });

  app.openapi(categoryRoute, (c) => {
    const { cat } = c.req.valid("param");
    const { skip, limit, tag, lifecycle } = c.req.valid("query");
    return c.json(page(catalogue.current(), { domain: cat, tag, lifecycle }, skip, limit), 200);
  });

  app.openapi(detailRoute, (c) => {
    const { id } = c.req.valid("param");
    const text = catalogue.current().technologyJson(id);
    if (text === undefined) throw httpError(404, `Technology "${id}" not found`);
    return jsonText<z.infer<typeof technologyDetailSchema>>(c, text);
  });

  app.openapi(instancesRoute, (c) => {
    const { id } = c.req.valid("param");
    const technology = technologyOr404(catalogue.current(), id);
    const instances = technology.instances.map((i) => ({
      ...i,
      ...opentechInstance(i, technology.carrier),
    }));
    return c.json({ technology_id: technology.technology_id, instances }, 200);
  });

  app.openapi(instanceRoute, (c) => {
    const { id, iid } = c.req.valid("param");
    const technology = technologyOr404(catalogue.current(), id);
    const instance = technology.instances.find((i) => i.instance_id === iid);
    if (!instance) throw httpError(404, `Technology "${id}" has no instance "${iid}"`);
    return c.json({ ...instance, ...opentechInstance(instance, technology.carrier) }, 200);
  });

  return app;
}
