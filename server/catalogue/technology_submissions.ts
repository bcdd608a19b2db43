/**
 * Technology submissions: a contributor (valid token) submits one technology record in the
 * catalogue file format (`POST /api/v1/technologies/submit`); an admin lists and approves (the
 * record joins the served catalogue at once) or rejects it below
 * `/api/v1/admin/technologies/submissions`.
 *
 * Whether a record fits the catalogue (`lib/catalogue/submissions/technology_submission.ts`) is checked at
 * submission and again at approval, since the catalogue may have changed in between: a record
 * that no longer fits answers 409 and stays pending.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  mergeKindSchema,
  technologyListing,
  technologySubmissionSchema,
} from "../../lib/catalogue/submissions/technology_submission.ts";
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
import { throwRefusal, valueOrRefusal } from "./refusal.ts";
import { submissionReviewRoutes } from "./review_routes.ts";
import {
  apiError,
  submissionStatusQuery,
  technologySubmissionListSchema,
  technologySubmissionRecordSchema,
} from "./schemas.ts";

const submitResponse = z.object({
  submission_id: z.string(),
  status: z.literal("pending"),
  technology_id: z.string(),
  merge: mergeKindSchema,
}).openapi("TechnologySubmitResponse");

const submitRoute = createRoute({
  method: "post",
  path: "/submit",
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
    429: apiError(
      "The caller has MAX_PENDING_SUBMISSIONS submissions (technology and time series) pending " +
        "review already",
    ),
  },
});

const adminListRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Catalogue", "Admin"],
  summary: "Technology submissions (pending by default), paginated",
  description: "Only the records of the page are read; `total` counts all with the status.",
  security: BEARER_SECURITY,
  request: { query: submissionStatusQuery() },
  responses: {
    200: {
      description: "One page of submissions, in submission order",
      content: { "application/json": { schema: technologySubmissionListSchema } },
    },
    400: apiError("Unknown status, or invalid skip or limit (e.g. limit over 200)"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

/** The submit route, to mount at `/api/v1/technologies`. */
export function technologySubmitRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.openapi({ ...submitRoute, middleware: requireUser(deps) }, async (c) => {
    const result = await deps.desk.submitTechnology(
      c.req.valid("json"),
      personOf(c.get("principal")),
    );
    if (!result.ok) throwRefusal(result);
    const { submission_id, technology_id, merge } = result.value;
    return c.json({ submission_id, status: "pending" as const, technology_id, merge }, 202);
  });
  return app;
}

/** The admin list and review, to mount at `/api/v1/admin/technologies/submissions`. */
export function technologyReviewRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { desk, submissions } = deps;
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi({ ...adminListRoute, middleware: requireAdmin(deps) }, async (c) => {
    const { status, skip, limit } = c.req.valid("query");
    const [total, list] = await Promise.all([
      submissions.countTechnology(status),
      submissions.listTechnology(status, { skip, limit }),
    ]);
    return c.json({ total, skip, limit, submissions: list.map(technologyListing) }, 200);
  });

  app.route(
    "/",
    submissionReviewRoutes(deps, {
      tags: ["Catalogue", "Admin"],
      approveSummary: "Approve a submission: the record joins the served catalogue",
      schema: technologySubmissionRecordSchema,
      conflict:
        "The submission is not pending, or (approve) the record no longer fits the catalogue",
      review: async (action, id, by) =>
        technologyListing(valueOrRefusal(await desk.reviewTechnology(id, action, by))),
    }),
  );

  return app;
}
