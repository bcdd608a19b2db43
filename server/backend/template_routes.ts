/**
 * The template library's routes, to mount at `/api/templates` (TEMPLATE_ROUTES_BASE):
 * `GET /` lists the entries, `GET /{id}` serves one merged entry with `source` per value,
 * `POST /refresh` merges the catalogue's current values again. Errors are `{ error, details? }`.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { didYouMean } from "../../lib/model/key_suggestions.ts";
import { TECH_TYPES } from "../../lib/model/model_config.ts";
import { templateTechSchema } from "../../lib/templates/template_entry.ts";
import { TEMPLATE_CATEGORIES } from "../../lib/templates/template_ids.ts";
import type { TemplateLibrary } from "../../lib/templates/template_library.ts";
import {
  createOpenAPIApp,
  detailedErrorSchema,
  errorResponse,
  httpError,
} from "../middleware/errors.ts";

/** Where the backend mounts these routes. */
export const TEMPLATE_ROUTES_BASE = "/api/templates";

const dottedMap = (description: string, value: z.ZodType) =>
  z.record(z.string(), value).describe(description);

const templateListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  parent: z.enum(TECH_TYPES).describe("Calliope 0.6 parent (essentials.parent)"),
}).openapi("TemplateListItem");

const templateEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  parent: z.enum(TECH_TYPES),
  tech: templateTechSchema.describe(
    "Calliope 0.6 technology (essentials, constraints, costs by class) as the runner reads it",
  ),
  source: dottedMap(
    "Where each value of `tech` comes from, by dotted path (`constraints.energy_eff`): " +
      "`catalogue` (the technology catalogue's current value) or `built-in`",
    z.enum(["catalogue", "built-in"]),
  ),
  references: dottedMap("The reference of each value of `tech`, by dotted path", z.string()),
  units: dottedMap("The unit of each numeric value, by dotted path", z.string()),
  missing: z.array(z.string()).describe(
    "Keys no source gives a value for (Calliope's default applies; set them in the model)",
  ),
  notes: z.array(z.string()),
}).openapi("TemplateEntry");

const refreshSchema = z.object({
  catalogue: z.boolean().describe("Whether the catalogue answered"),
  updated: z.number().int().describe("Entries that took at least one value from the catalogue"),
}).openapi("TemplateRefresh");

const paramsSchema = z.object({
  id: z.string().max(100).openapi({
    param: { name: "id", in: "path" },
    description: "Template id, e.g. `onshore_wind`",
  }),
});

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Templates"],
  summary: "The technology templates",
  description: "The spec's template library, group by group: id, name, group and parent.",
  responses: {
    200: {
      description: "Every template (a bare array)",
      content: { "application/json": { schema: z.array(templateListItemSchema) } },
    },
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["Templates"],
  summary: "One template with the source of every value",
  description: "The built-in defaults with the catalogue's values merged over them when it " +
    "answered at start or at the last refresh.",
  request: { params: paramsSchema },
  responses: {
    200: {
      description: "The merged entry",
      content: { "application/json": { schema: templateEntrySchema } },
    },
    404: errorResponse("Unknown template id", detailedErrorSchema),
  },
});

const refreshRoute = createRoute({
  method: "post",
  path: "/refresh",
  tags: ["Templates"],
  summary: "Merge the catalogue's current values again",
  description: "Asks the catalogue for its Calliope values; when it does not answer, every " +
    "entry goes back to its built-in values.",
  responses: {
    200: {
      description: "Whether the catalogue answered and how many entries it updated",
      content: { "application/json": { schema: refreshSchema } },
    },
  },
});

/** The template routes over a library, to mount at TEMPLATE_ROUTES_BASE. */
export function templateRoutes(library: TemplateLibrary): OpenAPIHono {
  const app = createOpenAPIApp({ details: true });

  app.openapi(listRoute, (c) =>
    c.json(
      library.list().map(({ id, name, category, parent }) => ({ id, name, category, parent })),
      200,
    ));

  app.openapi(getRoute, (c) => {
    const { id } = c.req.valid("param");
    const entry = library.get(id);
    if (entry === undefined) {
      const ids = library.list().map((e) => e.id);
      throw httpError(404, `Unknown template "${id}"${didYouMean(id, ids)}`);
    }
    return c.json(entry as z.infer<typeof templateEntrySchema>, 200);
  });

  app.openapi(refreshRoute, async (c) => c.json(await library.refresh(), 200));

  return app;
}
