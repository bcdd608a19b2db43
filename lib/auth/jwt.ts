/**
 * The service's own access tokens: HS256 JWTs over the service secret carrying who the caller
 * is and whether they are an admin. Any token with a valid signature and an unexpired `exp` is
 * accepted, whoever issued it with the secret; there is no issuer or audience check.
 */
import { z } from "zod";
import { signHs256, type TokenFailure, verifyHs256 } from "./hs256.ts";

export type { TokenFailure } from "./hs256.ts";

/** Default token lifetime: 24 hours, in seconds. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/** Claims of a local token; unknown extra claims are kept. Times are seconds since the epoch. */
export const TokenClaimsSchema = z.looseObject({
  /** Subject: the ORCID iD of a researcher, `admin:<e-mail>` for the built-in admin. */
  sub: z.string().min(1),
  name: z.string(),
  is_admin: z.boolean(),
  iat: z.number(),
  exp: z.number(),
  nbf: z.number().optional(),
  orcid: z.string().optional(),
  email: z.string().optional(),
});

/** Claims of a verified local token. */
export type TokenClaims = z.infer<typeof TokenClaimsSchema>;

/** What a caller puts into a new token; `iat` and `exp` are added when signing. */
export interface TokenSubject {
  sub: string;
  name: string;
  is_admin: boolean;
  orcid?: string;
  email?: string;
}

/** Options of `signToken`. */
export interface SignOptions {
  /** Seconds until `exp` (default 24 h). */
  lifetimeSeconds?: number;
  /** Issue time (default: the current time). */
  now?: Date;
}

/** Outcome of `verifyToken`. */
export type VerifyResult =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: TokenFailure };

/** Signs a local token for `subject` with `iat` = now and `exp` = now + lifetime. */
export function signToken(
  subject: TokenSubject,
  secret: string,
  { lifetimeSeconds = DEFAULT_TOKEN_LIFETIME_SECONDS, now = new Date() }: SignOptions = {},
): Promise<string> {
  if (!Number.isFinite(lifetimeSeconds) || lifetimeSeconds <= 0) {
    throw new RangeError(
      `Token lifetime must be a positive number of seconds, got ${lifetimeSeconds}`,
    );
  }
  if (subject.sub.length === 0) throw new TypeError("Token subject (sub) must not be empty");
  const iat = Math.floor(now.getTime() / 1000);
  return signHs256({ ...subject, iat, exp: iat + Math.floor(lifetimeSeconds) }, secret);
}

/** Verifies a local token's signature, `exp`, `nbf` and claim shape. */
export async function verifyToken(
  token: string,
  secret: string,
  { now = new Date() }: { now?: Date } = {},
): Promise<VerifyResult> {
  const result = await verifyHs256(token, secret, now);
  if (!result.ok) return result;
  const claims = TokenClaimsSchema.safeParse(result.payload);
  return claims.success
    ? { ok: true, claims: claims.data }
    : { ok: false, reason: "invalid_claims" };
}
