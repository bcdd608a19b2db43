import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import { encodeBase64UrlText } from "../../../lib/auth/base64url.ts";
import { signHs256 } from "../../../lib/auth/hs256.ts";
import { verifyToken } from "../../../lib/auth/jwt.ts";
import { ADMIN, bearer, call, json, RESEARCHER, SECRET, testApp, tokenFor } from "./_catalogue.ts";

const STORE_SECRET = "session-store-secret-0123456789abcdef!";
const PASSWORD = "correct horse battery staple";
const admin = { email: "admin@example.org", passwordHash: bcrypt.hashSync(PASSWORD, 4) };

/** A local stand-in for ORCID's token endpoint. */
function fakeOrcid() {
  const forms: URLSearchParams[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/oauth/token") {
      return new Response("Not found", { status: 404 });
    }
    const form = new URLSearchParams(await req.text());
    forms.push(form);
    const answer = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    if (form.get("code") !== "good-code") {
      return answer(400, {
        error: "invalid_grant",
        error_description: "Invalid authorization code",
      });
    }
    return answer(200, {
      access_token: "a",
      token_type: "bearer",
      orcid: "0000-0002-1825-0097",
      name: "Josiah Carberry",
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, forms, close: () => server.shutdown() };
}

Deno.test("GET /api/v1/auth/me gives the caller's profile", async (t) => {
  const built = await testApp({ config: { sessionStoreSecret: STORE_SECRET } });
  try {
    await t.step("an ORCID researcher", async () => {
      const { status, body } = await call(
        built.app,
        "/api/v1/auth/me",
        bearer(await tokenFor(RESEARCHER)),
      );
      assert.equal(status, 200);
      assert.deepEqual(body, {
        subject: "0000-0002-1825-0097",
        name: "Josiah Carberry",
        orcid: "0000-0002-1825-0097",
        email: null,
        is_admin: false,
        issuer: "local",
        // OpenTech-DB's frontend reads these.
        id: "0000-0002-1825-0097",
        username: "Josiah Carberry",
        avatar_url: null,
        auth_provider: "orcid",
        is_contributor: true,
      });
    });
    await t.step("a session-store admin (is_admin from app_metadata)", async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await signHs256({
        sub: "5f0c1c1e-0000-4000-8000-000000000001",
        exp: now + 600,
        email: "store@example.org",
        role: "authenticated",
        app_metadata: { is_admin: true },
        user_metadata: { full_name: "Store Admin" },
      }, STORE_SECRET);
      const { status, body } = await call(built.app, "/api/v1/auth/me", bearer(token));
      assert.equal(status, 200);
      assert.equal(body.is_admin, true);
      assert.equal(body.issuer, "session_store");
      assert.equal(body.name, "Store Admin");
      const reviews = await call(built.app, "/api/v1/admin/timeseries/submissions", bearer(token));
      assert.equal(reviews.status, 200, "a store admin may use admin paths");
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("protected paths answer 401 for missing and bad tokens, 403 for non-admins", async (t) => {
  const built = await testApp();
  const now = Math.floor(Date.now() / 1000);
  const header = encodeBase64UrlText(JSON.stringify({ alg: "none", typ: "JWT" }));
  const payload = encodeBase64UrlText(JSON.stringify({ ...ADMIN, iat: now, exp: now + 600 }));
  const cases: [string, Record<string, string>, RegExp][] = [
    ["no header", {}, /^Missing Authorization header/],
    ["not Bearer", { Authorization: "Basic dXNlcjpwYXNz" }, /Bearer scheme/],
    ["garbage", { Authorization: "Bearer abc" }, /^Malformed token$/],
    ["alg none", { Authorization: `Bearer ${header}.${payload}.` }, /algorithm not accepted/],
    [
      "wrong secret",
      {
        Authorization: `Bearer ${await tokenFor(ADMIN, {
          secret: "another-secret-0123456789-abcdefghij",
        })}`,
      },
      /^Invalid token signature$/,
    ],
    [
      "expired",
      {
        Authorization: `Bearer ${await tokenFor(ADMIN, {
          now: new Date(Date.now() - 7200_000),
          lifetimeSeconds: 3600,
        })}`,
      },
      /^Token expired$/,
    ],
    [
      "no exp",
      {
        Authorization: `Bearer ${await signHs256(
          { sub: "x", name: "x", is_admin: true, iat: now },
          SECRET,
        )}`,
      },
      /no expiry/,
    ],
    [
      "session-store token without its secret configured",
      { Authorization: `Bearer ${await signHs256({ sub: "u", exp: now + 60 }, STORE_SECRET)}` },
      /^Invalid token signature$/,
    ],
  ];
  try {
    for (const path of ["/api/v1/auth/me", "/api/v1/scraper/status", "/api/v1/debug/data"]) {
      for (const [name, headers, error] of cases) {
        await t.step(`${path}: ${name}`, async () => {
          const reply = await call(built.app, path, { headers });
          assert.equal(reply.status, 401);
          assert.match(reply.body.error, error);
          assert.equal(typeof reply.body.details.reason, "string");
          assert.match(reply.headers.get("www-authenticate") ?? "", /^Bearer /);
        });
      }
    }
    await t.step("a valid non-admin token on admin paths: 403", async () => {
      const token = await tokenFor(RESEARCHER);
      for (
        const [path, method] of <[string, string][]> [
          ["/api/v1/scraper/status", "GET"],
          ["/api/v1/admin/timeseries/submissions", "GET"],
          ["/api/v1/admin/technologies/submissions", "GET"],
          ["/api/v1/admin/timeseries/x/approve", "PATCH"],
          ["/api/v1/admin/technologies/submissions/x/reject", "PATCH"],
          ["/api/v1/scraper/run", "POST"],
          ["/api/v1/scraper/candidates", "GET"],
          ["/api/v1/scraper/candidates/x/approve", "POST"],
          ["/api/v1/debug/reload", "POST"],
        ]
      ) {
        const reply = await call(built.app, path, { method, ...bearer(token) });
        assert.equal(reply.status, 403, path);
        assert.match(
          reply.body.error,
          /^Admin rights needed: 0000-0002-1825-0097 is not an admin$/,
        );
      }
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("token expiry follows the app's clock", async () => {
  let now = new Date("2026-03-01T12:00:00Z");
  const built = await testApp({ clock: () => now });
  try {
    const token = await tokenFor(RESEARCHER, { now, lifetimeSeconds: 3600 });
    assert.equal((await call(built.app, "/api/v1/auth/me", bearer(token))).status, 200);
    now = new Date("2026-03-01T12:59:59Z");
    assert.equal((await call(built.app, "/api/v1/auth/me", bearer(token))).status, 200);
    now = new Date("2026-03-01T13:00:00Z");
    const expired = await call(built.app, "/api/v1/auth/me", bearer(token));
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error, "Token expired");
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /api/v1/auth/admin/login issues an admin token for the built-in admin", async (t) => {
  const now = new Date("2026-03-01T12:00:00Z");
  const built = await testApp({ config: { admin, tokenLifetimeSeconds: 7200 }, clock: () => now });
  try {
    await t.step("right credentials (e-mail case-insensitive)", async () => {
      const reply = await call(
        built.app,
        "/api/v1/auth/admin/login",
        json("POST", { email: "Admin@Example.org", password: PASSWORD }),
      );
      assert.equal(reply.status, 200);
      assert.equal(reply.body.token_type, "bearer");
      assert.equal(reply.body.expires_in, 7200);
      const verified = await verifyToken(reply.body.access_token, SECRET, { now });
      assert.ok(verified.ok);
      assert.equal(verified.claims.sub, "admin:admin@example.org");
      assert.equal(verified.claims.is_admin, true);
      assert.equal(verified.claims.exp - verified.claims.iat, 7200);
      const status = await call(
        built.app,
        "/api/v1/scraper/status",
        bearer(reply.body.access_token),
      );
      assert.equal(status.status, 200);
    });
    const cases: [string, RequestInit, number, RegExp][] = [
      [
        "wrong password",
        json("POST", { email: admin.email, password: "nope" }),
        401,
        /^Wrong e-mail or password$/,
      ],
      ["wrong e-mail", json("POST", { email: "x@example.org", password: PASSWORD }), 401, /^Wrong/],
      ["missing password", json("POST", { email: admin.email }), 400, /password: is required/],
      [
        "extra member",
        json("POST", { email: "a", password: "b", admin: true }),
        400,
        /admin: unknown member/,
      ],
      ["malformed JSON", json("POST", "{"), 400, /^Malformed JSON/],
    ];
    for (const [name, init, status, error] of cases) {
      await t.step(name, async () => {
        const reply = await call(built.app, "/api/v1/auth/admin/login", init);
        assert.equal(reply.status, status);
        assert.match(reply.body.error, error);
      });
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /api/v1/auth/admin/login answers 503 without a configured admin", async () => {
  const built = await testApp();
  try {
    const reply = await call(
      built.app,
      "/api/v1/auth/admin/login",
      json("POST", { email: "a@example.org", password: "x" }),
    );
    assert.equal(reply.status, 503);
    assert.match(reply.body.error, /^No built-in admin is configured/);
  } finally {
    await built.dispose();
  }
});

Deno.test("ORCID sign-in answers 503 when not configured; everything else works", async () => {
  const built = await testApp();
  try {
    for (const path of ["/api/v1/auth/orcid", "/api/v1/auth/orcid/callback?code=a&state=b"]) {
      const reply = await call(built.app, path);
      assert.equal(reply.status, 503, path);
      assert.match(reply.body.error, /^ORCID sign-in is disabled: set ORCID_CLIENT_ID/);
    }
    assert.equal((await call(built.app, "/api/v1/technologies")).status, 200);
  } finally {
    await built.dispose();
  }
});

Deno.test("ORCID sign-in: redirect with a signed state, callback issues a token", async (t) => {
  const orcid = fakeOrcid();
  const built = await testApp({
    config: {
      orcid: {
        clientId: "APP-TEST",
        clientSecret: "client-secret",
        redirectUri: "http://localhost:8005/api/v1/auth/orcid/callback",
        environment: "sandbox",
        baseUrl: orcid.url,
      },
    },
  });
  try {
    const start = await built.app.request("/api/v1/auth/orcid");
    assert.equal(start.status, 302);
    const target = new URL(start.headers.get("location") ?? "");
    assert.equal(`${target.origin}${target.pathname}`, `${orcid.url}/oauth/authorize`);
    assert.equal(target.searchParams.get("client_id"), "APP-TEST");
    assert.equal(target.searchParams.get("scope"), "/authenticate");
    const state = target.searchParams.get("state") ?? "";

    await t.step("a good code: redirect to the frontend with a token", async () => {
      const res = await built.app.request(
        `/api/v1/auth/orcid/callback?code=good-code&state=${encodeURIComponent(state)}`,
      );
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get("location") ?? "");
      assert.equal(`${location.origin}${location.pathname}`, "http://localhost:5173/app");
      const token = location.searchParams.get("token") ?? "";
      const verified = await verifyToken(token, SECRET);
      assert.ok(verified.ok);
      assert.equal(verified.claims.sub, "0000-0002-1825-0097");
      assert.equal(verified.claims.name, "Josiah Carberry");
      assert.equal(verified.claims.is_admin, false);
      assert.equal(verified.claims.exp - verified.claims.iat, 3600);
      assert.equal(orcid.forms.at(-1)?.get("client_secret"), "client-secret");
      const me = await call(built.app, "/api/v1/auth/me", bearer(token));
      assert.equal(me.body.orcid, "0000-0002-1825-0097");
    });
    const cases: [string, number, RegExp][] = [
      [
        `code=good-code&state=${encodeURIComponent(state.replace(/.$/, "A"))}x`,
        400,
        /^Invalid state \(/,
      ],
      ["code=good-code&state=1.2.3", 400, /^Invalid state \(malformed\)/],
      [`state=${encodeURIComponent(state)}`, 400, /^Invalid query: code: is required/],
      ["code=good-code", 400, /^Invalid query: state: is required/],
      [
        `code=bad-code&state=${encodeURIComponent(state)}`,
        400,
        /^ORCID token exchange failed \(invalid_grant\)/,
      ],
    ];
    for (const [query, status, error] of cases) {
      await t.step(`${query.slice(0, 40)}: ${status}`, async () => {
        const reply = await call(built.app, `/api/v1/auth/orcid/callback?${query}`);
        assert.equal(reply.status, status);
        assert.match(reply.body.error, error);
      });
    }
    await t.step("an unreachable ORCID: 502", async () => {
      await orcid.close();
      const reply = await call(
        built.app,
        `/api/v1/auth/orcid/callback?code=good-code&state=${encodeURIComponent(state)}`,
      );
      assert.equal(reply.status, 502);
      assert.match(reply.body.error, /network_error/);
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("GET /api/v1/auth/orcid goes to sandbox or production ORCID by configuration", async () => {
  for (
    const [environment, host] of [["sandbox", "https://sandbox.orcid.org"], [
      "production",
      "https://orcid.org",
    ]] as const
  ) {
    const built = await testApp({
      config: {
        orcid: {
          clientId: "APP-TEST",
          clientSecret: "s",
          redirectUri: "https://cat.example.org/api/v1/auth/orcid/callback",
          environment,
        },
      },
    });
    try {
      const res = await built.app.request("/api/v1/auth/orcid");
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get("location") ?? "");
      assert.equal(`${location.origin}${location.pathname}`, `${host}/oauth/authorize`);
      assert.equal(
        location.searchParams.get("redirect_uri"),
        "https://cat.example.org/api/v1/auth/orcid/callback",
      );
      assert.equal(res.headers.get("cache-control"), "no-store");
    } finally {
      await built.dispose();
    }
  }
});
