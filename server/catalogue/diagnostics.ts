/**
 * Diagnostics: `/health` (public, outside the prefix); below `/api/v1/debug` the loading status
 * of every data file and the reload (admin). A reload reads and validates every file first and
 * swaps the served catalogue in one step; when any file is invalid, or a file the catalogue's
 * `manifest.json` lists is missing, the previous catalogue keeps being served and the answer (422)
 * lists every problem by file and JSON path.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { CatalogueSnapshot } from "../../lib/catalogue/served/catalogue_snapshot.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import { BEARER_SECURITY, FORBIDDEN, requireAdmin, UNAUTHORIZED } from "./auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import {
  additionsSchema,
  apiError,
  countsShape,
  dataFileSchema,
  reloadAttemptReportSchema,
} from "./schemas.ts";

/** Version of the service (of its interface and code), as `/health` reports it. */
export const SERVICE_VERSION = "1.0.0";

const healthSchema = z.object({
  status: z.literal("ok"),
  version: z.string().describe("Version of the service"),
  catalogue_version: z.string().describe(
    "`<metadata.version of the files>+<12 hex digits of the content>`: changes with any data " +
      "file or approved addition",
  ),
  ...countsShape,
}).openapi("CatalogueHealth");

const dataSchema = z.object({
  catalogue_version: z.string(),
  loaded_at: z.string().describe("When the served files were read"),
  load_ms: z.number(),
  ...countsShape,
  files: z.array(dataFileSchema),
  additions: additionsSchema,
  last_reload: reloadAttemptReportSchema.nullable().describe("null before the first reload"),
}).openapi("DataStatus");

const reloadSchema = z.object({
  status: z.literal("reloaded"),
  catalogue_version: z.string(),
  previous_version: z.string(),
  ms: z.number().describe("Time to read, validate and swap, ms"),
  ...countsShape,
  files: z.array(dataFileSchema),
}).openapi("ReloadResult");

const healthRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Diagnostics"],
  summary: "Health and versions",
  responses: {
    200: {
      description: "The service runs; the counts of the served catalogue",
      content: { "application/json": { schema: healthSchema } },
    },
  },
});

const dataRoute = createRoute({
  method: "get",
  path: "/data",
  tags: ["Diagnostics"],
  summary: "Loading status of every data file",
  security: BEARER_SECURITY,
  responses: {
    200: {
      description: "Files, formats, counts and errors",
      content: { "application/json": { schema: dataSchema } },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
  },
});

const reloadRoute = createRoute({
  method: "post",
  path: "/reload",
  tags: ["Diagnostics"],
  summary: "Re-read every data file; swap only when all are valid",
  security: BEARER_SECURITY,
  responses: {
    200: {
      description: "The new catalogue is served",
      content: { "application/json": { schema: reloadSchema } },
    },
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    422: apiError(
      "A data file is invalid, or a file `manifest.json` lists is missing: nothing was " +
        "swapped; `details.problems` lists every problem by file, `details.catalogue_version` " +
        "the version still served",
    ),
  },
});

function counts(snapshot: CatalogueSnapshot) {
  return { ...snapshot.counts };
}

/** The health route, to mount at `/health`. */
export function healthRoutes({ catalogue }: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.openapi(healthRoute, (c) => {
    const snapshot = catalogue.current();
    return c.json({
      status: "ok" as const,
      version: SERVICE_VERSION,
      catalogue_version: snapshot.version,
      ...counts(snapshot),
    }, 200);
  });
  return app;
}

/** The data status and the reload (admin), to mount at `/api/v1/debug`. */
export function debugRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { catalogue } = deps;
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });

  app.openapi({ ...dataRoute, middleware: requireAdmin(deps) }, (c) => {
    const snapshot = catalogue.current();
    const last = catalogue.lastReload();
    return c.json({
      catalogue_version: snapshot.version,
      loaded_at: snapshot.source.loaded_at,
      load_ms: snapshot.source.load_ms,
      ...counts(snapshot),
      files: snapshot.source.files,
      additions: { ...snapshot.additions, skipped: [...snapshot.skipped] },
      last_reload: last ?? null,
    }, 200);
  });

  app.openapi({ ...reloadRoute, middleware: requireAdmin(deps) }, async (c) => {
    const previous = catalogue.current().version;
    const result = await catalogue.reload();
    if (!result.ok) {
      throw httpError(
        422,
        `Reload refused: ${result.problems.length} problem(s) in the data files; the previous ` +
          "catalogue is still served",
        { catalogue_version: previous, problems: result.problems, files: result.files },
      );
    }
    return c.json({
      status: "reloaded" as const,
      catalogue_version: result.snapshot.version,
      previous_version: previous,
      ms: result.ms,
      ...counts(result.snapshot),
      files: result.snapshot.source.files,
    }, 200);
  });

  return app;
}
