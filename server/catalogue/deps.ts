/**
 * What the catalogue routes need from outside, passed in so that tests can hand in an in-memory
 * store, a fixed clock and local fakes of ORCID and the literature sources.
 */
import type { PasswordHasher } from "../../lib/auth/password_pool.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import type { CatalogueService } from "../../lib/catalogue/served/catalogue_service.ts";
import type { SubmissionDesk } from "../../lib/catalogue/submissions/submission_desk.ts";
import type { CatalogueEditor } from "../../lib/catalogue/submissions/catalogue_editor.ts";
import type { SubmissionRepository } from "../../lib/catalogue/submissions/submission_repository.ts";
import type { ScraperService } from "../../lib/scraper/service.ts";
import type { CatalogueSettings } from "./config.ts";

/**
 * The settings the app is built with, and the JWT signing secret; the sign-in and submission
 * limits default to CATALOGUE_DEFAULTS.
 */
export type CatalogueAppConfig =
  & Pick<
    CatalogueSettings,
    | "catalogueDir"
    | "profilesDir"
    | "tokenLifetimeSeconds"
    | "orcid"
    | "frontendUrl"
    | "admin"
    | "sessionStoreSecret"
    | "allowedOrigins"
    | "scraper"
  >
  & Partial<Pick<CatalogueSettings, "login" | "maxPendingSubmissions" | "opentechOrigins">>
  & {
    /** HS256 secret of the service's tokens, at least 32 bytes. */
    jwtSecret: string;
  };

/** Dependencies of the catalogue routes. */
export interface CatalogueDeps {
  config: CatalogueAppConfig;
  clock: () => Date;
  fetch: typeof fetch;
  catalogue: CatalogueService;
  desk: SubmissionDesk;
  submissions: SubmissionRepository;
  /** Admin edits and deletes of served technologies. */
  editor: CatalogueEditor;
  scraper: ScraperService;
  /** bcrypt off the main thread, with a bounded queue. */
  passwords: PasswordHasher;
}

/** Hono environment of the catalogue routes: the authenticated caller, where there is one. */
export type CatalogueEnv = { Variables: { principal: Principal } };
