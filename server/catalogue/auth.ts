/**
 * Access control of the catalogue routes: `requireUser` lets through any caller with a valid
 * Bearer token (this service's HS256 token, or a session-store token when its secret is
 * configured), `requireAdmin` only those whose token says `is_admin`. 401 without a token or
 * with a bad, expired, unsigned or `alg: none` one; 403 for a valid token without admin rights.
 */
import type { MiddlewareHandler } from "hono";
import { authenticate, type Principal } from "../../lib/auth/principal.ts";
import { httpError } from "../middleware/errors.ts";
import type { CatalogueDeps, CatalogueEnv } from "./deps.ts";
import { apiError } from "./schemas.ts";

/** Name of the bearer security scheme in the OpenAPI document. */
export const BEARER_SCHEME = "BearerAuth";

/** `security` of a protected route. */
export const BEARER_SECURITY = [{ [BEARER_SCHEME]: [] }];

/** The 401 of every protected route. */
export const UNAUTHORIZED = apiError(
  "Missing Authorization header, or a malformed, invalid, expired or unsigned token",
);

/** The 403 of admin routes. */
export const FORBIDDEN = apiError("The token is valid but not an admin's (`is_admin` false)");

/** The caller of an `Authorization` header, or a 401 HTTPException. */
export async function principalOf(
  deps: Pick<CatalogueDeps, "config" | "clock">,
  header: string | undefined,
): Promise<Principal> {
  const result = await authenticate(header, {
    jwtSecret: deps.config.jwtSecret,
    sessionStoreSecret: deps.config.sessionStoreSecret,
    now: deps.clock(),
  });
  if (!result.ok) throw httpError(401, result.error, { reason: result.reason });
  return result.principal;
}

/** Lets through callers with a valid token; sets `principal`. */
export function requireUser(
  deps: Pick<CatalogueDeps, "config" | "clock">,
): MiddlewareHandler<CatalogueEnv> {
  return async (c, next) => {
    let principal: Principal;
    try {
      principal = await principalOf(deps, c.req.header("Authorization"));
    } catch (error) {
      // RFC 6750 §3: a 401 names the scheme the client should use.
      c.header("WWW-Authenticate", 'Bearer realm="catalogue"');
      throw error;
    }
    c.set("principal", principal);
    await next();
  };
}

/** Lets through admins only; sets `principal`. */
export function requireAdmin(
  deps: Pick<CatalogueDeps, "config" | "clock">,
): MiddlewareHandler<CatalogueEnv> {
  const user = requireUser(deps);
  return (c, next) =>
    user(c, async () => {
      const principal = c.get("principal");
      if (!principal.is_admin) {
        throw httpError(403, `Admin rights needed: ${principal.subject} is not an admin`);
      }
      await next();
    });
}

/** The submitter or reviewer a principal stands for. */
export function personOf(principal: Principal): { subject: string; name: string } {
  return { subject: principal.subject, name: principal.name };
}
