/**
 * OpenTech-DB's technology submission and review, as a second wire form of the submission
 * desk: `POST /technologies` (its payload, 202 `pending_review`), `GET /submissions/mine`,
 * and the admin's `GET /admin/submissions` and `POST /admin/submissions/{id}` (`approve` with an
 * optional edited payload, or `reject`, each with an optional reason shown to the submitter).
 *
 * The same rules as the spec's `/technologies/submit` and review routes: a valid token to
 * submit (the original accepted anonymous submissions), an admin token to review, the same
 * pending limit, and the same checks of the record against the catalogue.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  opentechStatus,
  opentechTechnologySubmission,
  statusOfWord,
} from "../../../lib/catalogue/opentech/opentech_submission.ts";
import {
  recordFromPayload,
  technologyPayloadSchema,
} from "../../../lib/catalogue/opentech/technology_payload.ts";
import type { SubmissionStatus } from "../../../lib/catalogue/submissions/submission_record.ts";
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
import { apiError, clampedLimitQuery, idParamsSchema, intQuery, MAX_LIMIT } from "../schemas.ts";
import { DECISION_RESPONSE, OPENTECH_NOTE, OPENTECH_TAGS } from "./frontend_tag.ts";

/** Six hex digits for instance ids. */
const shortHex = () => crypto.randomUUID().replaceAll("-", "").slice(0, 6);

const payloadSchema = technologyPayloadSchema.openapi("OpentechTechnologyPayload");

const submittedSchema = z.object({
  id: z.string().describe("The submission id"),
  submission_id: z.string(),
  technology_name: z.string(),
  technology_id: z.string().describe("The technology the record joins once approved"),
  status: z.literal("pending_review"),
}).openapi("OpentechSubmitted");

const submissionSchema = z.record(z.string(), z.unknown()).openapi("OpentechSubmission", {
  description: "`submission_id`, `technology_name`, `submitted_at`, `status` " +
    "(`pending_review`, `approved`, `rejected`), `domain`, `oeo_class`, `description`, " +
    "`rejection_reason`, `payload` (the submission in the frontend's form), and ours beside " +
    "them: `technology_id`, `merge`, `submitted_by`, `reviewed_by`, `reviewed_at`",
});

const listQuery = z.object({
  status: z.string().optional().openapi({
    description: "`pending_review` (or `pending`), `approved` or `rejected`; all when absent",
  }),
  skip: intQuery("Number of items to skip", 0, Number.MAX_SAFE_INTEGER, 0),
  limit: clampedLimitQuery.default(MAX_LIMIT).openapi({
    type: "integer",
    default: MAX_LIMIT,
    description: `Items, newest first; at most ${MAX_LIMIT} (more are served as ${MAX_LIMIT})`,
  }),
});

const listResponses = {
  200: {
    description: "Submissions, newest first, as a bare array; `X-Total-Count` counts them all",
    content: { "application/json": { schema: z.array(submissionSchema) } },
  },
  400: apiError("Unknown status word, or invalid skip or limit"),
  401: UNAUTHORIZED,
};

const submitRoute = createRoute({
  method: "post",
  path: "/",
  tags: OPENTECH_TAGS,
  summary: "Submit a technology in OpenTech-DB's form",
  description: OPENTECH_NOTE + "Needs a valid token. The payload becomes a catalogue record: a " +
    "name the catalogue serves adds instances to that technology, any other a new technology.",
  security: BEARER_SECURITY,
  request: {
    body: { required: true, content: { "application/json": { schema: payloadSchema } } },
  },
  responses: {
    202: {
      description: "Queued for review",
      content: { "application/json": { schema: submittedSchema } },
    },
    400: apiError("Invalid payload, an unknown OEO class, or malformed JSON"),
    401: UNAUTHORIZED,
    409: apiError(
      "The record cannot join the catalogue (e.g. another domain than the " +
        "technology of that name)",
    ),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
    429: apiError("The caller has MAX_PENDING_SUBMISSIONS submissions pending review already"),
  },
});

const mineRoute = createRoute({
  method: "get",
  path: "/mine",
  tags: OPENTECH_TAGS,
  summary: "The caller's technology submissions",
  description: OPENTECH_NOTE + "Needs a valid token.",
  security: BEARER_SECURITY,
  request: { query: listQuery },
  responses: listResponses,
});

const adminListRoute = createRoute({
  method: "get",
  path: "/",
  tags: OPENTECH_TAGS,
  summary: "Technology submissions for review",
  description: OPENTECH_NOTE + "Admin only.",
  security: BEARER_SECURITY,
  request: { query: listQuery },
  responses: { ...listResponses, 403: FORBIDDEN },
});

