/**
 * OpenTech-DB's profile upload and review, as a second wire form of the submission desk:
 * `POST /timeseries/upload` (multipart: the metadata fields and a CSV or JSON file of
 * time-stamped values), the admin's `DELETE /timeseries/{id}` (the profile is no longer served;
 * the files are never written, see lib/catalogue/served/profile_removal.ts), and the admin's `GET /admin/timeseries/submissions/{id}/data` (the
 * points and their statistics) and `POST /admin/timeseries/submissions/{id}` (`approve` or
 * `reject` with a reason).
 *
 * `GET /admin/timeseries/submissions` is a spec route answering a page envelope; the frontend
 * reads a bare array from the same path and query. Both cannot be one answer, so a request whose
 * `Origin` is one of OPENTECH_FRONTEND_ORIGINS (the deployment names its OpenTech-DB frontend)
 * gets the frontend's array; every other caller the spec route's envelope.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import {
  opentechProfileSubmission,
  opentechStatus,
} from "../../../lib/catalogue/opentech/opentech_submission.ts";
import { uploadedProfile } from "../../../lib/catalogue/opentech/profile_upload.ts";
import { withProfilePoints } from "../../../lib/catalogue/opentech/profile_points.ts";
import { profileStatistics } from "../../../lib/catalogue/opentech/profile_statistics.ts";
import { servedSubmittedProfile } from "../../../lib/catalogue/submissions/timeseries_submission.ts";
import { createOpenAPIApp, httpError } from "../../middleware/errors.ts";
import {
  BEARER_SECURITY,
  FORBIDDEN,
  personOf,
  requireAdmin,
  requireUser,
  UNAUTHORIZED,
} from "../auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "../deps.ts";
import { throwRefusal, valueOrRefusal } from "../refusal.ts";
import { apiError, idParamsSchema, MAX_LIMIT } from "../schemas.ts";
import { DECISION_RESPONSE, OPENTECH_NOTE, OPENTECH_TAGS } from "./frontend_tag.ts";
import { reviewNote, statusQuery } from "./technology_submission_routes.ts";

/** A new profile id's suffix: eight hex digits. */
const newProfileSuffix = () => crypto.randomUUID().replaceAll("-", "").slice(0, 8);

const uploadForm = z.object({
  name: z.string(),
  type: z.string(),
  resolution: z.string().openapi({ description: "`15min`, `30min`, `hourly`, `daily`, or `1h`" }),
  location: z.string(),
  source: z.string(),
  carrier: z.string(),
  year: z.string().optional(),
  description: z.string().optional(),
  unit: z.string().optional(),
  file: z.string().openapi({
    type: "string",
    format: "binary",
    description: "CSV (timestamp,value) or JSON ({points:[{timestamp,value}]}, pairs, or an " +
      "object of timestamp: value); evenly spaced by the resolution",
  }),
});

const uploadRoute = createRoute({
  method: "post",
  path: "/upload",
  tags: OPENTECH_TAGS,
  summary: "Upload a profile file for review",
  description: OPENTECH_NOTE + "Needs a valid token. The profile gets an id made from its " +
    "name, and is listed for admin review like a `/timeseries/submit` submission.",
  security: BEARER_SECURITY,
  request: {
    body: { required: true, content: { "multipart/form-data": { schema: uploadForm } } },
  },
  responses: {
    202: {
      description: "Queued for review",
      content: {
        "application/json": {
          schema: z.object({
            submission_id: z.string(),
            profile_id: z.string(),
            name: z.string(),
            n_timesteps: z.number().int(),
            status: z.literal("pending_review"),
          }).openapi("OpentechUploaded"),
        },
      },
    },
    400: apiError(
      "Missing fields or file, a row that is not a timestamp and a number, " +
        "uneven steps, or values a capacity factor cannot have",
    ),
    401: UNAUTHORIZED,
    409: apiError("The profile id is already used"),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as multipart/form-data"),
    429: apiError("The caller has MAX_PENDING_SUBMISSIONS submissions pending review already"),
  },
});

const dataRoute = createRoute({
  method: "get",
  path: "/submissions/{id}/data",
  tags: OPENTECH_TAGS,
  summary: "A profile submission's points and statistics",
  description: OPENTECH_NOTE + "Admin only.",
  security: BEARER_SECURITY,
  request: { params: idParamsSchema },
  responses: {
    200: {
      description: "`submission_id`, `name`, `unit`, `points`, `stats`",
      content: {
        "application/json": { schema: z.record(z.string(), z.unknown()) },
      },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown submission id"),
  },
});

const actionRoute = createRoute({
  method: "post",
  path: "/submissions/{id}",
  tags: OPENTECH_TAGS,
  summary: "Approve or reject a profile submission",
  description: OPENTECH_NOTE + "Admin only. An approved profile is served at once.",
  security: BEARER_SECURITY,
  request: {
    params: idParamsSchema,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            action: z.enum(["approve", "reject"]),
            reason: z.string().max(2000).optional(),
          }).openapi("OpentechProfileAction"),
        },
      },
    },
  },
  responses: {
    200: DECISION_RESPONSE,
    400: apiError("Invalid body"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown submission id"),
    409: apiError("Not pending, or the profile id is now in the catalogue"),
  },
});

const removeRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags: OPENTECH_TAGS,
  summary: "Stop serving a profile",
  description: OPENTECH_NOTE + "Admin only. A profile of the files is hidden for good; an " +
    "approved submission of the same id made later is served.",
  security: BEARER_SECURITY,
  request: { params: idParamsSchema },
  responses: {
    200: {
      description: "Removed",
      content: {
        "application/json": {
          schema: z.object({ status: z.literal("deleted"), profile_id: z.string() }),
        },
      },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown profile id"),
  },
});

/** `POST /timeseries/upload` and `DELETE /timeseries/{id}`, to mount at `/api/v1/timeseries`. */
export function profileUploadRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.post("/upload", requireUser(deps), async (c) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^\s*multipart\/form-data\b/i.test(type)) {
      throw httpError(415, "Send the profile as multipart/form-data with a `file` field");
    }
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw httpError(400, "The multipart body could not be read");
    }
    const fields: Record<string, string> = {};
    let file: File | undefined;
    for (const [key, value] of Object.entries(form)) {
      if (Array.isArray(value)) throw httpError(400, `Field "${key}" is given more than once`);
      if (value instanceof File) {
        if (key === "file") file = value;
        else throw httpError(400, `Field "${key}" must be text, not a file`);
      } else fields[key] = value;
    }
    if (!file) throw httpError(400, "The `file` field (a CSV or JSON file) is missing");
    const made = uploadedProfile(
      fields,
      { name: file.name, text: await file.text() },
      newProfileSuffix,
    );
    if (!made.ok) {
      throw httpError(400, `Invalid upload: ${made.problems[0]}`, { problems: made.problems });
    }
    const result = await deps.desk.submitTimeseries(made.body, personOf(c.get("principal")), {
      start: made.start,
      description: made.description,
    });
    if (!result.ok) throwRefusal(result);
    return c.json({
      submission_id: result.value.submission_id,
      profile_id: result.value.profile.profile_id,
      name: result.value.profile.name,
      n_timesteps: result.value.profile.values.length,
      status: "pending_review" as const,
    }, 202);
  });
  app.openAPIRegistry.registerPath(uploadRoute);
  app.openapi({ ...removeRoute, middleware: requireAdmin(deps) }, async (c) => {
    const { id } = c.req.valid("param");
    const removed = valueOrRefusal(
      await deps.editor.removeProfile(id, personOf(c.get("principal"))),
    );
    return c.json({ status: "deleted" as const, ...removed }, 200);
  });
  return app;
}

/** The admin data and decision, to mount at `/api/v1/admin/timeseries`. */
export function profileReviewRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.openapi({ ...dataRoute, middleware: requireAdmin(deps) }, async (c) => {
    const { id } = c.req.valid("param");
    const submission = await deps.submissions.getTimeseries(id);
    if (!submission) throw httpError(404, `Time-series submission "${id}" not found`);
    const served = withProfilePoints(servedSubmittedProfile(submission));
    return c.json({
      submission_id: submission.submission_id,
      profile_id: served.profile_id,
      name: served.name,
      unit: served.unit,
      points: served.points,
      points_note: served.points_note,
      stats: profileStatistics(served.values, served.points.map((p) => Date.parse(p.timestamp))),
    }, 200);
  });
  app.openapi({ ...actionRoute, middleware: requireAdmin(deps) }, async (c) => {
    const { id } = c.req.valid("param");
    const { action, reason } = c.req.valid("json");
    const reviewed = valueOrRefusal(
      await deps.desk.reviewTimeseries(id, action, personOf(c.get("principal")), {
        note: reviewNote(reason),
      }),
    );
    const status = opentechStatus(reviewed.status);
    if (status === "pending_review") throw new Error(`Submission ${id} is still pending`);
    return c.json({ status, submission_id: reviewed.submission_id }, 200);
  });
  return app;
}

/**
 * Answers `GET /admin/timeseries/submissions` in the frontend's form (all states, newest first,
 * at most 200, a bare array) for a request from one of `origins`; passes any other on.
 */
export function profileListForFrontend(
  deps: CatalogueDeps,
  origins: readonly string[],
): MiddlewareHandler<CatalogueEnv> {
  const admin = requireAdmin(deps);
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined || !origins.includes(origin)) return next();
    await admin(c, async () => {
      const status = statusQuery(c.req.query("status"));
      const filter = { newestFirst: true };
      const [total, list] = await Promise.all([
        deps.submissions.countTimeseries(status, filter),
        deps.submissions.listTimeseries(status, { skip: 0, limit: MAX_LIMIT }, filter),
      ]);
      c.header("X-Total-Count", String(total));
      c.res = c.json(list.map(opentechProfileSubmission), 200);
    });
    return c.res;
  };
}
