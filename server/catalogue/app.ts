/**
 * The technology catalogue service: the catalogue and its adapters, time series, submissions
 * and their review, sign-in, the admin-only scraper and diagnostics, under `/api/v1` (health at
 * `/health`), with `/openapi.json`, `/docs` (Swagger UI) and `/redoc` generated from the same
 * zod schemas that validate the requests.
 *
 * Reads are public; submissions need a valid token; reviews, the scraper and diagnostics need an
 * admin token. User state lives in the store handed in (`STATE_PATH`); the served catalogue is
 * read from the data files into memory, with approved additions and admin edits applied over it.
 *
 * OpenTech-DB's own frontend is a client too: the spec's answers carry its members beside the
 * spec's, and the routes only it calls are mounted from `opentech/` (`mount.ts`).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { createPasswordPool, type PasswordHasher } from "../../lib/auth/password_pool.ts";
import { MIN_SECRET_BYTES } from "../../lib/auth/secret.ts";
import {
  type CatalogueService,
  createCatalogueService,
} from "../../lib/catalogue/served/catalogue_service.ts";
import { createSubmissionDesk } from "../../lib/catalogue/submissions/submission_desk.ts";
import { createDuckDbSubmissionRepository } from "../../lib/catalogue/submissions/submission_repository.ts";
import { servedSubmittedProfile } from "../../lib/catalogue/submissions/timeseries_submission.ts";
import { createDuckDbScraperRepository } from "../../lib/scraper/duckdb_repository.ts";
import { createScraperService, type ScraperService } from "../../lib/scraper/service.ts";
import type { SourceClient, SourceName } from "../../lib/scraper/source.ts";
import type { Store } from "../../lib/store/store.ts";
import { guardJsonBody } from "../middleware/json_body_guard.ts";
import { createServiceApp } from "../middleware/service_app.ts";
import { cors } from "../middleware/cors.ts";
import { adapterRoutes, calliopeTechnologyRoutes } from "./adapters.ts";
import { BEARER_SCHEME } from "./auth.ts";
import { authRoutes } from "./auth_routes.ts";
import { CATALOGUE_DEFAULTS } from "./config.ts";
import type { CatalogueAppConfig, CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { debugRoutes, healthRoutes, SERVICE_VERSION } from "./diagnostics.ts";
import { docsRoutes } from "./docs.ts";
import { fuelRoutes } from "./fuels.ts";
import { candidateRoutes, scraperRoutes } from "./scraper.ts";
import { technologyRoutes } from "./technologies.ts";
import { technologyReviewRoutes, technologySubmitRoutes } from "./technology_submissions.ts";
import { timeseriesReviewRoutes, timeseriesRoutes } from "./timeseries.ts";
import { mountOpentechRoutes } from "./opentech/mount.ts";
import { profileListForFrontend } from "./opentech/profile_routes.ts";
import { serialQueue } from "../../lib/concurrency/serial_queue.ts";
import { applyProfileRemovals } from "../../lib/catalogue/served/profile_removal.ts";
import { createCatalogueEditor } from "../../lib/catalogue/submissions/catalogue_editor.ts";
import { createDuckDbCatalogueEditRepository } from "../../lib/catalogue/submissions/catalogue_edit_repository.ts";

/** The prefix of the versioned routes. */
export const API = "/api/v1";

/** Largest accepted request body, bytes (2 MiB: a 35,136-step profile fits easily). */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Path of the OpenAPI document. */
export const OPENAPI_PATH = "/openapi.json";

/** What the catalogue app is built from. */
export interface CatalogueAppOptions {
  /** The state store (open read-write; the app creates its tables when missing). */
  store: Store;
  config: CatalogueAppConfig;
  /** The current time; default the system clock. */
  clock?: () => Date;
  /** `fetch` for ORCID and the literature sources; tests pass one bound to local fakes. */
  fetch?: typeof fetch;
  /** Replaces the scraper's source clients (tests). */
  scraperClients?: Partial<Record<SourceName, SourceClient>>;
  /**
   * Checks passwords; default a pool of one bcrypt worker with `config.login.queueLimit`
   * waiting checks, stopped by `close()`.
   */
  passwords?: PasswordHasher;
}

/** The built service: its app, the served catalogue and the scraper. */
export interface CatalogueApp {
  app: OpenAPIHono<CatalogueEnv>;
  catalogue: CatalogueService;
  scraper: ScraperService;
  /**
   * Stops the scraper's schedule and waits for a run in progress, and stops the password
   * workers; the store stays open.
   */
  close(): Promise<void>;
}

/** Headers a browser caller of the catalogue may send. */
const CORS_HEADERS = ["Authorization", "Content-Type"];
/** Methods a browser caller of the catalogue may use. */
const CORS_METHODS = ["GET", "POST", "PATCH", "DELETE", "OPTIONS"];

/**
 * Builds the catalogue service: reads the data files (throws CatalogueLoadError when one is
 * invalid), creates the state tables when missing and marks scraper runs a previous process
 * left running as failed. Throws RangeError for a JWT secret shorter than 32 bytes.
 */
