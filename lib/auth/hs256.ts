/**
 * JSON Web Tokens signed with HS256 (RFC 7519 over RFC 7515 compact serialisation, algorithm
 * from RFC 7518 §3.2), claim-agnostic: the local tokens (`jwt.ts`) and the session store's
 * tokens (`session_store.ts`) both check their claims on top of this.
 */
import {
  decodeBase64Url,
  decodeBase64UrlText,
  encodeBase64Url,
  encodeBase64UrlText,
} from "./base64url.ts";
import { hmacSign, hmacVerify } from "./hmac.ts";

/** Why a token was refused. */
export type TokenFailure =
  | "malformed"
  | "unsupported_alg"
  | "bad_signature"
  | "missing_exp"
  | "expired"
  | "not_yet_valid"
  | "invalid_claims";

/** Outcome of checking a token: its payload, or why it was refused. */
export type Hs256Result =
  | { ok: true; payload: Record<string, unknown> }
  | { ok: false; reason: TokenFailure };

const HEADER = encodeBase64UrlText(JSON.stringify({ alg: "HS256", typ: "JWT" }));

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(decodeBase64UrlText(segment));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Signs a JSON payload as an HS256 JWT. */
export async function signHs256(payload: Record<string, unknown>, secret: string): Promise<string> {
  const input = `${HEADER}.${encodeBase64UrlText(JSON.stringify(payload))}`;
  return `${input}.${encodeBase64Url(await hmacSign(secret, input))}`;
}

/**
 * Verifies an HS256 JWT: header, signature, then `exp` (required) and `nbf` (if present) against
 * `now`, in whole seconds since the epoch (RFC 7519 §4.1.4, §4.1.5).
 */
export async function verifyHs256(token: string, secret: string, now: Date): Promise<Hs256Result> {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "malformed" };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = parseSegment(headerPart);
  if (!header) return { ok: false, reason: "malformed" };
  // Only HS256: the algorithm is ours to choose, never the token's ("none", RS256 key confusion).
  if (header["alg"] !== "HS256") return { ok: false, reason: "unsupported_alg" };
  // RFC 7515 §4.1.11: extensions we do not implement must make the token fail.
  if ("crit" in header) return { ok: false, reason: "unsupported_alg" };
  let signature: Uint8Array;
  try {
    signature = decodeBase64Url(signaturePart);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (signature.length !== 32) return { ok: false, reason: "bad_signature" };
  if (!await hmacVerify(secret, `${headerPart}.${payloadPart}`, signature)) {
    return { ok: false, reason: "bad_signature" };
  }
  const payload = parseSegment(payloadPart);
  if (!payload) return { ok: false, reason: "malformed" };
  const seconds = Math.floor(now.getTime() / 1000);
  const exp = payload["exp"];
  if (exp === undefined) return { ok: false, reason: "missing_exp" };
  if (typeof exp !== "number" || !Number.isFinite(exp)) {
    return { ok: false, reason: "invalid_claims" };
  }
  if (seconds >= exp) return { ok: false, reason: "expired" };
  const nbf = payload["nbf"];
  if (nbf !== undefined) {
    if (typeof nbf !== "number" || !Number.isFinite(nbf)) {
      return { ok: false, reason: "invalid_claims" };
    }
    if (seconds < nbf) return { ok: false, reason: "not_yet_valid" };
  }
  return { ok: true, payload };
}
