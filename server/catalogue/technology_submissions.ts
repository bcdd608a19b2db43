/**
 * Technology submissions: a contributor (valid token) submits one technology record in the
 * catalogue file format; an admin approves (the record joins the served catalogue at once) or
 * rejects it.
 *
 * Merge: a record whose `technology_id` is new becomes a new technology; one whose technology
 * exists adds its instances to it (same domain required, instance ids must be new; the
 * technology's own fields stay as the catalogue has them). This is checked at submission and
 * again at approval, since the catalogue may have changed in between: a record that no longer
 * fits answers 409 and stays pending.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  type TechnologySubmission,
  technologySubmissionSchema,
} from "../../lib/catalogue/submissions.ts";
import { createOpenAPIApp } from "../middleware/errors.ts";
import {
  BEARER_SECURITY,
  FORBIDDEN,
  personOf,
  requireAdmin,
  requireUser,
  UNAUTHORIZED,
} from "./auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { throwRefusal } from "./refusal.ts";
import { apiError, submissionShape } from "./schemas.ts";
import { API } from "./technologies.ts";

const mergeSchema = z.enum(["new_technology", "new_instances"]).describe(
  "`new_technology`: the record becomes a new technology; `new_instances`: its instances are " +
    "added to the existing technology of the same id",
);

const technologySubmissionRecordSchema = z.object({
  ...submissionShape,
  technology_id: z.string(),
  merge: mergeSchema,
  instance_ids: z.array(z.string()).describe("Instances the record adds"),
  record: technologySubmissionSchema.describe("The record as submitted (catalogue format)"),
}).openapi("TechnologySubmission");

const submitResponse = z.object({
  submission_id: z.string(),
  status: z.literal("pending"),
  technology_id: z.string(),
  merge: mergeSchema,
}).openapi("TechnologySubmitResponse");

const submitRoute = createRoute({
  method: "post",
  path: `${API}/technologies/submit`,
  tags: ["Catalogue"],
  summary: "Submit a technology record for review",
  description: "Needs a valid token. The body is one technology record as in a catalogue file " +
    "(`oeo_class` a full IRI, flat instance fields, at least one instance).",
  security: BEARER_SECURITY,
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: technologySubmissionSchema } },
    },
  },
  responses: {
    202: {
      description: "Queued for review",
      content: { "application/json": { schema: submitResponse } },
    },
    400: apiError("Not a valid technology record, or malformed JSON"),
    401: UNAUTHORIZED,
    409: apiError(
      "The record cannot join the catalogue: an instance id the technology has already, a " +
        "different domain than the existing technology, duplicate instance ids, or oeo_class " +
        "and oeo_uri naming different classes",
    ),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
  },
});

const adminListRoute = createRoute({
  method: "get",
  path: `${API}/admin/technologies/submissions`,
  tags: ["Catalogue", "Admin"],
  summary: "Technology submissions (pending by default)",
  security: BEARER_SECURITY,
  request: {
    query: z.object({
      status: z.enum(["pending", "approved", "rejected"]).default("pending").openapi({
        default: "pending",
      }),
    }),
  },
  responses: {
    200: {
      description: "Submissions in submission order",
      content: {
        "application/json": {
          schema: z.object({ submissions: z.array(technologySubmissionRecordSchema) }),
        },
      },
    },
    400: apiError("Unknown status"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

function reviewRoute(action: "approve" | "reject") {
  return createRoute({
    method: "patch",
    path: `${API}/admin/technologies/submissions/{id}/${action}`,
    tags: ["Catalogue", "Admin"],
    summary: action === "approve"
      ? "Approve a submission: the record joins the served catalogue"
      : "Reject a submission",
    security: BEARER_SECURITY,
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) }),
    },
    responses: {
      200: {
        description: "The reviewed submission",
        content: { "application/json": { schema: technologySubmissionRecordSchema } },
      },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      404: apiError("Unknown submission id"),
      409: apiError(
        "The submission is not pending, or (approve) the record no longer fits the catalogue",
      ),
    },
  });
}

function listed(s: TechnologySubmission) {
  return {
    submission_id: s.submission_id,
    status: s.status,
    submitted_by: s.submitted_by,
    submitted_at: s.submitted_at,
    reviewed_by: s.reviewed_by,
    reviewed_at: s.reviewed_at,
    technology_id: s.technology_id,
    merge: s.merge,
    instance_ids: s.record.instances.map((i) => i.instance_id),
    record: s.record,
  };
}

/** The technology submission routes, as an app to mount. */
export function technologySubmissionRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { desk, submissions } = deps;
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi({ ...submitRoute, middleware: requireUser(deps) }, async (c) => {
    const result = await desk.submitTechnology(c.req.valid("json"), personOf(c.get("principal")));
    if (!result.ok) throwRefusal(result);
    const { submission_id, technology_id, merge } = result.value;
    return c.json({ submission_id, status: "pending" as const, technology_id, merge }, 202);
  });

  app.openapi({ ...adminListRoute, middleware: requireAdmin(deps) }, async (c) => {
    const list = await submissions.listTechnology(c.req.valid("query").status);
    return c.json({ submissions: list.map(listed) }, 200);
  });

  for (const action of ["approve", "reject"] as const) {
    app.openapi(
      { ...reviewRoute(action), middleware: requireAdmin(deps) },
      async (c) => {
        const { id } = c.req.valid("param");
        const result = await desk.reviewTechnology(id, action, personOf(c.get("principal")));
        if (!result.ok) throwRefusal(result);
        return c.json(listed(result.value), 200);
      },
    );
  }

  return app;
}
