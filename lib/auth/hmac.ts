/**
 * HMAC-SHA256 over a text secret with WebCrypto (RFC 2104, FIPS 198-1). Verification goes through
 * `crypto.subtle.verify`, which compares in constant time.
 */

const encoder = new TextEncoder();

/** Imports a text secret (its UTF-8 bytes) as an HMAC-SHA256 key; throws TypeError if empty. */
export function hmacKey(secret: string): Promise<CryptoKey> {
  if (secret.length === 0) throw new TypeError("HMAC secret must not be empty");
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

/** The 32-byte HMAC-SHA256 of a text message under a text secret. */
export async function hmacSign(secret: string, message: string): Promise<Uint8Array> {
  const key = await hmacKey(secret);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** Whether `signature` is the HMAC-SHA256 of `message` under `secret` (constant-time). */
export async function hmacVerify(
  secret: string,
  message: string,
  signature: Uint8Array,
): Promise<boolean> {
  const key = await hmacKey(secret);
  return crypto.subtle.verify(
    "HMAC",
    key,
    signature as Uint8Array<ArrayBuffer>,
    encoder.encode(message),
  );
}
