/**
 * Comparison of secrets in time that does not depend on where they differ or on their lengths:
 * both sides are hashed to SHA-256 first, so they always have the same length, and the digests
 * are compared without early exit. Synchronous, as it runs on every gateway request.
 */
import { createHash, timingSafeEqual } from "node:crypto";

function sha256(text: string): Uint8Array {
  return createHash("sha256").update(text).digest();
}

/** Whether two strings are equal, in time independent of their contents and lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/**
 * A matcher for one configured secret, its digest computed once: `matches(given)` is true only
 * for that secret. A missing value is hashed too, so it costs as much as a wrong one.
 */
export function secretMatcher(expected: string): (given: string | undefined) => boolean {
  const expectedDigest = sha256(expected);
  return (given) => timingSafeEqual(sha256(given ?? ""), expectedDigest) && given !== undefined;
}
