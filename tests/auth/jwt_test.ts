import assert from "node:assert/strict";
import { DEFAULT_TOKEN_LIFETIME_SECONDS, signToken, verifyToken } from "../../lib/auth/jwt.ts";
import { encodeBase64Url, encodeBase64UrlText } from "../../lib/auth/base64url.ts";
import { hmacSign } from "../../lib/auth/hmac.ts";

const SECRET = "test-secret-0123456789-abcdefghijklmnop";
const NOW = new Date("2025-01-01T00:00:00Z");
const NOW_S = NOW.getTime() / 1000;
const SUBJECT = { sub: "0000-0002-1825-0097", name: "Josiah Carberry", is_admin: false };

/** Signs any header and payload with HS256, as a forger holding (or not) the secret would. */
async function craft(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret = SECRET,
): Promise<string> {
  const input = `${encodeBase64UrlText(JSON.stringify(header))}.${
    encodeBase64UrlText(JSON.stringify(payload))
  }`;
  return `${input}.${encodeBase64Url(await hmacSign(secret, input))}`;
}

const CLAIMS = { ...SUBJECT, iat: NOW_S, exp: NOW_S + 3600 };

Deno.test("signToken()/verifyToken() round trip keeps the claims and adds iat/exp", async () => {
  const token = await signToken({ ...SUBJECT, orcid: SUBJECT.sub }, SECRET, { now: NOW });
  const result = await verifyToken(token, SECRET, { now: NOW });
  assert.ok(result.ok);
  assert.equal(result.claims.sub, SUBJECT.sub);
  assert.equal(result.claims.name, "Josiah Carberry");
  assert.equal(result.claims.is_admin, false);
  assert.equal(result.claims.orcid, SUBJECT.sub);
  assert.equal(result.claims.iat, NOW_S);
  assert.equal(result.claims.exp, NOW_S + DEFAULT_TOKEN_LIFETIME_SECONDS);
  assert.equal(DEFAULT_TOKEN_LIFETIME_SECONDS, 86_400);
});

Deno.test("signToken() writes an HS256/JWT header", async () => {
  const token = await signToken(SUBJECT, SECRET, { now: NOW });
  const header = JSON.parse(atob(token.split(".")[0]!));
  assert.deepEqual(header, { alg: "HS256", typ: "JWT" });
});

Deno.test("signToken() honours lifetimeSeconds and refuses a non-positive one", async () => {
  const token = await signToken(SUBJECT, SECRET, { now: NOW, lifetimeSeconds: 60 });
  const inside = await verifyToken(token, SECRET, { now: new Date(NOW.getTime() + 59_000) });
  const after = await verifyToken(token, SECRET, { now: new Date(NOW.getTime() + 60_000) });
  assert.ok(inside.ok);
  assert.deepEqual(after, { ok: false, reason: "expired" });
  assert.throws(() => signToken(SUBJECT, SECRET, { lifetimeSeconds: 0 }), RangeError);
  assert.throws(() => signToken(SUBJECT, SECRET, { lifetimeSeconds: Number.NaN }), RangeError);
});

Deno.test("verifyToken() accepts a token from any issuer holding the secret", async () => {
  const token = await craft({ alg: "HS256" }, { ...CLAIMS, iss: "someone-else", extra: 1 });
  const result = await verifyToken(token, SECRET, { now: NOW });
  assert.ok(result.ok);
  assert.equal(result.claims["iss"], "someone-else");
});

