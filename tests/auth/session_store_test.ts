import assert from "node:assert/strict";
import { signHs256 } from "../../lib/auth/hs256.ts";
import { verifySessionStoreToken } from "../../lib/auth/session_store.ts";

const STORE_SECRET = "super-secret-jwt-token-with-at-least-32-characters-long";
const NOW = new Date("2025-01-01T00:00:00Z");
const NOW_S = NOW.getTime() / 1000;

/** A Supabase-style access token's claims. */
function storeClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    aud: "authenticated",
    exp: NOW_S + 3600,
    iat: NOW_S,
    iss: "http://127.0.0.1:54321/auth/v1",
    sub: "6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b",
    email: "ada@example.org",
    phone: "",
    role: "authenticated",
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: { full_name: "Ada Lovelace" },
    aal: "aal1",
    session_id: "0b1c2d3e-0000-4000-8000-000000000000",
    is_anonymous: false,
    ...overrides,
  };
}

Deno.test("verifySessionStoreToken() accepts a token signed with the store secret", async () => {
  const token = await signHs256(storeClaims(), STORE_SECRET);
  assert.deepEqual(await verifySessionStoreToken(token, STORE_SECRET, { now: NOW }), {
    ok: true,
    user: {
      subject: "6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b",
      name: "Ada Lovelace",
      email: "ada@example.org",
      is_admin: false,
    },
  });
});

Deno.test("verifySessionStoreToken() reads is_admin from app_metadata only", async (t) => {
  const cases: [string, Record<string, unknown>, boolean][] = [
    ["app_metadata.is_admin true", { app_metadata: { provider: "email", is_admin: true } }, true],
    ["app_metadata.is_admin false", { app_metadata: { is_admin: false } }, false],
    ["no app_metadata", { app_metadata: undefined }, false],
    ["user_metadata.is_admin true (user-editable)", { user_metadata: { is_admin: true } }, false],
    ["a top-level is_admin claim", { is_admin: true }, false],
  ];
  for (const [name, overrides, expected] of cases) {
    await t.step(`${name} -> ${expected}`, async () => {
      const token = await signHs256(storeClaims(overrides), STORE_SECRET);
      const result = await verifySessionStoreToken(token, STORE_SECRET, { now: NOW });
      assert.ok(result.ok);
      assert.equal(result.user.is_admin, expected);
    });
  }
  await t.step('a string "true" is_admin is not an admin: the claims are refused', async () => {
    const token = await signHs256(
      storeClaims({ app_metadata: { is_admin: "true" } }),
      STORE_SECRET,
    );
    assert.deepEqual(await verifySessionStoreToken(token, STORE_SECRET, { now: NOW }), {
      ok: false,
      reason: "invalid_claims",
    });
  });
});

Deno.test("verifySessionStoreToken() names the user by user_metadata, e-mail or sub", async () => {
  const nameOf = async (overrides: Record<string, unknown>) => {
    const token = await signHs256(storeClaims(overrides), STORE_SECRET);
    const result = await verifySessionStoreToken(token, STORE_SECRET, { now: NOW });
    assert.ok(result.ok);
    return result.user.name;
  };
  assert.equal(await nameOf({ user_metadata: { name: "Ada" } }), "Ada");
  assert.equal(await nameOf({ user_metadata: {} }), "ada@example.org");
  assert.equal(await nameOf({ user_metadata: {}, email: undefined }), storeClaims().sub);
});

Deno.test("verifySessionStoreToken() refuses", async (t) => {
  const cases: [string, () => Promise<string>, string][] = [
    [
      "a token signed with another secret",
      () => signHs256(storeClaims(), "x".repeat(40)),
      "bad_signature",
    ],
    ["an expired token", () => signHs256(storeClaims({ exp: NOW_S - 1 }), STORE_SECRET), "expired"],
    [
      "a token without exp",
      () => signHs256(storeClaims({ exp: undefined }), STORE_SECRET),
      "missing_exp",
    ],
    [
      "the store's anon key",
      () => signHs256({ iss: "supabase-demo", role: "anon", exp: NOW_S + 3600 }, STORE_SECRET),
      "not_a_user",
    ],
    [
      "the store's service-role key",
      () =>
        signHs256({ iss: "supabase-demo", role: "service_role", exp: NOW_S + 3600 }, STORE_SECRET),
      "not_a_user",
    ],
    [
      "a token without sub",
      () => signHs256(storeClaims({ sub: undefined }), STORE_SECRET),
      "not_a_user",
    ],
  ];
  for (const [name, make, reason] of cases) {
    await t.step(`${name} (${reason})`, async () => {
      assert.deepEqual(await verifySessionStoreToken(await make(), STORE_SECRET, { now: NOW }), {
        ok: false,
        reason,
      });
    });
  }
});
