/**
 * Sign-in: ORCID (redirect to the provider with a signed `state`, then the callback exchanges
 * the code, issues a token and sends the browser to `FRONTEND_URL?token=...`), the built-in
 * admin's e-mail and password, and `/auth/me`. Tokens are HS256 JWTs with `sub`, `name`,
 * `is_admin`, `iat` and `exp` (lifetime from `JWT_LIFETIME_HOURS`).
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
import { checkAdminLogin } from "../../lib/auth/password.ts";
import { toProfile } from "../../lib/auth/principal.ts";
import { createOpenAPIApp, httpError } from "../middleware/errors.ts";
import { BEARER_SECURITY, requireUser, UNAUTHORIZED } from "./auth.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { apiError, userProfileSchema } from "./schemas.ts";

const tokenSchema = z.object({
  access_token: z.string().describe("HS256 JWT; send as `Authorization: Bearer <token>`"),
  token_type: z.literal("bearer"),
  expires_in: z.number().int().describe("Seconds until the token expires"),
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
    400: apiError("Missing code or state, or a forged or expired state"),
    502: apiError("ORCID refused the code or could not be reached"),
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
    503: apiError("No built-in admin is configured (ADMIN_EMAIL, ADMIN_PASSWORD_HASH)"),
  },
});

const meRoute = createRoute({
  method: "get",
  path: "/me",
  tags: ["Auth"],
  summary: "The caller's profile",
  security: BEARER_SECURITY,
  responses: {
    200: {
      description: "Subject, name, ORCID iD or e-mail, admin flag",
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
        throw httpError(502, error.message, { status: error.status, code: error.code });
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

  app.openapi(loginRoute, async (c) => {
    if (!config.admin) {
      throw httpError(
        503,
        "No built-in admin is configured: set ADMIN_EMAIL and ADMIN_PASSWORD_HASH",
      );
    }
    const { email, password } = c.req.valid("json");
    const login = await checkAdminLogin(config.admin, email, password);
    if (!login.ok) throw httpError(401, "Wrong e-mail or password");
    const token = await issue({
      sub: `admin:${login.email}`,
      name: "Administrator",
      is_admin: true,
      email: login.email,
    });
    c.header("Cache-Control", "no-store");
    return c.json({
      access_token: token,
      token_type: "bearer" as const,
      expires_in: config.tokenLifetimeSeconds,
    }, 200);
  });

  app.openapi({ ...meRoute, middleware: requireUser(deps) }, (c) => {
    return c.json(toProfile(c.get("principal")), 200);
  });

  return app;
}
