import assert from "node:assert/strict";
import { createGateway, FORBIDDEN_TEXT, type Service } from "../../server/gateway/app.ts";
import { heatApp } from "./heat/_heat.ts";

const KEY = "test-key-0123456789";
const ORIGIN = "https://app.example.org";

/** A service that records what reaches it. */
function spy(): Service & { seen: Request[] } {
  const seen: Request[] = [];
  return {
    seen,
    fetch(request) {
      seen.push(request);
      return Response.json({ reached: new URL(request.url).pathname });
    },
  };
}

const gatewayOver = (service: Service) =>
  createGateway({ heatApp: service, apiKey: KEY, allowedOrigins: [ORIGIN] });

Deno.test("gateway rejects a missing or wrong key with 403 text/plain before the service", async (t) => {
  const cases: [string, Record<string, string>][] = [
    ["no key", {}],
    ["wrong key", { "X-Api-Key": "wrong" }],
    ["key prefix", { "X-Api-Key": KEY.slice(0, -1) }],
    ["key with suffix", { "X-Api-Key": `${KEY}x` }],
    ["empty key", { "X-Api-Key": "" }],
    ["key in another header", { "Authorization": `Bearer ${KEY}` }],
  ];
  for (const [name, headers] of cases) {
    await t.step(name, async () => {
      const service = spy();
      for (const path of ["/heat/health", "/api/v1/variants/DE", "/heat/openapi.json"]) {
        const res = await gatewayOver(service).request(path, { headers });
        assert.equal(res.status, 403);
        assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
        assert.equal(await res.text(), FORBIDDEN_TEXT);
      }
      const post = await gatewayOver(service).request(
        "/api/v1/calculate/DE.N.SFH.02.Gen.ReEx.001.001",
        {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: "{}",
        },
      );
      assert.equal(post.status, 403);
      assert.equal(service.seen.length, 0);
    });
  }
});

Deno.test("gateway passes a request with the right key on unchanged", async () => {
  const service = spy();
  const res = await gatewayOver(service).request("/api/v1/calculate/X?explain=true", {
    method: "POST",
    headers: { "X-Api-Key": KEY, "Content-Type": "application/json" },
    body: '{"A_ref":100}',
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { reached: "/api/v1/calculate/X" });
  assert.equal(service.seen.length, 1);
  const [seen] = service.seen;
  assert.ok(seen);
  assert.equal(seen.method, "POST");
  assert.equal(new URL(seen.url).search, "?explain=true");
  assert.equal(await seen.text(), '{"A_ref":100}');
});

Deno.test("gateway serves the heat app to callers with the key", async () => {
  const gateway = gatewayOver(heatApp());
  const health = await gateway.request("/heat/health", { headers: { "X-Api-Key": KEY } });
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { status: "ok" });
  const variants = await gateway.request("/api/v1/variants/AT", { headers: { "X-Api-Key": KEY } });
  assert.equal((await variants.json()).country, "austria");
});

Deno.test("createGateway() refuses an empty key", () => {
  assert.throws(
    () => createGateway({ heatApp: spy(), apiKey: "", allowedOrigins: [] }),
    RangeError,
  );
});

Deno.test("gateway CORS: allowed origins get the headers, others none", async (t) => {
  await t.step("allowed origin with key", async () => {
    const res = await gatewayOver(spy()).request("/heat/health", {
      headers: { "X-Api-Key": KEY, Origin: ORIGIN },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN);
    assert.match(res.headers.get("vary") ?? "", /Origin/);
  });
  await t.step("allowed origin without key still sees the 403", async () => {
    const res = await gatewayOver(spy()).request("/heat/health", { headers: { Origin: ORIGIN } });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN);
  });
  await t.step("other origin with key", async () => {
    const res = await gatewayOver(spy()).request("/heat/health", {
      headers: { "X-Api-Key": KEY, Origin: "https://evil.example.com" },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), null);
  });
});

Deno.test("gateway CORS preflight: answered for allowed origins, refused for others", async (t) => {
  const preflight = (origin: string) => ({
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "x-api-key, content-type",
    },
  });
  await t.step("allowed origin: 204 with the CORS headers, service not called", async () => {
    const service = spy();
    const res = await gatewayOver(service).request("/api/v1/calculate/X", preflight(ORIGIN));
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN);
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    assert.ok(allowed.includes("x-api-key") && allowed.includes("content-type"), allowed);
    assert.match(res.headers.get("access-control-allow-methods") ?? "", /POST/);
    assert.equal(service.seen.length, 0);
  });
  await t.step("other origin: 403 without CORS headers", async () => {
    const service = spy();
    const res = await gatewayOver(service).request(
      "/api/v1/calculate/X",
      preflight("https://evil.example.com"),
    );
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("access-control-allow-origin"), null);
    assert.equal(res.headers.get("access-control-allow-headers"), null);
    assert.equal(service.seen.length, 0);
  });
  await t.step("a plain OPTIONS without key is no preflight: 403", async () => {
    const res = await gatewayOver(spy()).request("/heat/health", {
      method: "OPTIONS",
      headers: { Origin: ORIGIN },
    });
    assert.equal(res.status, 403);
  });
});
