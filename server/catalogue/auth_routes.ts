/**
 * Sign-in: ORCID (redirect to the provider with a signed `state`, then the callback exchanges
 * the code, issues a token and sends the browser to `FRONTEND_URL?token=...`), the built-in
 * admin's e-mail and password, and `/auth/me`. Tokens are HS256 JWTs with `sub`, `name`,
 * `is_admin`, `iat` and `exp` (lifetime from `JWT_LIFETIME_HOURS`).
 *
 * The admin sign-in is limited per client address and per e-mail address (429 with
 * `Retry-After`), and its bcrypt check runs on a worker thread with a bounded queue (503 with
 * `Retry-After` when full), so a flood of sign-ins neither stalls the process nor queues
 * unbounded work.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { signToken, type TokenSubject } from "../../lib/auth/jwt.ts";
import {
  authorizeUrl,
  checkState,
  createState,
  exchangeCode,
  type OrcidConfig,
  OrcidError,
} from "../../lib/auth/orcid.ts";
import { checkAdminLogin, normaliseEmail } from "../../lib/auth/password.ts";
import { PasswordQueueFullError } from "../../lib/auth/password_pool.ts";
import { toProfile } from "../../lib/auth/principal.ts";
import { withOpentechUser } from "../../lib/catalogue/opentech/opentech_user.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import { createRateLimiter, rateLimit, tooManyRequests } from "../middleware/rate_limit.ts";
import { BEARER_SECURITY, requireUser, UNAUTHORIZED } from "./auth.ts";
import { CATALOGUE_DEFAULTS } from "./config.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { apiError, userProfileSchema } from "./schemas.ts";

const tokenSchema = z.object({
  access_token: z.string().describe("HS256 JWT; send as `Authorization: Bearer <token>`"),
  token_type: z.literal("bearer"),
  expires_in: z.number().int().describe("Seconds until the token expires"),
  token: z.string().describe("OpenTech-DB frontend: the same token as `access_token`"),
  user: userProfileSchema.describe("OpenTech-DB frontend: the admin's profile, as `/auth/me`"),
}).openapi("TokenResponse");

const loginSchema = z.strictObject({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
}).openapi("AdminLogin");

const DISABLED = apiError(
  "ORCID sign-in is not configured (ORCID_CLIENT_ID, ORCID_CLIENT_SECRET, ORCID_REDIRECT_URI)",
);

const orcidRoute = createRoute({
  method: "get",
  path: "/orcid",
  tags: ["Auth"],
  summary: "Redirect to the ORCID sign-in page",
  responses: {
    302: { description: "To ORCID's authorisation page, with a signed `state`" },
    503: DISABLED,
  },
});

const callbackRoute = createRoute({
  method: "get",
  path: "/orcid/callback",
  tags: ["Auth"],
  summary: "ORCID's redirect back: issue a token and send the browser to the frontend",
  request: {
    query: z.object({
      code: z.string().min(1).openapi({ description: "Authorisation code from ORCID" }),
      state: z.string().min(1).openapi({ description: "The `state` this service issued" }),
    }),
  },
  responses: {
    302: { description: "To `FRONTEND_URL?token=<ACCESS_TOKEN>`" },
    400: apiError(
      "Missing code or state, a forged or expired state, or a code ORCID refused as invalid, " +
        "expired or used (`invalid_grant`)",
    ),
    502: apiError("ORCID could not be reached, or refused this service's own credentials"),
    503: DISABLED,
  },
});

const loginRoute = createRoute({
  method: "post",
  path: "/admin/login",
  tags: ["Auth"],
  summary: "Sign in as the built-in admin",
  request: {
    body: { required: true, content: { "application/json": { schema: loginSchema } } },
  },
  responses: {
    200: {
      description: "An admin token",
      content: { "application/json": { schema: tokenSchema } },
    },
    400: apiError("Invalid body or malformed JSON"),
    401: apiError("Wrong e-mail or password"),
    413: apiError("Body larger than 2 MiB"),
    415: apiError("Body not sent as application/json"),
    429: apiError(
      "Too many sign-in attempts from this client address (LOGIN_ATTEMPTS_PER_MINUTE) or for " +
        "this e-mail address (LOGIN_ACCOUNT_ATTEMPTS_PER_MINUTE); `Retry-After` gives the " +
        "seconds to wait",
    ),
    503: apiError(
      "No built-in admin is configured (ADMIN_EMAIL, ADMIN_PASSWORD_HASH), or too many " +
        "sign-ins wait for their password check (LOGIN_QUEUE_LIMIT; with `Retry-After`)",
    ),
  },
});

/** The window of the sign-in limits, ms. */
const MINUTE_MS = 60_000;

