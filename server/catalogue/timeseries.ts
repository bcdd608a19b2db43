/**
 * Time series, mounted at `/api/v1/timeseries`: the public profile list and data (from memory; a
 * profile's data is JSON text made once) and contributor submissions (valid token); below
 * `/api/v1/admin/timeseries` their admin list and review: an approved profile is served at once
 * by `/timeseries` and `/timeseries/{id}/data`.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { filterProfiles } from "../../lib/catalogue/served/catalogue_filter.ts";
import { timeseriesListing } from "../../lib/catalogue/submissions/timeseries_submission.ts";
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
import { throwRefusal, valueOrRefusal } from "./refusal.ts";
import { submissionReviewRoutes } from "./review_routes.ts";
import {
  apiError,
  idParamsSchema,
  profileDataSchema,
  profileMetadataSchema,
  publicPageQueryShape,
  submissionStatusQuery,
  submitResponseSchema,
  timeseriesSubmissionListSchema,
  timeseriesSubmissionRecordSchema,
  timeseriesSubmissionRequestSchema,
} from "./schemas.ts";
import { jsonText } from "./technologies.ts";
import { acceptsGzip, gzipBytes } from "../middleware/gzip_bytes.ts";

const ENCODER = new TextEncoder();

const profileListSchema = z.object({
  total: z.number().int().describe("Profiles matching the filters"),
  skip: z.number().int(),
  limit: z.number().int(),
  profiles: z.array(profileMetadataSchema),
}).openapi("ProfileList");

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Time series"],
  summary: "Profile metadata, paginated and filtered",
  request: {
    query: z.object({
      ...publicPageQueryShape,
      type: z.string().min(1).optional().openapi({ description: "e.g. `capacity_factor`" }),
      location: z.string().min(1).optional().openapi({ description: "e.g. `DE`" }),
    }),
  },
  responses: {
    200: {
      description: "One page of profile metadata",
      content: { "application/json": { schema: profileListSchema } },
    },
    400: apiError("Invalid skip or limit (not a whole number, or limit 0)"),
  },
});

const dataRoute = createRoute({
  method: "get",
  path: "/{id}/data",
  tags: ["Time series"],
  summary: "One profile with its values",
  request: { params: idParamsSchema },
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
  path: "/submit",
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
      content: { "application/json": { schema: timeseriesSubmissionRequestSchema } },
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
    429: apiError(
      "The caller has MAX_PENDING_SUBMISSIONS submissions (technology and time series) pending " +
        "review already",
    ),
    415: apiError("Body not sent as application/json"),
  },
});

const adminListRoute = createRoute({
  method: "get",
  path: "/submissions",
  tags: ["Time series", "Admin"],
  summary: "Time-series submissions (pending by default), paginated",
  description: "Only the submissions of the page are read with their values (for the " +
    "statistics); `total` counts all with the status.",
  security: BEARER_SECURITY,
  request: { query: submissionStatusQuery("Which submissions to list") },
  responses: {
    200: {
      description: "One page of submissions, in submission order",
      content: { "application/json": { schema: timeseriesSubmissionListSchema } },
    },
    400: apiError("Unknown status, or invalid skip or limit (e.g. limit over 200)"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

/** The public time-series routes and the submission, to mount at `/api/v1/timeseries`. */
export function timeseriesRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { catalogue, desk } = deps;
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

  // Gzipped once per profile, for clients that accept it: the `points` beside the values make
  // the answer about 13 times the values alone (465 KB for 8,760 steps), most of it repeats.
  const gzipped = new WeakMap<object, Promise<Uint8Array<ArrayBuffer>>>();
  app.openapi(dataRoute, async (c) => {
    const { id } = c.req.valid("param");
    const current = catalogue.current();
    const text = current.profileDataJson(id);
    const profile = current.profile(id);
    if (text === undefined || !profile) throw httpError(404, `Profile "${id}" not found`);
    c.header("Vary", "Accept-Encoding");
    if (acceptsGzip(c.req.header("accept-encoding"))) {
      let bytes = gzipped.get(profile);
      if (!bytes) {
        bytes = gzipBytes(ENCODER.encode(text));
        gzipped.set(profile, bytes);
      }
      c.header("Content-Encoding", "gzip");
      c.header("Content-Type", "application/json");
      return c.body(await bytes, 200) as unknown as ReturnType<
        typeof jsonText<z.infer<typeof profileDataSchema>>
      >;
    }
    return jsonText<z.infer<typeof profileDataSchema>>(c, text);
  });

  app.openapi({ ...submitRoute, middleware: requireUser(deps) }, async (c) => {
    const result = await desk.submitTimeseries(c.req.valid("json"), personOf(c.get("principal")));
    if (!result.ok) throwRefusal(result);
    return c.json({ submission_id: result.value.submission_id, status: "pending" as const }, 202);
  });

  return app;
}

/** The admin list and review of submissions, to mount at `/api/v1/admin/timeseries`. */
export function timeseriesReviewRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { desk, submissions } = deps;
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi({ ...adminListRoute, middleware: requireAdmin(deps) }, async (c) => {
    const { status, skip, limit } = c.req.valid("query");
    const [total, list] = await Promise.all([
      submissions.countTimeseries(status),
      submissions.listTimeseries(status, { skip, limit }),
    ]);
    return c.json({ total, skip, limit, submissions: list.map(timeseriesListing) }, 200);
  });

  app.route(
    "/",
    submissionReviewRoutes(deps, {
      tags: ["Time series", "Admin"],
      approveSummary: "Approve a submission: the profile is served at once",
      schema: timeseriesSubmissionRecordSchema,
      conflict:
        "The submission is not pending (reviewed already), or its profile id is now in the " +
        "catalogue",
      review: async (action, id, by) =>
        timeseriesListing(valueOrRefusal(await desk.reviewTimeseries(id, action, by))),
    }),
  );

  return app;
}
