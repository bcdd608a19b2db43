/**
 * The one factory of the admin review routes: `/{id}/approve` and `/{id}/reject` below the path
 * the group is mounted at, admin-only (401 without a valid token, 403 without admin rights),
 * answering 200 with the reviewed item or the error a review throws. Technology submissions,
 * time-series submissions and scraper candidates are reviewed through it.
 */
import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { Person } from "../../lib/catalogue/submissions/submission_record.ts";
import type { ReviewAction } from "../../lib/catalogue/submissions/submission_desk.ts";
import { createOpenAPIApp } from "../middleware/errors.ts";
import { BEARER_SECURITY, FORBIDDEN, personOf, requireAdmin, UNAUTHORIZED } from "./auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { apiError, idParamsSchema } from "./schemas.ts";

/** An error response of a review, in the catalogue's format. */
type ErrorResponse = ReturnType<typeof apiError>;

/** One review action: its documentation and what it does. */
export interface ReviewActionSpec<S extends z.ZodType> {
  summary: string;
  /** The 200 answer: what it holds, and its schema. */
  reviewed: { description: string; schema: S };
  /** The errors besides 401 and 403, by status. */
  errors: { 404: ErrorResponse; 409: ErrorResponse; 422?: ErrorResponse };
  /** Reviews item `id` as `by`; throws the HTTP error of a refusal. */
  review(id: string, by: Person): Promise<z.input<S>>;
}

/** A group of review routes. */
export interface ReviewRoutesSpec<A extends z.ZodType, R extends z.ZodType> {
  method: "patch" | "post";
  tags: string[];
  approve: ReviewActionSpec<A>;
  reject: ReviewActionSpec<R>;
}

function reviewRoute<S extends z.ZodType>(
  method: "patch" | "post",
  tags: string[],
  action: ReviewAction,
  spec: ReviewActionSpec<S>,
) {
  return createRoute({
    method,
    path: `/{id}/${action}`,
    tags,
    summary: spec.summary,
    security: BEARER_SECURITY,
    request: { params: idParamsSchema },
    responses: {
      200: {
        description: spec.reviewed.description,
        content: { "application/json": { schema: spec.reviewed.schema } },
      },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      ...spec.errors,
    },
  });
}

/** The approve and reject routes of one kind of item, as an app to mount. */
export function reviewRoutes<A extends z.ZodType, R extends z.ZodType>(
  deps: CatalogueDeps,
  spec: ReviewRoutesSpec<A, R>,
): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  const admin = requireAdmin(deps);
  const add = <S extends z.ZodType>(action: ReviewAction, actionSpec: ReviewActionSpec<S>) => {
    const route = reviewRoute(spec.method, spec.tags, action, actionSpec);
    app.openapi({ ...route, middleware: admin }, async (c) => {
      const reviewed = await actionSpec.review(
        c.req.valid("param").id,
        personOf(c.get("principal")),
      );
      return c.json(reviewed, 200);
    });
  };
  add("approve", spec.approve);
  add("reject", spec.reject);
  return app;
}

/** What differs between the submission kinds a review spec is made for. */
export interface SubmissionReviewSpec<S extends z.ZodType> {
  tags: string[];
  /** Summary of the approve route; the reject route is "Reject a submission". */
  approveSummary: string;
  /** The reviewed submission as answered. */
  schema: S;
  /** When a review answers 409. */
  conflict: string;
  /** Reviews submission `id` as `by`; throws the HTTP error of a refusal. */
  review(action: ReviewAction, id: string, by: Person): Promise<z.input<S>>;
}

/** Approve and reject routes of a kind of submission (PATCH, 404 for an unknown id). */
export function submissionReviewRoutes<S extends z.ZodType>(
  deps: CatalogueDeps,
  { tags, approveSummary, schema, conflict, review }: SubmissionReviewSpec<S>,
): OpenAPIHono<CatalogueEnv> {
  const reviewed = { description: "The reviewed submission", schema };
  const errors = { 404: apiError("Unknown submission id"), 409: apiError(conflict) };
  const action = (summary: string, name: ReviewAction): ReviewActionSpec<S> => ({
    summary,
    reviewed,
    errors,
    review: (id, by) => review(name, id, by),
  });
  return reviewRoutes(deps, {
    method: "patch",
    tags,
    approve: action(approveSummary, "approve"),
    reject: action("Reject a submission", "reject"),
  });
}
