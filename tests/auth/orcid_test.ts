import assert from "node:assert/strict";
import {
  authorizeUrl,
  checkState,
  createState,
  exchangeCode,
  orcidBaseUrl,
  type OrcidConfig,
  OrcidError,
} from "../../lib/auth/orcid.ts";

const CONFIG: OrcidConfig = {
  clientId: "APP-TESTCLIENT0001",
  clientSecret: "client-secret",
  redirectUri: "http://localhost:8000/api/v1/auth/orcid/callback",
  environment: "sandbox",
};

/** A local stand-in for ORCID's token endpoint, answering as ORCID does. */
function fakeOrcid(): { server: Deno.HttpServer<Deno.NetAddr>; requests: URLSearchParams[] } {
  const requests: URLSearchParams[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json;charset=UTF-8" },
    });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/oauth/token") {
      return new Response("Not found", { status: 404 });
    }
    if (req.headers.get("content-type") !== "application/x-www-form-urlencoded") {
      return json(415, { error: "unsupported_media_type", error_description: "form expected" });
    }
    const form = new URLSearchParams(await req.text());
    requests.push(form);
    if (
      form.get("client_id") !== CONFIG.clientId || form.get("client_secret") !== "client-secret"
    ) {
      return json(401, {
        error: "invalid_client",
        error_description: `Client not found: ${form.get("client_id")}`,
      });
    }
    const code = form.get("code");
    if (code === "broken") return new Response("<html>Bad gateway</html>", { status: 502 });
    if (code === "no-orcid") return json(200, { access_token: "x", token_type: "bearer" });
    if (form.get("grant_type") !== "authorization_code" || !code?.startsWith("good")) {
      return json(400, {
        error: "invalid_grant",
        error_description: `Invalid authorization code: ${code}`,
      });
    }
    return json(200, {
      access_token: "f5af9f51-07e6-4332-8f1a-c0c11c1e3728",
      token_type: "bearer",
      refresh_token: "f725f747-3a65-49f6-a231-3e8944ce464d",
      expires_in: 631138518,
      scope: "/authenticate",
      name: code === "good-private" ? null : "Sofia Maria Hernandez Garcia",
      orcid: "0000-0001-2345-6789",
    });
  });
  return { server, requests };
}

function configFor(server: Deno.HttpServer<Deno.NetAddr>): OrcidConfig {
  return { ...CONFIG, baseUrl: `http://127.0.0.1:${server.addr.port}/` };
}

Deno.test("orcidBaseUrl() picks sandbox or production and honours an override", () => {
  assert.equal(orcidBaseUrl(CONFIG), "https://sandbox.orcid.org");
  assert.equal(orcidBaseUrl({ ...CONFIG, environment: "production" }), "https://orcid.org");
  assert.equal(orcidBaseUrl({ ...CONFIG, baseUrl: "http://127.0.0.1:9/" }), "http://127.0.0.1:9");
});

Deno.test("authorizeUrl() asks for code with scope /authenticate and carries the state", () => {
  const url = new URL(authorizeUrl(CONFIG, "the-state"));
  assert.equal(url.origin + url.pathname, "https://sandbox.orcid.org/oauth/authorize");
  assert.deepEqual(Object.fromEntries(url.searchParams), {
    client_id: "APP-TESTCLIENT0001",
    response_type: "code",
    scope: "/authenticate",
    redirect_uri: "http://localhost:8000/api/v1/auth/orcid/callback",
    state: "the-state",
  });
});

