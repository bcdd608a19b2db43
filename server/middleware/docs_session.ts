/**
 * Browser access to API docs behind a key. A browser cannot add an `X-Api-Key` header to a page
 * load, so `<docs>?api_key=...` once trades the key for a cookie and redirects to the bare URL
 * (`server/middleware/api_key.ts`). The cookie holds an expiry and an HMAC of it under the key,
 * never the key itself, and only opens the docs page, its assets and the OpenAPI document.
 */
import { decodeBase64Url, encodeBase64Url } from "../../lib/auth/base64url.ts";

/** How long a docs cookie is valid, seconds. */
export const DOCS_SESSION_SECONDS = 8 * 60 * 60;

const encoder = new TextEncoder();

/** The bytes of a canonical base64url text, or undefined. */
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return new Uint8Array(decodeBase64Url(text));
  } catch {
    return undefined;
  }
}

/** Issues and checks docs tokens `<expiry seconds>.<HMAC-SHA256 of it>` under the API key. */
export interface DocsSession {
  /** A token valid for DOCS_SESSION_SECONDS from now. */
  issue(): Promise<string>;
  /** True for an unexpired token issued under this key. */
  verify(token: string | undefined): Promise<boolean>;
}

/** The docs session of one API key; `now` gives milliseconds since the epoch. */
export function docsSession(apiKey: string, now: () => number = Date.now): DocsSession {
  const key = crypto.subtle.importKey(
    "raw",
    encoder.encode(apiKey),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const message = (expiry: string) => encoder.encode(`api-docs:${expiry}`);
  return {
    async issue() {
      const expiry = String(Math.floor(now() / 1000) + DOCS_SESSION_SECONDS);
      const mac = await crypto.subtle.sign("HMAC", await key, message(expiry));
      return `${expiry}.${encodeBase64Url(new Uint8Array(mac))}`;
    },
    async verify(token) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
      const expiry = match?.[1];
      const mac = match?.[2] === undefined ? undefined : fromBase64url(match[2]);
      if (expiry === undefined || mac === undefined) return false;
      // crypto.subtle.verify compares in constant time.
      const valid = await crypto.subtle.verify("HMAC", await key, mac, message(expiry));
      return valid && Number(expiry) * 1000 > now();
    },
  };
}
