import assert from "node:assert/strict";
import { authenticate, ProfileSchema, toProfile } from "../../lib/auth/principal.ts";
import { signToken } from "../../lib/auth/jwt.ts";
import { signHs256 } from "../../lib/auth/hs256.ts";

const JWT_SECRET = "local-secret-0123456789-0123456789-abcdef";
const STORE_SECRET = "store-secret-0123456789-0123456789-abcdef";
const NOW = new Date("2025-01-01T00:00:00Z");
const NOW_S = NOW.getTime() / 1000;
const OPTIONS = { jwtSecret: JWT_SECRET, sessionStoreSecret: STORE_SECRET, now: NOW };

const researcher = {
  sub: "0000-0001-2345-6789",
  name: "Sofia Garcia",
  orcid: "0000-0001-2345-6789",
  is_admin: false,
};
const storeAdmin = {
  sub: "6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b",
  email: "ada@example.org",
  role: "authenticated",
  exp: NOW_S + 600,
  app_metadata: { is_admin: true },
  user_metadata: { full_name: "Ada Lovelace" },
};

Deno.test("authenticate() accepts a local token and builds the principal", async () => {
  const token = await signToken(researcher, JWT_SECRET, { now: NOW });
  const result = await authenticate(`Bearer ${token}`, OPTIONS);
  assert.deepEqual(result, {
    ok: true,
    principal: {
      subject: "0000-0001-2345-6789",
      name: "Sofia Garcia",
      orcid: "0000-0001-2345-6789",
      is_admin: false,
      issuer: "local",
    },
  });
});

Deno.test("authenticate() accepts the built-in admin's local token", async () => {
  const token = await signToken(
    {
      sub: "admin:admin@example.org",
      name: "Administrator",
      email: "admin@example.org",
      is_admin: true,
    },
    JWT_SECRET,
    { now: NOW },
  );
  const result = await authenticate(`bearer ${token}`, OPTIONS);
  assert.ok(result.ok);
  assert.equal(result.principal.is_admin, true);
  assert.equal(result.principal.email, "admin@example.org");
});

Deno.test("authenticate() accepts a session-store token with the store secret", async () => {
  const token = await signHs256(storeAdmin, STORE_SECRET);
  assert.deepEqual(await authenticate(`Bearer ${token}`, OPTIONS), {
    ok: true,
    principal: {
      subject: storeAdmin.sub,
      name: "Ada Lovelace",
      email: "ada@example.org",
      is_admin: true,
      issuer: "session_store",
    },
  });
});

Deno.test("authenticate() refuses a session-store token without a store secret", async () => {
  const token = await signHs256(storeAdmin, STORE_SECRET);
  const result = await authenticate(`Bearer ${token}`, { jwtSecret: JWT_SECRET, now: NOW });
  assert.deepEqual(result, {
    ok: false,
    status: 401,
    reason: "bad_signature",
    error: "Invalid token signature",
  });
});

Deno.test("authenticate() answers 401 with a reason", async (t) => {
  const expired = await signToken(researcher, JWT_SECRET, {
    now: new Date(NOW.getTime() - 2 * 86_400_000),
  });
  const storeExpired = await signHs256({ ...storeAdmin, exp: NOW_S - 1 }, STORE_SECRET);
  const foreign = await signHs256(storeAdmin, "x".repeat(40));
  const cases: [string, string | null | undefined, string][] = [
    ["no header", undefined, "missing_token"],
    ["null header", null, "missing_token"],
    ["an empty header", "  ", "missing_token"],
    ["Basic scheme", "Basic dXNlcjpwYXNz", "bad_scheme"],
    ["Bearer without token", "Bearer", "bad_scheme"],
    ["a malformed token", "Bearer a.b", "malformed"],
    ["an expired local token", `Bearer ${expired}`, "expired"],
    ["an expired store token", `Bearer ${storeExpired}`, "expired"],
    ["a token under neither secret", `Bearer ${foreign}`, "bad_signature"],
  ];
  for (const [name, header, reason] of cases) {
    await t.step(`${name} -> ${reason}`, async () => {
      const result = await authenticate(header, OPTIONS);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.status, 401);
        assert.equal(result.reason, reason);
        assert.ok(result.error.length > 0);
      }
    });
  }
});

Deno.test("toProfile() gives subject, name, ORCID iD or e-mail, is_admin and issuer", () => {
  const profile = toProfile({
    subject: "0000-0001-2345-6789",
    name: "Sofia Garcia",
    orcid: "0000-0001-2345-6789",
    is_admin: false,
    issuer: "local",
  });
  assert.deepEqual(profile, {
    subject: "0000-0001-2345-6789",
    name: "Sofia Garcia",
    orcid: "0000-0001-2345-6789",
    email: null,
    is_admin: false,
    issuer: "local",
  });
  assert.deepEqual(ProfileSchema.parse(profile), profile);
});

Deno.test("authenticate() takes no claim from __proto__, constructor or prototype members", async (t) => {
  // JSON.parse makes the key an own member, as a token's payload is parsed.
  const polluting = (key: string, claims: Record<string, unknown>) => {
    const members = JSON.stringify(claims).slice(1, -1);
    const text = `{${JSON.stringify(key)}: {"is_admin": true}${members ? `,${members}` : ""}}`;
    return JSON.parse(text) as Record<string, unknown>;
  };
  for (const key of ["__proto__", "constructor", "prototype"]) {
    await t.step(`local token, ${key}`, async () => {
      const { is_admin: _, ...rest } = researcher;
      const payload = polluting(key, { ...rest, iat: NOW_S, exp: NOW_S + 600 });
      const result = await authenticate(`Bearer ${await signHs256(payload, JWT_SECRET)}`, OPTIONS);
      assert.equal(result.ok, false, "is_admin is missing: the claims are invalid");
      const withFlag = polluting(key, { ...researcher, iat: NOW_S, exp: NOW_S + 600 });
      const user = await authenticate(`Bearer ${await signHs256(withFlag, JWT_SECRET)}`, OPTIONS);
      assert.ok(user.ok);
      assert.equal(user.principal.is_admin, false);
    });
    await t.step(`session-store token, app_metadata.${key}`, async () => {
      const payload = { ...storeAdmin, app_metadata: polluting(key, {}) };
      const token = await signHs256(payload, STORE_SECRET);
      const result = await authenticate(`Bearer ${token}`, OPTIONS);
      assert.ok(result.ok);
      assert.equal(result.principal.is_admin, false);
    });
    const probe: Record<string, unknown> = {};
    assert.equal(probe["is_admin"], undefined, "Object.prototype.is_admin");
  }
});