const actionSchema = z.object({
  action: z.enum(["approve", "reject"]),
  reason: z.string().max(2000).optional(),
  admin_notes: z.string().max(2000).optional(),
  edited_payload: technologyPayloadSchema.optional().describe(
    "approve: the submission as the admin corrected it, checked again and approved instead",
  ),
}).openapi("OpentechReviewAction");

const actionRoute = createRoute({
  method: "post",
  path: "/{id}",
  tags: OPENTECH_TAGS,
  summary: "Approve or reject a technology submission",
  description: OPENTECH_NOTE + "Admin only. `reason` and `admin_notes` are kept as the " +
    "review's note, shown to the submitter as `rejection_reason`.",
  security: BEARER_SECURITY,
  request: {
    params: idParamsSchema,
    body: { required: true, content: { "application/json": { schema: actionSchema } } },
  },
  responses: {
    200: DECISION_RESPONSE,
    400: apiError("Invalid body, or an edited payload with an unknown OEO class"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown submission id"),
    409: apiError("Not pending, or (approve) the record no longer fits the catalogue"),
  },
});

/** Our status of a `status` query word; 400 for an unknown one. */
export function statusQuery(word: string | undefined): SubmissionStatus | undefined {
  if (word === undefined || word === "") return undefined;
  const status = statusOfWord(word);
  if (!status) {
    throw httpError(
      400,
      `Invalid query: status: "${word}" is not pending_review, approved or rejected`,
    );
  }
  return status;
}

/** The review note of a reason and the admin's notes. */
export function reviewNote(...parts: (string | undefined)[]): string | null {
  const kept = parts.map((p) => p?.trim()).filter((p): p is string => !!p);
  return kept.length ? kept.join(" | ") : null;
}

/** `POST /technologies`, to mount at `/api/v1/technologies`. */
export function opentechSubmitRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.openapi({ ...submitRoute, middleware: requireUser(deps) }, async (c) => {
    const made = recordFromPayload(c.req.valid("json"), deps.catalogue.current(), shortHex);
    if (!made.ok) {
      throw httpError(400, made.problems[0] ?? "Invalid payload", { problems: made.problems });
    }
    const result = await deps.desk.submitTechnology(made.record, personOf(c.get("principal")));
    if (!result.ok) throwRefusal(result);
    const s = result.value;
    return c.json({
      id: s.submission_id,
      submission_id: s.submission_id,
      technology_name: s.record.technology_name,
      technology_id: s.technology_id,
      status: "pending_review" as const,
    }, 202);
  });
  return app;
}

/** `GET /submissions/mine`, to mount at `/api/v1/submissions`. */
export function mySubmissionRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.openapi({ ...mineRoute, middleware: requireUser(deps) }, async (c) => {
    const { status, skip, limit } = c.req.valid("query");
    const filter = { subject: c.get("principal").subject, newestFirst: true };
    const wanted = statusQuery(status);
    const [total, list] = await Promise.all([
      deps.submissions.countTechnology(wanted, filter),
      deps.submissions.listTechnology(wanted, { skip, limit }, filter),
    ]);
    c.header("X-Total-Count", String(total));
    return c.json(list.map(opentechTechnologySubmission), 200);
  });
  return app;
}

/** The admin list and decision, to mount at `/api/v1/admin/submissions`. */
export function opentechReviewRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.openapi({ ...adminListRoute, middleware: requireAdmin(deps) }, async (c) => {
    const { status, skip, limit } = c.req.valid("query");
    const wanted = statusQuery(status);
    const filter = { newestFirst: true };
    const [total, list] = await Promise.all([
      deps.submissions.countTechnology(wanted, filter),
      deps.submissions.listTechnology(wanted, { skip, limit }, filter),
    ]);
    c.header("X-Total-Count", String(total));
    return c.json(list.map(opentechTechnologySubmission), 200);
  });

  app.openapi({ ...actionRoute, middleware: requireAdmin(deps) }, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const by = personOf(c.get("principal"));
    const note = reviewNote(body.reason, body.admin_notes);
    let record;
    if (body.action === "approve" && body.edited_payload) {
      const made = recordFromPayload(body.edited_payload, deps.catalogue.current(), shortHex);
      if (!made.ok) {
        throw httpError(400, made.problems[0] ?? "Invalid payload", { problems: made.problems });
      }
      record = made.record;
    }
    const reviewed = valueOrRefusal(
      await deps.desk.reviewTechnology(id, body.action, by, {
        note,
        ...(record ? { record } : {}),
      }),
    );
    const status = opentechStatus(reviewed.status);
    if (status === "pending_review") throw new Error(`Submission ${id} is still pending`);
    return c.json({ status, submission_id: reviewed.submission_id }, 200);
  });
  return app;
}
