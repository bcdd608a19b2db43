/**
 * Strict base64url (RFC 4648 §5, no padding), as JWS compact serialisation requires
 * (RFC 7515 §2): other alphabets, padding, whitespace and non-canonical trailing bits are refused,
 * so that one token has exactly one spelling.
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/** Encodes bytes as unpadded base64url. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Encodes a string's UTF-8 bytes as unpadded base64url. */
export function encodeBase64UrlText(text: string): string {
  return encodeBase64Url(new TextEncoder().encode(text));
}

/** Decodes unpadded base64url; throws SyntaxError on anything that is not its canonical form. */
export function decodeBase64Url(text: string): Uint8Array {
  if (!ALPHABET.test(text) || text.length % 4 === 1) {
    throw new SyntaxError("Invalid base64url: characters outside [A-Za-z0-9_-] or bad length");
  }
  const padded = text.replaceAll("-", "+").replaceAll("_", "/") +
    "=".repeat((4 - text.length % 4) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  // atob ignores set bits after the last full byte; a second spelling of the same bytes is refused.
  if (encodeBase64Url(bytes) !== text) {
    throw new SyntaxError("Invalid base64url: non-canonical trailing bits");
  }
  return bytes;
}

/** Decodes base64url to UTF-8 text; throws SyntaxError on bad base64url or invalid UTF-8. */
export function decodeBase64UrlText(text: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64Url(text));
  } catch (error) {
    if (error instanceof SyntaxError) throw error;
    throw new SyntaxError("Invalid base64url: not UTF-8 text");
  }
}
