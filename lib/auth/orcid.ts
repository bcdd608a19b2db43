/**
 * ORCID sign-in (3-legged OAuth 2.0, scope `/authenticate`): the authorisation link, the code
 * exchange at ORCID's token endpoint, and a signed `state` that needs no server-side session.
 */
import { z } from "zod";
import { decodeBase64Url, encodeBase64Url } from "./base64url.ts";
import { hmacSign, hmacVerify } from "./hmac.ts";

/** ORCID client settings. */
export interface OrcidConfig {
  clientId: string;
  clientSecret: string;
  /** The callback URL registered with ORCID (the service's `/api/v1/auth/orcid/callback`). */
  redirectUri: string;
  environment: "sandbox" | "production";
  /** Overrides the environment's base URL (tests point it at a local fake). */
  baseUrl?: string;
}

/** The researcher an authorisation code belongs to. */
export interface OrcidIdentity {
  /** ORCID iD, e.g. 0000-0002-1825-0097. */
  orcid: string;
  /** Name on the ORCID record; the iD when the record shows none. */
  name: string;
}

/** ORCID refused the exchange or could not be reached; `status` 0 when no response came. */
export class OrcidError extends Error {
  override name = "OrcidError";
  /** HTTP status of ORCID's answer, 0 for a network failure. */
  readonly status: number;
  /** OAuth error code, e.g. `invalid_grant`, or `network_error` / `invalid_response`. */
  readonly code: string;

  constructor(status: number, code: string, description: string) {
    super(`ORCID token exchange failed (${code}): ${description}`);
    this.status = status;
    this.code = code;
  }
}

/** `fetch` as the exchange needs it; tests pass their own. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

const BASE_URLS = {
  sandbox: "https://sandbox.orcid.org",
  production: "https://orcid.org",
} as const;

/** How long a `state` stays valid: 10 minutes, in seconds. */
export const STATE_LIFETIME_SECONDS = 600;

const STATE_PURPOSE = "orcid-state";

const ORCID_ID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

// ORCID's token response: access_token, token_type, refresh_token, expires_in, scope, name, orcid.
const TokenResponseSchema = z.looseObject({
  access_token: z.string(),
  orcid: z.string().regex(ORCID_ID),
  name: z.string().nullish(),
});

const ErrorResponseSchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});

/** The ORCID base URL for the configuration, without a trailing slash. */
export function orcidBaseUrl(config: OrcidConfig): string {
  return (config.baseUrl ?? BASE_URLS[config.environment]).replace(/\/+$/, "");
}

/** The link that sends the browser to ORCID's sign-in page. */
export function authorizeUrl(config: OrcidConfig, state: string): string {
  const query = new URLSearchParams({
    client_id: config.clientId,
    response_type: "code",
    scope: "/authenticate",
    redirect_uri: config.redirectUri,
    state,
  });
  return `${orcidBaseUrl(config)}/oauth/authorize?${query}`;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * Exchanges an authorisation code for the researcher's ORCID iD and name (POST
 * `/oauth/token`, form-encoded, grant type `authorization_code`); throws OrcidError with ORCID's
 * own message when it refuses.
 */
export async function exchangeCode(
  config: OrcidConfig,
  code: string,
  fetchFn: FetchLike = fetch,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): Promise<OrcidIdentity> {
  let response: Response;
  try {
    response = await fetchFn(`${orcidBaseUrl(config)}/oauth/token`, {
      method: "POST",
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_secret: config.clientSecret,
        grant_type: "authorization_code",
        code,
        redirect_uri: config.redirectUri,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new OrcidError(
      0,
      "network_error",
      error instanceof Error ? error.message : String(error),
    );
  }
  const body = await readJson(response);
  if (!response.ok) {
    const refused = ErrorResponseSchema.safeParse(body);
    if (refused.success) {
      throw new OrcidError(
        response.status,
        refused.data.error,
        refused.data.error_description ?? refused.data.error,
      );
    }
    throw new OrcidError(response.status, "invalid_response", `HTTP ${response.status}`);
  }
  const token = TokenResponseSchema.safeParse(body);
  if (!token.success) {
    throw new OrcidError(
      response.status,
      "invalid_response",
      "the token response lacks a valid orcid iD or access_token",
    );
  }
  const name = token.data.name?.trim();
  return { orcid: token.data.orcid, name: name ? name : token.data.orcid };
}

/** Outcome of `checkState`. */
export type StateCheck =
  | { ok: true }
  | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

function stateMessage(issuedAt: string, nonce: string): string {
  // The purpose prefix keeps a state MAC from being valid as anything else under the secret.
  return `${STATE_PURPOSE}.${issuedAt}.${nonce}`;
}

/**
 * A fresh OAuth `state`: issue time, random nonce and their HMAC under `secret`, so the callback
 * can tell a state this service issued in the last 10 minutes from a forged one.
 */
export async function createState(secret: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const nonce = encodeBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  const mac = encodeBase64Url(await hmacSign(secret, stateMessage(String(issuedAt), nonce)));
  return `${issuedAt}.${nonce}.${mac}`;
}

/** Checks a callback's `state`: signed with `secret`, issued at most `maxAgeSeconds` ago. */
export async function checkState(
  state: string,
  secret: string,
  now: Date,
  { maxAgeSeconds = STATE_LIFETIME_SECONDS }: { maxAgeSeconds?: number } = {},
): Promise<StateCheck> {
  const parts = state.split(".");
  if (parts.length !== 3) return { ok: false, reason: "malformed" };
  const [issuedText, nonce, macText] = parts as [string, string, string];
  if (!/^\d{1,12}$/.test(issuedText) || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) {
    return { ok: false, reason: "malformed" };
  }
  let mac: Uint8Array;
  try {
    mac = decodeBase64Url(macText);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (mac.length !== 32 || !await hmacVerify(secret, stateMessage(issuedText, nonce), mac)) {
    return { ok: false, reason: "bad_signature" };
  }
  const age = Math.floor(now.getTime() / 1000) - Number(issuedText);
  // A state from the future (beyond a minute of clock skew) is as suspect as an old one.
  if (age > maxAgeSeconds || age < -60) return { ok: false, reason: "expired" };
  return { ok: true };
}
