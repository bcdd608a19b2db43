/**
 * Mounts the routes OpenTech-DB's own frontend calls that the spec does not have, each a second
 * wire form of a domain operation the spec's routes use too (the submission desk, the review,
 * the catalogue editor), with the same auth and limits. Their errors carry `detail` as well.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { API } from "../app.ts";
import type { CatalogueDeps, CatalogueEnv } from "../deps.ts";
import { catalogueAdminRoutes } from "./catalogue_admin_routes.ts";
import { errorDetail } from "./frontend_errors.ts";
import { ontologyRoutes } from "./ontology_routes.ts";
import { profileReviewRoutes, profileUploadRoutes } from "./profile_routes.ts";
import {
  mySubmissionRoutes,
  opentechReviewRoutes,
  opentechSubmitRoutes,
} from "./technology_submission_routes.ts";

/** Paths of the compatibility routes (below `/api/v1`), whose errors also carry `detail`. */
const PATHS = [
  "/ontology/*",
  "/submissions/*",
  "/admin/submissions",
  "/admin/submissions/*",
  "/admin/technologies",
  "/admin/technologies/*",
  "/timeseries/upload",
  "/admin/timeseries/submissions/*",
];

/** Adds OpenTech-DB's frontend routes to the catalogue app. */
export function mountOpentechRoutes(app: OpenAPIHono<CatalogueEnv>, deps: CatalogueDeps): void {
  for (const path of PATHS) app.use(`${API}${path}`, errorDetail());
  app.on("POST", `${API}/technologies`, errorDetail());
  app.on("DELETE", `${API}/timeseries/*`, errorDetail());
  app.route(`${API}/ontology`, ontologyRoutes(deps));
  app.route(`${API}/technologies`, opentechSubmitRoutes(deps));
  app.route(`${API}/submissions`, mySubmissionRoutes(deps));
  app.route(`${API}/admin/submissions`, opentechReviewRoutes(deps));
  app.route(`${API}/admin/technologies`, catalogueAdminRoutes(deps));
  app.route(`${API}/timeseries`, profileUploadRoutes(deps));
  app.route(`${API}/admin/timeseries`, profileReviewRoutes(deps));
}
