/**
 * Tokens of the external session store (Supabase-style access tokens: HS256 over the store's JWT
 * secret `SESSION_STORE_JWT_SECRET`). A store user is an admin when the store's
 * `app_metadata.is_admin` is true; `app_metadata` is writable only with the store's service role,
 * whereas `user_metadata` is the user's own and is never trusted for rights.
 */
import { z } from "zod";
import { type TokenFailure, verifyHs256 } from "./hs256.ts";

/** The caller a verified store token names. */
export interface SessionStoreUser {
  subject: string;
  name: string;
  email?: string;
  is_admin: boolean;
}

/** Outcome of `verifySessionStoreToken`. */
export type SessionStoreResult =
  | { ok: true; user: SessionStoreUser }
  | { ok: false; reason: TokenFailure | "not_a_user" };

/** Claims read from a store token; others are ignored. */
export const SessionStoreClaimsSchema = z.looseObject({
  sub: z.string().min(1),
  exp: z.number(),
  email: z.string().optional(),
  role: z.string().optional(),
  app_metadata: z.looseObject({ is_admin: z.boolean().optional() }).optional(),
  user_metadata: z.looseObject({
    full_name: z.string().optional(),
    name: z.string().optional(),
  }).optional(),
});

/**
 * Verifies a session-store token with the store's secret and maps it to a user. The store's API
 * keys are signed with the same secret but name no user (`anon`, `service_role`; no `sub`) and are
 * refused.
 */
export async function verifySessionStoreToken(
  token: string,
  storeSecret: string,
  { now = new Date() }: { now?: Date } = {},
): Promise<SessionStoreResult> {
  const result = await verifyHs256(token, storeSecret, now);
  if (!result.ok) return result;
  const role = result.payload["role"];
  if (role === "anon" || role === "service_role") return { ok: false, reason: "not_a_user" };
  const parsed = SessionStoreClaimsSchema.safeParse(result.payload);
  if (!parsed.success) {
    return {
      ok: false,
      reason: result.payload["sub"] === undefined ? "not_a_user" : "invalid_claims",
    };
  }
  const claims = parsed.data;
  const name = claims.user_metadata?.full_name?.trim() || claims.user_metadata?.name?.trim() ||
    claims.email || claims.sub;
  return {
    ok: true,
    user: {
      subject: claims.sub,
      name,
      ...(claims.email !== undefined ? { email: claims.email } : {}),
      is_admin: claims.app_metadata?.is_admin === true,
    },
  };
}