const meRoute = createRoute({
  method: "get",
  path: "/me",
  tags: ["Auth"],
  summary: "The caller's profile",
  security: BEARER_SECURITY,
  responses: {
    200: {
      description: "Subject, name, ORCID iD or e-mail, admin flag; and the same as " +
        "OpenTech-DB's frontend reads it (`id`, `username`, `is_contributor`, ...)",
      content: { "application/json": { schema: userProfileSchema } },
    },
    401: UNAUTHORIZED,
  },
});

function orcidOr503(orcid: OrcidConfig | undefined): OrcidConfig {
  if (!orcid) {
    throw httpError(
      503,
      "ORCID sign-in is disabled: set ORCID_CLIENT_ID, ORCID_CLIENT_SECRET and " +
        "ORCID_REDIRECT_URI to enable it",
    );
  }
  return orcid;
}

/** The sign-in routes, to mount at `/api/v1/auth`. */
export function authRoutes(deps: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const { config, clock } = deps;
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  const issue = (subject: TokenSubject) =>
    signToken(subject, config.jwtSecret, {
      lifetimeSeconds: config.tokenLifetimeSeconds,
      now: clock(),
    });

  app.openapi(orcidRoute, async (c) => {
    const orcid = orcidOr503(config.orcid);
    const state = await createState(config.jwtSecret, clock());
    c.header("Cache-Control", "no-store");
    return c.redirect(authorizeUrl(orcid, state), 302);
  });

  app.openapi(callbackRoute, async (c) => {
    const orcid = orcidOr503(config.orcid);
    const { code, state } = c.req.valid("query");
    const checked = await checkState(state, config.jwtSecret, clock());
    if (!checked.ok) {
      throw httpError(400, `Invalid state (${checked.reason}): start the sign-in again`);
    }
    let identity;
    try {
      identity = await exchangeCode(orcid, code, deps.fetch);
    } catch (error) {
      if (error instanceof OrcidError) {
        // A bad code is the caller's mistake; anything else is ORCID's or this configuration's.
        const status = error.code === "invalid_grant" ? 400 : 502;
        throw httpError(status, error.message, { status: error.status, code: error.code });
      }
      throw error;
    }
    const token = await issue({
      sub: identity.orcid,
      name: identity.name,
      is_admin: false,
      orcid: identity.orcid,
    });
    const target = new URL(config.frontendUrl);
    target.searchParams.set("token", token);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.redirect(target.toString(), 302);
  });

  const limits = config.login ?? {
    attemptsPerMinute: CATALOGUE_DEFAULTS.loginAttemptsPerMinute,
    accountAttemptsPerMinute: CATALOGUE_DEFAULTS.loginAccountAttemptsPerMinute,
  };
  const now = () => clock().getTime();
  const perAddress = createRateLimiter({
    limit: limits.attemptsPerMinute,
    windowMs: MINUTE_MS,
    clock: now,
  });
  const perAccount = createRateLimiter({
    limit: limits.accountAttemptsPerMinute,
    windowMs: MINUTE_MS,
    clock: now,
  });
  const addressLimit = rateLimit<CatalogueEnv>({
    limiter: perAddress,
    message: "Too many sign-in attempts from this address",
  });

  app.openapi({ ...loginRoute, middleware: addressLimit }, async (c) => {
    if (!config.admin) {
      throw httpError(
        503,
        "No built-in admin is configured: set ADMIN_EMAIL and ADMIN_PASSWORD_HASH",
      );
    }
    const { email, password } = c.req.valid("json");
    // Every address counts, the admin's or not, so a 429 does not tell which one is the admin's.
    const account = perAccount.take(normaliseEmail(email));
    if (!account.allowed) {
      tooManyRequests(
        c,
        account.retryAfterSeconds,
        "Too many sign-in attempts for this e-mail address",
      );
    }
    let login;
    try {
      login = await checkAdminLogin(config.admin, email, password, deps.passwords.compare);
    } catch (error) {
      if (!(error instanceof PasswordQueueFullError)) throw error;
      c.header("Retry-After", "1");
      throw httpError(503, "Too many sign-ins are waiting for their password check; retry in 1 s");
    }
    if (!login.ok) throw httpError(401, "Wrong e-mail or password");
    const token = await issue({
      sub: `admin:${login.email}`,
      name: "Administrator",
      is_admin: true,
      email: login.email,
    });
    c.header("Cache-Control", "no-store");
    const user = withOpentechUser({
      subject: `admin:${login.email}`,
      name: "Administrator",
      orcid: null,
      email: login.email,
      is_admin: true,
      issuer: "local",
    });
    return c.json({
      access_token: token,
      token_type: "bearer" as const,
      expires_in: config.tokenLifetimeSeconds,
      token,
      user,
    }, 200);
  });

  app.openapi({ ...meRoute, middleware: requireUser(deps) }, (c) => {
    return c.json(withOpentechUser(toProfile(c.get("principal"))), 200);
  });

  return app;
}
