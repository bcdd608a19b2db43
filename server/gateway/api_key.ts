/**
 * API-key comparison that takes the same time whatever the given key is: both sides are hashed
 * to SHA-256 first, so lengths never differ, and the digests are compared without early exit.
 */

/** True when both arrays hold the same bytes; time depends on the length only. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  // Lengths are public here (two digests); still, a mismatch must not return early.
  let diff = a.length ^ b.length;
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** A checker for one configured key: `check(given)` resolves true only for that key. */
export function apiKeyChecker(expected: string): (given: string | undefined) => Promise<boolean> {
  const expectedDigest = sha256(expected);
  return async (given) => {
    // A missing key is hashed too, so that it costs as much as a wrong one.
    const digest = await sha256(given ?? "");
    return timingSafeEqual(digest, await expectedDigest) && given !== undefined;
  };
}