export async function createCatalogueApp(options: CatalogueAppOptions): Promise<CatalogueApp> {
  const { config } = options;
  const secretBytes = new TextEncoder().encode(config.jwtSecret).length;
  if (secretBytes < MIN_SECRET_BYTES) {
    throw new RangeError(
      `JWT_SECRET_KEY: the catalogue service needs a signing secret of at least ` +
        `${MIN_SECRET_BYTES} bytes, got ${secretBytes}`,
    );
  }
  const clock = options.clock ?? (() => new Date());
  const fetchFn = options.fetch ?? fetch;
  const submissions = await createDuckDbSubmissionRepository(options.store);
  const edits = await createDuckDbCatalogueEditRepository(options.store);
  const servedProfiles = applyProfileRemovals(
    (await submissions.approvedTimeseries()).map((s) => ({
      profile: servedSubmittedProfile(s),
      approved_at: s.reviewed_at ?? s.submitted_at,
    })),
    await edits.profileRemovals(),
  );
  const catalogue = await createCatalogueService({
    catalogueDir: config.catalogueDir,
    profilesDir: config.profilesDir,
    additions: await submissions.additions(),
    edits: await edits.edits(),
    submittedProfiles: servedProfiles.served,
    hiddenFileProfiles: servedProfiles.hiddenFileProfiles,
    now: clock,
  });
  const scraper = await createScraperService({
    repository: await createDuckDbScraperRepository(options.store),
    config: config.scraper,
    fetch: fetchFn,
    now: clock,
    ...(options.scraperClients ? { clients: options.scraperClients } : {}),
    onRunError: (error) => console.error("scraper: a run could not be recorded:", error),
  });
  // One queue for everything that checks the served catalogue and then changes it.
  const serial = serialQueue();
  const editor = createCatalogueEditor({ repository: edits, catalogue, now: clock, serial });
  const desk = createSubmissionDesk({
    repository: submissions,
    catalogue,
    now: clock,
    serial,
    maxPendingPerSubmitter: config.maxPendingSubmissions ??
      CATALOGUE_DEFAULTS.maxPendingSubmissions,
  });
  const passwords = options.passwords ?? createPasswordPool({
    maxQueued: config.login?.queueLimit ?? CATALOGUE_DEFAULTS.loginQueueLimit,
  });
  const deps: CatalogueDeps = {
    config,
    clock,
    fetch: fetchFn,
    catalogue,
    desk,
    submissions,
    editor,
    scraper,
    passwords,
  };

  const app = createServiceApp<CatalogueEnv>({ details: true });
  app.use(
    "*",
    cors({ origins: config.allowedOrigins, headers: CORS_HEADERS, methods: CORS_METHODS }),
  );
  // Every body within 2 MiB (413) and nested at most 64 deep (400) before a route reads it.
  app.use("*", guardJsonBody(MAX_BODY_BYTES));
  app.route("/health", healthRoutes(deps));
  app.route(`${API}/debug`, debugRoutes(deps));
  app.route("/", docsRoutes());
  app.route(`${API}/auth`, authRoutes(deps));
  app.route(`${API}/adapt`, adapterRoutes(deps));
  // Before the technology routes: /technologies/calliope must win over /technologies/{id}.
  app.route(`${API}/technologies`, calliopeTechnologyRoutes(deps));
  app.route(`${API}/technologies`, technologySubmitRoutes(deps));
  app.route(`${API}/technologies`, technologyRoutes(deps));
  app.route(`${API}/admin/technologies/submissions`, technologyReviewRoutes(deps));
  app.route(`${API}/fuels`, fuelRoutes(deps));
  app.route(`${API}/timeseries`, timeseriesRoutes(deps));
  // Before the spec's list: a request from an OpenTech-DB frontend gets the frontend's answer.
  app.get(
    `${API}/admin/timeseries/submissions`,
    profileListForFrontend(deps, config.opentechOrigins ?? []),
  );
  app.route(`${API}/admin/timeseries`, timeseriesReviewRoutes(deps));
  app.route(`${API}/scraper`, scraperRoutes(deps));
  app.route(`${API}/scraper/candidates`, candidateRoutes(deps));
  mountOpentechRoutes(app, deps);

  app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "HS256 token from `/api/v1/auth/orcid/callback` or `/api/v1/auth/admin/login` " +
      "(or a session-store token, when that store is configured)",
  });
  app.doc(OPENAPI_PATH, {
    openapi: "3.0.3",
    info: {
      title: "Technology catalogue service",
      version: SERVICE_VERSION,
      description: "Energy technologies with their equipment instances, hourly profiles, " +
        "adapters to PyPSA and Calliope, contributor submissions with admin review, and an " +
        "admin-only literature scraper. Reads are public; submissions need a Bearer token, " +
        "reviews, the scraper and diagnostics an admin token. Errors: `{ error, details? }`.",
    },
  });

  return {
    app,
    catalogue,
    scraper,
    async close() {
      await scraper.close();
      await passwords.close();
    },
  };
}
