/**
 * The public catalogue reads, mounted at `/api/v1/technologies`: the list (paginated, filtered
 * by tag and lifecycle), `/category/{cat}`, `/{id}` with all instances, and the instance routes.
 * Everything comes from the snapshot in memory; the detail is JSON text made once.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import { filterTechnologies, type TechnologyFilter } from "../../lib/catalogue/catalogue_filter.ts";
import type { CatalogueSnapshot } from "../../lib/catalogue/catalogue_snapshot.ts";
import type { ServedTechnology } from "../../lib/catalogue/served_technology.ts";
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

const listResponses = {
  200: {
    description: "One page of technology summaries",
    content: { "application/json": { schema: technologyListSchema } },
  },
  400: apiError("Invalid query: skip, limit, tag or lifecycle (e.g. limit over 200)"),
};

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Catalogue"],
  summary: "Technologies, paginated and filtered",
  request: { query: technologyQuerySchema },
  responses: listResponses,
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
  return { total: matching.length, skip, limit, technologies: matching.slice(skip, skip + limit) };
}

/** The catalogue read routes, to mount at `/api/v1/technologies`. */
export function technologyRoutes({ catalogue }: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi(listRoute, (c) => {
    const { skip, limit, tag, lifecycle } = c.req.valid("query");
    return c.json(page(catalogue.current(), { tag, lifecycle }, skip, limit), 200);
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
    return c.json(
      { technology_id: technology.technology_id, instances: technology.instances },
      200,
    );
  });

  app.openapi(instanceRoute, (c) => {
    const { id, iid } = c.req.valid("param");
    const technology = technologyOr404(catalogue.current(), id);
    const instance = technology.instances.find((i) => i.instance_id === iid);
    if (!instance) throw httpError(404, `Technology "${id}" has no instance "${iid}"`);
    return c.json(instance, 200);
  });

  return app;
}