Deno.test("verifyToken() refuses", async (t) => {
  const cases: [string, () => Promise<string>, string, Date?][] = [
    ["an expired token", () => craft({ alg: "HS256" }, { ...CLAIMS, exp: NOW_S }), "expired"],
    [
      "a token before its nbf",
      () => craft({ alg: "HS256" }, { ...CLAIMS, nbf: NOW_S + 10 }),
      "not_yet_valid",
    ],
    [
      "a token without exp",
      () => craft({ alg: "HS256" }, { ...SUBJECT, iat: NOW_S }),
      "missing_exp",
    ],
    [
      "a string exp",
      () => craft({ alg: "HS256" }, { ...CLAIMS, exp: String(NOW_S + 60) }),
      "invalid_claims",
    ],
    [
      "a token signed with another secret",
      () => craft({ alg: "HS256" }, CLAIMS, "x".repeat(40)),
      "bad_signature",
    ],
    [
      "alg none without signature",
      async () => {
        const t = await craft({ alg: "none" }, CLAIMS);
        return t.slice(0, t.lastIndexOf(".") + 1);
      },
      "unsupported_alg",
    ],
    ["alg none with a signature", () => craft({ alg: "none" }, CLAIMS), "unsupported_alg"],
    ["alg HS512", () => craft({ alg: "HS512", typ: "JWT" }, CLAIMS), "unsupported_alg"],
    ["alg RS256", () => craft({ alg: "RS256", typ: "JWT" }, CLAIMS), "unsupported_alg"],
    ["a lower-case alg", () => craft({ alg: "hs256" }, CLAIMS), "unsupported_alg"],
    ["a header without alg", () => craft({ typ: "JWT" }, CLAIMS), "unsupported_alg"],
    ["a crit header", () => craft({ alg: "HS256", crit: ["exp"] }, CLAIMS), "unsupported_alg"],
    [
      "claims without is_admin",
      () => craft({ alg: "HS256" }, { sub: "a", name: "b", iat: NOW_S, exp: NOW_S + 60 }),
      "invalid_claims",
    ],
    [
      "a string is_admin",
      () => craft({ alg: "HS256" }, { ...CLAIMS, is_admin: "true" }),
      "invalid_claims",
    ],
    [
      "two parts",
      async () => (await craft({ alg: "HS256" }, CLAIMS)).split(".").slice(0, 2).join("."),
      "malformed",
    ],
    ["four parts", async () => `${await craft({ alg: "HS256" }, CLAIMS)}.x`, "malformed"],
    ["an empty string", () => Promise.resolve(""), "malformed"],
    [
      "padding in the signature",
      async () => `${await craft({ alg: "HS256" }, CLAIMS)}=`,
      "malformed",
    ],
    [
      "standard base64 characters in the signature",
      async () => {
        const token = await craft({ alg: "HS256" }, CLAIMS);
        return token.slice(0, -1) + "+";
      },
      "malformed",
    ],
    [
      "a header that is not base64url",
      async () => `*${(await craft({ alg: "HS256" }, CLAIMS)).slice(1)}`,
      "malformed",
    ],
    [
      "a header that is not JSON",
      async () => {
        const [, p, s] = (await craft({ alg: "HS256" }, CLAIMS)).split(".");
        return `${encodeBase64UrlText("not json")}.${p}.${s}`;
      },
      "malformed",
    ],
    [
      "a payload that is a JSON array",
      async () => {
        const h = encodeBase64UrlText(JSON.stringify({ alg: "HS256" }));
        const p = encodeBase64UrlText("[1,2]");
        return `${h}.${p}.${encodeBase64Url(await hmacSign(SECRET, `${h}.${p}`))}`;
      },
      "malformed",
    ],
    [
      "a tampered payload",
      async () => {
        const [h, , s] = (await craft({ alg: "HS256" }, CLAIMS)).split(".");
        const forged = encodeBase64UrlText(JSON.stringify({ ...CLAIMS, is_admin: true }));
        return `${h}.${forged}.${s}`;
      },
      "bad_signature",
    ],
    [
      "a truncated signature (30 of 32 bytes)",
      async () => {
        const [h, p, s] = (await craft({ alg: "HS256" }, CLAIMS)).split(".");
        return `${h}.${p}.${s!.slice(0, 40)}`;
      },
      "bad_signature",
    ],
  ];
  for (const [name, make, reason] of cases) {
    await t.step(`${name} (${reason})`, async () => {
      assert.deepEqual(await verifyToken(await make(), SECRET, { now: NOW }), {
        ok: false,
        reason,
      });
    });
  }
});

Deno.test("verifyToken() refuses a non-canonical base64url signature", async () => {
  const token = await craft({ alg: "HS256" }, CLAIMS);
  // 32 bytes -> 43 characters; the last one carries 2 unused bits, here flipped on.
  const last = token.at(-1)!;
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const twin = alphabet[alphabet.indexOf(last) | 1]!;
  assert.notEqual(twin, last);
  const result = await verifyToken(token.slice(0, -1) + twin, SECRET, { now: NOW });
  assert.deepEqual(result, { ok: false, reason: "malformed" });
});
