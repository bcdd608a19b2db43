/**
 * The admin-only literature scraper, mounted at `/api/v1/scraper`: status and runs (in the
 * background, or waited for); below `/candidates` the candidates it found and their review.
 * Approving a candidate adds its value to the catalogue as a new instance of its technology that
 * cites the paper; rejecting archives it.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MergeConflictError } from "../../lib/catalogue/submissions/submission_desk.ts";
import { candidateStatusSchema } from "../../lib/scraper/repository.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import { BEARER_SECURITY, FORBIDDEN, requireAdmin, UNAUTHORIZED } from "./auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { reviewRoutes } from "./review_routes.ts";
import {
  apiError,
  idParamsSchema,
  pageQueryShape,
  scraperApprovalSchema,
  scraperCandidateListSchema,
  scraperCandidateSchema,
  scraperRunRequestSchema,
  scraperRunSummarySchema,
  scraperStatusSchema,
} from "./schemas.ts";

const statusRoute = createRoute({
  method: "get",
  path: "/status",
  tags: ["Scraper"],
  summary: "Scraper status",
  security: BEARER_SECURITY,
  responses: {
    200: {
      description: "The status object",
      content: { "application/json": { schema: scraperStatusSchema } },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

const runRoute = createRoute({
  method: "post",
  path: "/run",
  tags: ["Scraper"],
  summary: "Start a run (in the background, or waited for with `wait`)",
  security: BEARER_SECURITY,
  request: {
    body: {
      required: false,
      content: { "application/json": { schema: scraperRunRequestSchema } },
    },
  },
  responses: {
    200: {
      description: "The run's summary (`wait: true`)",
      content: { "application/json": { schema: scraperRunSummarySchema } },
    },
    202: {
      description: "Started in the background",
      content: {
        "application/json": {
          schema: z.object({ run_id: z.string(), status: z.literal("running") }),
        },
      },
    },
    400: apiError("Invalid body, a source that is not enabled, or an unknown technology"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    409: apiError("Another run is in progress (`details.run_id`)"),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
  },
});

const candidatesRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Scraper"],
  summary: "Candidates, newest first",
  security: BEARER_SECURITY,
  request: {
    query: z.object({
      ...pageQueryShape,
      status: candidateStatusSchema.optional(),
      technology_id: z.string().min(1).optional(),
    }),
  },
  responses: {
    200: {
      description: "One page of candidates",
      content: {
        "application/json": { schema: scraperCandidateListSchema },
      },
    },
    400: apiError("Unknown status, or invalid skip or limit"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

const candidateRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["Scraper"],
  summary: "One candidate with its extracted parameter and paper",
  security: BEARER_SECURITY,
  request: { params: idParamsSchema },
  responses: {
    200: {
      description: "The candidate",
      content: { "application/json": { schema: scraperCandidateSchema } },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown candidate id"),
  },
});

/** Status and runs, to mount at `/api/v1/scraper`; every route needs an admin token. */
export function scraperRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { scraper, catalogue } = deps;
  const admin = requireAdmin(deps);
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi({ ...statusRoute, middleware: admin }, async (c) => {
    return c.json(await scraper.status(), 200);
  });

  app.openapi({ ...runRoute, middleware: admin }, async (c) => {
    const body = c.req.valid("json");
    const unknown = (body.technology_ids ?? []).filter((id) => !catalogue.current().technology(id));
    if (unknown.length > 0) {
      throw httpError(
        400,
        `Invalid request body: technology_ids: not in the catalogue: ${unknown.join(", ")}`,
      );
    }
    let result;
    try {
      result = await scraper.run(body);
    } catch (error) {
      if (error instanceof RangeError) {
        throw httpError(400, `Invalid request body: ${error.message}`);
      }
      throw error;
    }
    switch (result.kind) {
      case "busy":
        throw httpError(409, `Run ${result.run_id} is in progress; try again when it ends`, {
          run_id: result.run_id,
        });
      case "started":
        return c.json({ run_id: result.run_id, status: "running" as const }, 202);
      case "finished":
        return c.json(result.summary, 200);
    }
  });

  return app;
}

/**
 * The candidates, their detail and their review, to mount at `/api/v1/scraper/candidates`;
 * every route needs an admin token.
 */
export function candidateRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { scraper, desk } = deps;
  const admin = requireAdmin(deps);
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi({ ...candidatesRoute, middleware: admin }, async (c) => {
    const { skip, limit, status, technology_id } = c.req.valid("query");
    const filter = {
      ...(status ? { status } : {}),
      ...(technology_id ? { technology_id } : {}),
    };
    // Only the page's candidates are read; the total is counted.
    const [total, candidates] = await Promise.all([
      scraper.countCandidates(filter),
      scraper.listCandidates({ ...filter, limit, offset: skip }),
    ]);
    return c.json({ total, skip, limit, candidates }, 200);
  });

  app.openapi({ ...candidateRoute, middleware: admin }, async (c) => {
    const { id } = c.req.valid("param");
    const candidate = await scraper.getCandidate(id);
    if (!candidate) throw httpError(404, `Candidate "${id}" not found`);
    return c.json(candidate, 200);
  });

  app.route(
    "/",
    reviewRoutes(deps, {
      method: "post",
      tags: ["Scraper"],
      approve: {
        summary: "Approve a candidate: its value joins the catalogue as a new instance",
        reviewed: {
          description: "The approved candidate and the instance added",
          schema: scraperApprovalSchema,
        },
        errors: {
          404: apiError("Unknown candidate id"),
          409: apiError(
            "Not pending, or the technology is not in the catalogue (the candidate stays pending)",
          ),
          422: apiError("The value has no catalogue unit (e.g. a currency without exchange rate)"),
        },
        async review(id, by) {
          let result;
          try {
            result = await scraper.approve(
              id,
              (technologyId, instance, candidate) =>
                desk.mergeScraped(technologyId, instance, candidate.id, by),
            );
          } catch (error) {
            if (error instanceof MergeConflictError) {
              throw httpError(409, `${error.message}; the candidate stays pending`);
            }
            throw error;
          }
          if (!result.ok) {
            switch (result.reason) {
              case "not_found":
                throw httpError(404, `Candidate "${id}" not found`);
              case "conflict":
                throw httpError(
                  409,
                  `Candidate "${id}" is ${result.candidate.status}, not pending`,
                );
              case "not_convertible":
                throw httpError(
                  422,
                  `Candidate "${id}" cannot join the catalogue: ${result.message}`,
                );
            }
          }
          const { candidate, technology_id, instance } = result;
          return { candidate, technology_id, instance };
        },
      },
      reject: {
        summary: "Reject (archive) a candidate",
        reviewed: {
          description: "The rejected candidate",
          schema: z.object({ candidate: scraperCandidateSchema }),
        },
        errors: {
          404: apiError("Unknown candidate id"),
          409: apiError("Not pending"),
        },
        async review(id) {
          const result = await scraper.reject(id);
          if (!result.ok) {
            if (result.reason === "not_found") throw httpError(404, `Candidate "${id}" not found`);
            throw httpError(409, `Candidate "${id}" is ${result.candidate.status}, not pending`);
          }
          return { candidate: result.candidate };
        },
      },
    }),
  );

  return app;
}
