/**
 * The admin-only literature scraper: status, runs (in the background, or waited for), the
 * candidates it found, and their review. Approving a candidate adds its value to the catalogue
 * as a new instance of its technology that cites the paper; rejecting archives it.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CANDIDATE_STATUSES } from "../../lib/scraper/repository.ts";
import { SOURCE_NAMES } from "../../lib/scraper/source.ts";
import { MergeConflictError } from "../../lib/catalogue/submissions.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import { BEARER_SECURITY, FORBIDDEN, personOf, requireAdmin, UNAUTHORIZED } from "./auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { apiError, pageQueryShape, servedInstanceSchema } from "./schemas.ts";
import { API } from "./technologies.ts";

const statusSchema = z.object({
  scheduler_running: z.boolean(),
  next_run: z.string().nullable().describe("Next scheduled run (ISO 8601); null when off"),
  enabled_sources: z.array(z.string()),
  pending_candidates: z.number().int(),
  last_run: z.object({
    run_id: z.string(),
    started_at: z.string(),
    status: z.string().describe("running, completed, partial or failed"),
    total_papers: z.number().int(),
    candidates_created: z.number().int(),
  }).nullable().describe("null before the first run"),
}).openapi("ScraperStatus");

const runRequestSchema = z.strictObject({
  sources: z.array(z.enum(SOURCE_NAMES)).min(1).optional().describe(
    "Sources to query (enabled ones only); all enabled when omitted",
  ),
  technology_ids: z.array(z.string().min(1)).min(1).optional().describe(
    "Catalogue technologies to search for; the configured (or all known) ones when omitted",
  ),
  wait: z.boolean().optional().describe("Wait for the run and answer its summary"),
}).openapi("ScraperRunRequest");

const runErrorSchema = z.object({
  source: z.string(),
  message: z.string(),
  technology_id: z.string().optional(),
});

const runSummarySchema = z.object({
  run_id: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  status: z.enum(["completed", "partial", "failed"]),
  total_papers: z.number().int(),
  candidates_created: z.number().int(),
  errors: z.array(runErrorSchema),
}).openapi("ScraperRunSummary");

const candidateSchema = z.looseObject({
  id: z.string(),
  status: z.enum(CANDIDATE_STATUSES),
  run_id: z.string(),
  technology_id: z.string(),
  parameter: z.string().describe("capex, opex_fixed, opex_var, efficiency, lifetime, co2_factor"),
  value: z.number().describe("The value as stated in the paper, in `unit`"),
  unit: z.string(),
  catalogue_field: z.string().nullable().describe("The instance field the value fills"),
  catalogue_value: z.number().nullable().describe("The value in the catalogue field's unit"),
  matched_text: z.string(),
  confidence: z.number(),
  title: z.string(),
  doi: z.string().nullable(),
  url: z.string(),
  year: z.number().int().nullable(),
  authors: z.array(z.string()),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
  instance_id: z.string().nullable().describe("The catalogue instance an approval created"),
}).openapi("ScraperCandidate");

const idParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
});

const statusRoute = createRoute({
  method: "get",
  path: `${API}/scraper/status`,
  tags: ["Scraper"],
  summary: "Scraper status",
  security: BEARER_SECURITY,
  responses: {
    200: {
      description: "The status object",
      content: { "application/json": { schema: statusSchema } },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

const runRoute = createRoute({
  method: "post",
  path: `${API}/scraper/run`,
  tags: ["Scraper"],
  summary: "Start a run (in the background, or waited for with `wait`)",
  security: BEARER_SECURITY,
  request: {
    body: {
      required: false,
      content: { "application/json": { schema: runRequestSchema } },
    },
  },
  responses: {
    200: {
      description: "The run's summary (`wait: true`)",
      content: { "application/json": { schema: runSummarySchema } },
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
  path: `${API}/scraper/candidates`,
  tags: ["Scraper"],
  summary: "Candidates, newest first",
  security: BEARER_SECURITY,
  request: {
    query: z.object({
      ...pageQueryShape,
      status: z.enum(CANDIDATE_STATUSES).optional(),
      technology_id: z.string().min(1).optional(),
    }),
  },
  responses: {
    200: {
      description: "One page of candidates",
      content: {
        "application/json": {
          schema: z.object({
            total: z.number().int(),
            skip: z.number().int(),
            limit: z.number().int(),
            candidates: z.array(candidateSchema),
          }).openapi("ScraperCandidateList"),
        },
      },
    },
    400: apiError("Unknown status, or invalid skip or limit"),
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

const candidateRoute = createRoute({
  method: "get",
  path: `${API}/scraper/candidates/{id}`,
  tags: ["Scraper"],
  summary: "One candidate with its extracted parameter and paper",
  security: BEARER_SECURITY,
  request: { params: idParams },
  responses: {
    200: {
      description: "The candidate",
      content: { "application/json": { schema: candidateSchema } },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown candidate id"),
  },
});

const approveRoute = createRoute({
  method: "post",
  path: `${API}/scraper/candidates/{id}/approve`,
  tags: ["Scraper"],
  summary: "Approve a candidate: its value joins the catalogue as a new instance",
  security: BEARER_SECURITY,
  request: { params: idParams },
  responses: {
    200: {
      description: "The approved candidate and the instance added",
      content: {
        "application/json": {
          schema: z.object({
            candidate: candidateSchema,
            technology_id: z.string(),
            instance: servedInstanceSchema.omit({ missing_fields: true }),
          }).openapi("ScraperApproval"),
        },
      },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown candidate id"),
    409: apiError(
      "Not pending, or the technology is not in the catalogue (the candidate stays pending)",
    ),
    422: apiError("The value has no catalogue unit (e.g. a currency without exchange rate)"),
  },
});

const rejectRoute = createRoute({
  method: "post",
  path: `${API}/scraper/candidates/{id}/reject`,
  tags: ["Scraper"],
  summary: "Reject (archive) a candidate",
  security: BEARER_SECURITY,
  request: { params: idParams },
  responses: {
    200: {
      description: "The rejected candidate",
      content: {
        "application/json": { schema: z.object({ candidate: candidateSchema }) },
      },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: apiError("Unknown candidate id"),
    409: apiError("Not pending"),
  },
});

/** The scraper routes, as an app to mount; every route needs an admin token. */
export function scraperRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { scraper, catalogue, desk } = deps;
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
      result = await scraper.run({
        ...(body.sources ? { sources: body.sources } : {}),
        ...(body.technology_ids ? { technology_ids: body.technology_ids } : {}),
        ...(body.wait !== undefined ? { wait: body.wait } : {}),
      });
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

  app.openapi({ ...candidatesRoute, middleware: admin }, async (c) => {
    const { skip, limit, status, technology_id } = c.req.valid("query");
    const all = await scraper.listCandidates({
      ...(status ? { status } : {}),
      ...(technology_id ? { technology_id } : {}),
    });
    return c.json(
      { total: all.length, skip, limit, candidates: all.slice(skip, skip + limit) },
      200,
    );
  });

  app.openapi({ ...candidateRoute, middleware: admin }, async (c) => {
    const { id } = c.req.valid("param");
    const candidate = await scraper.getCandidate(id);
    if (!candidate) throw httpError(404, `Candidate "${id}" not found`);
    return c.json(candidate, 200);
  });

  app.openapi({ ...approveRoute, middleware: admin }, async (c) => {
    const { id } = c.req.valid("param");
    const by = personOf(c.get("principal"));
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
          throw httpError(409, `Candidate "${id}" is ${result.candidate.status}, not pending`);
        case "not_convertible":
          throw httpError(422, `Candidate "${id}" cannot join the catalogue: ${result.message}`);
      }
    }
    const { candidate, technology_id, instance } = result;
    return c.json({ candidate, technology_id, instance }, 200);
  });

  app.openapi({ ...rejectRoute, middleware: admin }, async (c) => {
    const { id } = c.req.valid("param");
    const result = await scraper.reject(id);
    if (!result.ok) {
      if (result.reason === "not_found") throw httpError(404, `Candidate "${id}" not found`);
      throw httpError(409, `Candidate "${id}" is ${result.candidate.status}, not pending`);
    }
    return c.json({ candidate: result.candidate }, 200);
  });

  return app;
}
