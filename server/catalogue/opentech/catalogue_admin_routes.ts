/**
 * OpenTech-DB's catalogue management, admin only: `GET /admin/technologies` (every served
 * technology in the catalogue file form its edit form reads), `PATCH /admin/technologies/{id}`
 * (name, carrier, class, description, instances) and `DELETE /admin/technologies/{id}`.
 *
 * The data files are never written: an edit or delete is kept in the state store and applied
 * over the files on every load (`lib/catalogue/submissions/catalogue_editor.ts`).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { technologyPatchSchema } from "../../../lib/catalogue/submissions/technology_patch.ts";
import type { ServedTechnology } from "../../../lib/catalogue/served/served_technology.ts";
import { createOpenAPIApp } from "../../middleware/errors.ts";
import { BEARER_SECURITY, FORBIDDEN, personOf, requireAdmin, UNAUTHORIZED } from "../auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "../deps.ts";
import { valueOrRefusal } from "../refusal.ts";
import { apiError, idParamsSchema } from "../schemas.ts";
import { OPENTECH_NOTE, OPENTECH_TAGS } from "./frontend_tag.ts";

const entrySchema = z.record(z.string(), z.unknown()).openapi("OpentechCatalogueEntry", {
  description: "`technology_id`, `technology_name`, `domain`, `carrier`, `oeo_class` (full " +
    "IRI), `description`, `instances` (catalogue file form, with `capacity_mw` = " +
    "`typical_capacity_mw`), `source` (`catalogue_file`, or `submission` for a technology an approved submission added)",
});

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: OPENTECH_TAGS,
  summary: "Every served technology, for editing",
  description: OPENTECH_NOTE + "Admin only.",
  security: BEARER_SECURITY,
  responses: {
    200: {
      description: "The technologies, a bare array",
      content: { "application/json": { schema: z.array(entrySchema) } },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

const patchRoute = createRoute({
  method: "patch",
  path: "/{id}",
  tags: OPENTECH_TAGS,
  summary: "Edit a served technology",
  description: OPENTECH_NOTE + "Admin only. `instances`, when given, replace all instances.",
  security: BEARER_SECURITY,
  request: {
    params: idParamsSchema,
    body: {
      required: true,
      content: {
        "application/json": { schema: technologyPatchSchema.openapi("OpentechTechnologyPatch") },
      },
    },
  },
  responses: {
    200: {
      description: "Updated",
      content: {
        "application/json": {
          schema: z.object({ status: z.literal("updated"), technology_id: z.string() }),
        },
      },
    },
    400: apiError(
      "Invalid patch: unknown members, or a technology that would be invalid " +
        "(every problem in `details.problems`)",
    ),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown technology id"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags: OPENTECH_TAGS,
  summary: "Stop serving a technology",
  description: OPENTECH_NOTE + "Admin only.",
  security: BEARER_SECURITY,
  request: { params: idParamsSchema },
  responses: {
    200: {
      description: "Deleted",
      content: {
        "application/json": {
          schema: z.object({
            status: z.literal("deleted"),
            technology_id: z.string(),
            technology_name: z.string(),
          }),
        },
      },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown technology id"),
  },
});

/** A served technology in the catalogue file form the frontend's edit form reads. */
export function catalogueEntry(t: ServedTechnology, fromFiles: boolean) {
  return {
    technology_id: t.technology_id,
    technology_name: t.technology_name,
    domain: t.domain,
    carrier: t.carrier,
    oeo_class: t.oeo_uri ?? "",
    description: t.description ?? "",
    instances: t.instances.map(({ missing_fields: _missing, ...instance }) => ({
      ...instance,
      capacity_mw: instance.typical_capacity_mw,
    })),
    source: fromFiles ? "catalogue_file" : "submission",
  };
}

/** The catalogue management routes, to mount at `/api/v1/admin/technologies`. */
export function catalogueAdminRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  const admin = requireAdmin(deps);
  app.openapi({ ...listRoute, middleware: admin }, (c) => {
    const snapshot = deps.catalogue.current();
    const files = new Set(snapshot.source.technologies.map((t) => t.technology_id));
    return c.json(
      snapshot.technologies.map((t) => catalogueEntry(t, files.has(t.technology_id))),
      200,
    );
  });
  app.openapi({ ...patchRoute, middleware: admin }, async (c) => {
    const { id } = c.req.valid("param");
    const edited = valueOrRefusal(
      await deps.editor.edit(id, c.req.valid("json"), personOf(c.get("principal"))),
    );
    return c.json({ status: "updated" as const, technology_id: edited.technology_id }, 200);
  });
  app.openapi({ ...deleteRoute, middleware: admin }, async (c) => {
    const { id } = c.req.valid("param");
    const removed = valueOrRefusal(await deps.editor.remove(id, personOf(c.get("principal"))));
    return c.json({ status: "deleted" as const, ...removed }, 200);
  });
  return app;
}
