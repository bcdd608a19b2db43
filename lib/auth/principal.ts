/**
 * Who is calling: a Bearer token from the `Authorization` header, checked as a local token and,
 * when a session store is configured, as a session-store token.
 */
import { z } from "zod";
import { type TokenFailure, verifyToken } from "./jwt.ts";
import { verifySessionStoreToken } from "./session_store.ts";

/** An authenticated caller. */
export interface Principal {
  /** Token subject: ORCID iD, `admin:<e-mail>` or the session store's user id. */
  subject: string;
  name: string;
  orcid?: string;
  email?: string;
  is_admin: boolean;
  /** Which secret the token verified with. */
  issuer: "local" | "session_store";
}

/** Secrets and clock for `authenticate`. */
export interface AuthenticateOptions {
  jwtSecret: string;
  /** The session store's JWT secret; store tokens are refused without it. */
  sessionStoreSecret?: string | undefined;
  now?: Date;
}

/** Why a request is unauthenticated, beyond the token failures. */
export type AuthFailure = TokenFailure | "not_a_user" | "missing_token" | "bad_scheme";

/** Outcome of `authenticate`: the principal, or a 401 with a message for the client. */
export type AuthResult =
  | { ok: true; principal: Principal }
  | { ok: false; status: 401; reason: AuthFailure; error: string };

const MESSAGES: Record<AuthFailure, string> = {
  missing_token: "Missing Authorization header (expected: Bearer <token>)",
  bad_scheme: "The Authorization header must use the Bearer scheme",
  malformed: "Malformed token",
  unsupported_alg: "Token algorithm not accepted (HS256 only)",
  bad_signature: "Invalid token signature",
  missing_exp: "Token has no expiry (exp)",
  expired: "Token expired",
  not_yet_valid: "Token not yet valid (nbf)",
  invalid_claims: "Token claims are invalid",
  not_a_user: "Token does not identify a user",
};

function fail(reason: AuthFailure): AuthResult {
  return { ok: false, status: 401, reason, error: MESSAGES[reason] };
}

/** Authenticates the value of an `Authorization` header. */
export async function authenticate(
  authorization: string | null | undefined,
  { jwtSecret, sessionStoreSecret, now = new Date() }: AuthenticateOptions,
): Promise<AuthResult> {
  if (authorization === null || authorization === undefined || authorization.trim() === "") {
    return fail("missing_token");
  }
  const match = /^Bearer +(\S+) *$/i.exec(authorization.trim());
  if (!match) return fail("bad_scheme");
  const token = match[1]!;
  const local = await verifyToken(token, jwtSecret, { now });
  if (local.ok) {
    const { sub, name, is_admin, orcid, email } = local.claims;
    return {
      ok: true,
      principal: {
        subject: sub,
        name,
        is_admin,
        issuer: "local",
        ...(orcid !== undefined ? { orcid } : {}),
        ...(email !== undefined ? { email } : {}),
      },
    };
  }
  // A token that is not even a well-formed HS256 JWT fails the same way under any secret.
  if (!sessionStoreSecret || local.reason === "malformed" || local.reason === "unsupported_alg") {
    return fail(local.reason);
  }
  const store = await verifySessionStoreToken(token, sessionStoreSecret, { now });
  if (store.ok) return { ok: true, principal: { ...store.user, issuer: "session_store" } };
  // Report the failure of whichever secret the signature matched.
  return fail(local.reason === "bad_signature" ? store.reason : local.reason);
}

/** The `/auth/me` profile. */
export const ProfileSchema = z.object({
  subject: z.string().describe("Token subject (ORCID iD, admin:<e-mail>, store id)"),
  name: z.string().describe("Display name"),
  orcid: z.string().nullable().describe("ORCID iD, when signed in with ORCID"),
  email: z.string().nullable().describe("E-mail, for the admin and store users"),
  is_admin: z.boolean().describe("Whether the caller may use admin endpoints"),
  issuer: z.enum(["local", "session_store"]).describe(
    "local: a token of this service; session_store: a token of the session store",
  ),
});

/** The `/auth/me` profile. */
export type Profile = z.infer<typeof ProfileSchema>;

/** The profile `/auth/me` returns for a principal. */
export function toProfile(principal: Principal): Profile {
  return {
    subject: principal.subject,
    name: principal.name,
    orcid: principal.orcid ?? null,
    email: principal.email ?? null,
    is_admin: principal.is_admin,
    issuer: principal.issuer,
  };
}
