/**
 * Time series: the public profile list and data (from memory; a profile's data is JSON text made
 * once), contributor submissions (valid token) and their review (admin): an approved profile is
 * served at once by `/timeseries` and `/timeseries/{id}/data`.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { filterProfiles } from "../../lib/catalogue/catalogue_service.ts";
import {
  type TimeseriesSubmission,
  timeseriesSubmissionSchema,
} from "../../lib/catalogue/submissions.ts";
import { max, mean, min } from "../../lib/profiles/statistics.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
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
import {
  apiError,
  pageQueryShape,
  profileDataSchema,
  servedProfileMetadataSchema,
  submissionShape,
  submitResponseSchema,
} from "./schemas.ts";
import { API, jsonText } from "./technologies.ts";

const profileListSchema = z.object({
  total: z.number().int().describe("Profiles matching the filters"),
  skip: z.number().int(),
  limit: z.number().int(),
  profiles: z.array(servedProfileMetadataSchema),
}).openapi("ProfileList");

const submittedProfileSchema = z.object({
  profile_id: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  resolution: z.string(),
  location: z.string().nullable(),
  carrier: z.string().nullable(),
  year: z.number().int().nullable(),
  source: z.string().nullable(),
  unit: z.string().nullable(),
  n_timesteps: z.number().int(),
  statistics: z.object({ min: z.number(), max: z.number(), mean: z.number() }).describe(
    "Of the submitted values, for the review",
  ),
});

const timeseriesSubmissionRecordSchema = z.object({
  ...submissionShape,
  profile: submittedProfileSchema.describe("The submitted metadata (values left out)"),
}).openapi("TimeseriesSubmission");

const statusQuery = z.object({
  status: z.enum(["pending", "approved", "rejected"]).default("pending").openapi({
    default: "pending",
    description: "Which submissions to list",
  }),
});

const idParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
});

const listRoute = createRoute({
  method: "get",
  path: `${API}/timeseries`,
  tags: ["Time series"],
  summary: "Profile metadata, paginated and filtered",
  request: {
    query: z.object({
      ...pageQueryShape,
      type: z.string().min(1).optional().openapi({ description: "e.g. `capacity_factor`" }),
      location: z.string().min(1).optional().openapi({ description: "e.g. `DE`" }),
    }),
  },
  responses: {
    200: {
      description: "One page of profile metadata",
      content: { "application/json": { schema: profileListSchema } },
    },
    400: apiError("Invalid skip or limit"),
  },
});

const dataRoute = createRoute({
  method: "get",
  path: `${API}/timeseries/{id}/data`,
  tags: ["Time series"],
  summary: "One profile with its values",
  request: { params: idParams },
  responses: {
    200: {
      description: "Metadata and `values`",
      content: { "application/json": { schema: profileDataSchema } },
    },
    404: apiError("Unknown profile id"),
  },
});

const submitRoute = createRoute({
  method: "post",
  path: `${API}/timeseries/submit`,
  tags: ["Time series"],
  summary: "Submit a profile for review",
  description: "Needs a valid token. The profile is listed for admin review as pending and " +
    "served once approved. Values: finite numbers, 1 to 35,136 of them; capacity factors " +
    "within [0, 1]. A profile id in the catalogue or in a pending or approved submission is " +
    "refused with 409.",
  security: BEARER_SECURITY,
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: timeseriesSubmissionSchema } },
    },
  },
  responses: {
    202: {
      description: "Queued for review",
      content: { "application/json": { schema: submitResponseSchema } },
    },
    400: apiError("Invalid body (missing members, bad values) or malformed JSON"),
    401: UNAUTHORIZED,
    409: apiError("The profile id is already used"),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
  },
});

const adminListRoute = createRoute({
  method: "get",
  path: `${API}/admin/timeseries/submissions`,
  tags: ["Time series", "Admin"],
  summary: "Time-series submissions (pending by default)",
  security: BEARER_SECURITY,
  request: { query: statusQuery },
  responses: {
    200: {
      description: "Submissions in submission order",
      content: {
        "application/json": {
          schema: z.object({ submissions: z.array(timeseriesSubmissionRecordSchema) }),
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
    path: `${API}/admin/timeseries/{id}/${action}`,
    tags: ["Time series", "Admin"],
    summary: action === "approve"
      ? "Approve a submission: the profile is served at once"
      : "Reject a submission",
    security: BEARER_SECURITY,
    request: { params: idParams },
    responses: {
      200: {
        description: "The reviewed submission",
        content: { "application/json": { schema: timeseriesSubmissionRecordSchema } },
      },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      404: apiError("Unknown submission id"),
      409: apiError(
        "The submission is not pending (reviewed already), or its profile id is now in the " +
          "catalogue",
      ),
    },
  });
}

/** A submission as listed: the metadata and statistics of its values, not the values. */
function listed(s: TimeseriesSubmission) {
  const { values, ...metadata } = s.profile;
  return {
    submission_id: s.submission_id,
    status: s.status,
    submitted_by: s.submitted_by,
    submitted_at: s.submitted_at,
    reviewed_by: s.reviewed_by,
    reviewed_at: s.reviewed_at,
    profile: {
      ...metadata,
      n_timesteps: values.length,
      statistics: { min: min(values), max: max(values), mean: mean(values) },
    },
  };
}

/** The time-series routes, as an app to mount. */
export function timeseriesRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { catalogue, desk, submissions } = deps;
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi(listRoute, (c) => {
    const { skip, limit, type, location } = c.req.valid("query");
    const matching = filterProfiles(catalogue.current(), { type, location });
    return c.json({
      total: matching.length,
      skip,
      limit,
      profiles: matching.slice(skip, skip + limit),
    }, 200);
  });

  app.openapi(dataRoute, (c) => {
    const { id } = c.req.valid("param");
    const text = catalogue.current().profileDataJson(id);
    if (text === undefined) throw httpError(404, `Profile "${id}" not found`);
    return jsonText<z.infer<typeof profileDataSchema>>(c, text);
  });

  app.openapi({ ...submitRoute, middleware: requireUser(deps) }, async (c) => {
    const result = await desk.submitTimeseries(c.req.valid("json"), personOf(c.get("principal")));
    if (!result.ok) throwRefusal(result);
    return c.json({ submission_id: result.value.submission_id, status: "pending" as const }, 202);
  });

  app.openapi({ ...adminListRoute, middleware: requireAdmin(deps) }, async (c) => {
    const list = await submissions.listTimeseries(c.req.valid("query").status);
    return c.json({ submissions: list.map(listed) }, 200);
  });

  for (const action of ["approve", "reject"] as const) {
    app.openapi(
      { ...reviewRoute(action), middleware: requireAdmin(deps) },
      async (c) => {
        const { id } = c.req.valid("param");
        const result = await desk.reviewTimeseries(id, action, personOf(c.get("principal")));
        if (!result.ok) throwRefusal(result);
        return c.json(listed(result.value), 200);
      },
    );
  }

  return app;
}