Deno.test("exchangeCode() against a local fake of ORCID's token endpoint", async (t) => {
  const { server, requests } = fakeOrcid();
  const config = configFor(server);
  try {
    await t.step("posts the form ORCID expects and returns iD and name", async () => {
      assert.deepEqual(await exchangeCode(config, "good-Q70Y3A"), {
        orcid: "0000-0001-2345-6789",
        name: "Sofia Maria Hernandez Garcia",
      });
      assert.deepEqual(Object.fromEntries(requests.at(-1)!), {
        client_id: "APP-TESTCLIENT0001",
        client_secret: "client-secret",
        grant_type: "authorization_code",
        code: "good-Q70Y3A",
        redirect_uri: "http://localhost:8000/api/v1/auth/orcid/callback",
      });
    });
    await t.step("falls back to the iD when the record's name is private (null)", async () => {
      const identity = await exchangeCode(config, "good-private");
      assert.equal(identity.name, "0000-0001-2345-6789");
    });
    await t.step("throws OrcidError with ORCID's invalid_grant message", async () => {
      await assert.rejects(() => exchangeCode(config, "used-code"), (error: unknown) => {
        assert.ok(error instanceof OrcidError);
        assert.equal(error.status, 400);
        assert.equal(error.code, "invalid_grant");
        assert.match(error.message, /Invalid authorization code: used-code/);
        return true;
      });
    });
    await t.step("throws OrcidError invalid_client for a wrong client secret", async () => {
      await assert.rejects(
        () => exchangeCode({ ...config, clientSecret: "wrong" }, "good-1"),
        (error: unknown) => error instanceof OrcidError && error.code === "invalid_client",
      );
    });
    await t.step("throws invalid_response for a non-JSON error page", async () => {
      await assert.rejects(
        () => exchangeCode(config, "broken"),
        (error: unknown) =>
          error instanceof OrcidError && error.code === "invalid_response" && error.status === 502,
      );
    });
    await t.step("throws invalid_response for a success without an ORCID iD", async () => {
      await assert.rejects(
        () => exchangeCode(config, "no-orcid"),
        (error: unknown) => error instanceof OrcidError && error.code === "invalid_response",
      );
    });
    await t.step("uses the injected fetch", async () => {
      let called = "";
      const fetchFn = (input: string) => {
        called = input;
        return Promise.resolve(Response.json({ access_token: "a", orcid: "0000-0002-1825-009X" }));
      };
      const identity = await exchangeCode(CONFIG, "c", fetchFn);
      assert.equal(called, "https://sandbox.orcid.org/oauth/token");
      assert.equal(identity.orcid, "0000-0002-1825-009X");
    });
  } finally {
    await server.shutdown();
  }
  await t.step("throws network_error (status 0) when ORCID cannot be reached", async () => {
    await assert.rejects(
      () => exchangeCode(config, "good-1"),
      (error: unknown) =>
        error instanceof OrcidError && error.code === "network_error" && error.status === 0,
    );
  });
});

Deno.test("createState()/checkState()", async (t) => {
  const secret = "state-secret-0123456789-0123456789-abc";
  const now = new Date("2025-03-01T12:00:00Z");
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const state = await createState(secret, now);

  await t.step("accepts its own state within 10 minutes", async () => {
    assert.deepEqual(await checkState(state, secret, now), { ok: true });
    assert.deepEqual(await checkState(state, secret, later(600)), { ok: true });
  });
  await t.step("refuses it after 10 minutes", async () => {
    assert.deepEqual(await checkState(state, secret, later(601)), { ok: false, reason: "expired" });
  });
  await t.step("refuses a state issued in the future", async () => {
    assert.deepEqual(await checkState(state, secret, later(-120)), {
      ok: false,
      reason: "expired",
    });
  });
  await t.step("gives a different state each time", async () => {
    assert.notEqual(await createState(secret, now), state);
  });
  await t.step("refuses a state signed with another secret", async () => {
    const forged = await createState("another-secret-0123456789-0123456789", now);
    assert.deepEqual(await checkState(forged, secret, now), { ok: false, reason: "bad_signature" });
  });
  await t.step("refuses a state whose time was moved forward", async () => {
    const [issued, nonce, mac] = state.split(".");
    const moved = `${Number(issued) + 3600}.${nonce}.${mac}`;
    assert.deepEqual(await checkState(moved, secret, later(3600)), {
      ok: false,
      reason: "bad_signature",
    });
  });
  await t.step("refuses malformed states", async () => {
    for (
      const bad of ["", "abc", "1.2", `x.${state.split(".").slice(1).join(".")}`, `${state}.x`]
    ) {
      assert.deepEqual(await checkState(bad, secret, now), { ok: false, reason: "malformed" }, bad);
    }
  });
});
