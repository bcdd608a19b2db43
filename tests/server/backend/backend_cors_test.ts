/**
 * The cross-origin rule for each case: no Origin, an empty one, `null`, the four dev-server
 * origins (with preflight), the backend's own pages (its port on localhost and 127.0.0.1, and
 * BACKEND_PUBLIC_ORIGIN), and any other origin (403 on every route, preflight included, also
 * one equal to the request's Host), on extra routes mounted through `extraRoutes` too.
 */
import assert from "node:assert/strict";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { openStore } from "../../../lib/store/store.ts";
import { createBackendApp } from "../../../server/backend/app.ts";
import { BACKEND_ORIGINS, backendOwnOrigins } from "../../../server/backend/backend_cors.ts";
import { rawRequest } from "../_raw_http.ts";
import { call, closedUrl, serveBackend } from "./_backend.ts";

Deno.test("backend CORS", async (t) => {
  const b = await serveBackend(closedUrl(), {
    extraRoutes: (app) => app.get("/tech/health", (c) => c.json({ extra: true })),
  });
  const preflight = (origin: string, path = "/api/models") =>
    fetch(`${b.base}${path}`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "content-type",
      },
    });
  try {
    await t.step("no Origin: allowed, no CORS header", async () => {
      const res = await call(b.base, "GET", "/api/models");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
    });
    await t.step("Origin null: allowed, answered null", async () => {
      const res = await call(b.base, "POST", "/api/models", { name: "n" }, { Origin: "null" });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get("access-control-allow-origin"), "null");
      const pre = await preflight("null");
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get("access-control-allow-origin"), "null");
    });
    for (const origin of BACKEND_ORIGINS) {
      await t.step(`${origin}: allowed, preflight 204`, async () => {
        const res = await call(b.base, "GET", "/api/models", undefined, { Origin: origin });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("access-control-allow-origin"), origin);
        // The list's page total and the layer headers are readable by the page's scripts.
        assert.equal(
          res.headers.get("access-control-expose-headers"),
          "X-Total-Count, X-Source, X-Truncated, X-Download-Id, Retry-After",
        );
        const pre = await preflight(origin);
        assert.equal(pre.status, 204);
        assert.equal(pre.headers.get("access-control-allow-origin"), origin);
        assert.equal(
          pre.headers.get("access-control-allow-methods"),
          "GET, POST, PUT, DELETE, OPTIONS",
        );
        assert.equal(pre.headers.get("access-control-allow-headers"), "Content-Type");
        const extra = await call(b.base, "GET", "/tech/health", undefined, { Origin: origin });
        assert.equal(extra.headers.get("access-control-allow-origin"), origin);
      });
    }
    await t.step("other origins: 403 JSON everywhere, preflight included", async () => {
      for (
        const origin of [
          "http://localhost:3000",
          "http://evil.example",
          "https://localhost:5173",
          "http://localhost:5173/",
        ]
      ) {
        for (const path of ["/api/models", "/api/health", "/api/jobs/x", "/tech/health", "/nope"]) {
          const res = await call(b.base, "GET", path, undefined, { Origin: origin });
          assert.equal(res.status, 403, `${origin} ${path}`);
          assert.match(res.body.error, /not allowed/);
          assert.equal(res.headers.get("access-control-allow-origin"), null);
        }
        const post = await call(b.base, "POST", "/api/models", { name: "x" }, { Origin: origin });
        assert.equal(post.status, 403);
        const pre = await preflight(origin);
        assert.equal(pre.status, 403);
        assert.equal(pre.headers.get("access-control-allow-origin"), null);
        await pre.body?.cancel();
      }
      // Nothing was saved by the refused POSTs.
      const names = (await call(b.base, "GET", "/api/models")).body.map((m: { name: string }) =>
        m.name
      );
      assert.ok(!names.includes("x"));
    });
  } finally {
    await b.dispose();
  }
});

/** A backend served on a free port whose own origins are those of that port plus `publicOrigins`. */
async function serveOwnOrigins(publicOrigins: string[]) {
  const store = await openStore(":memory:");
  const app = Promise.withResolvers<OpenAPIHono>();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => (await app.promise).fetch(request),
  );
  const backend = await createBackendApp({
    store,
    config: { runnerUrl: closedUrl(), catalogueUrl: closedUrl(), maxBodyBytes: 1024 * 1024 },
    log: () => {},
    ownOrigins: backendOwnOrigins(server.addr.port, publicOrigins),
  });
  app.resolve(backend.app);
  return {
    port: server.addr.port,
    base: `http://127.0.0.1:${server.addr.port}`,
    async dispose() {
      await backend.close();
      await server.shutdown();
      await store.close();
    },
  };
}

// Issue 18: an empty Origin was refused, and an Origin equal to the request's own Host was
// allowed whatever the Host said (a DNS-rebinding door).
Deno.test("backend CORS: empty Origin allowed, own pages by a fixed list, never by Host", async (t) => {
  const b = await serveOwnOrigins(["https://models.example.org"]);
  try {
    await t.step("an empty Origin is no origin: allowed, nothing added", async () => {
      const res = await call(b.base, "GET", "/api/models", undefined, { Origin: "" });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      const raw = await rawRequest(
        b.port,
        "GET /api/models HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: \r\n",
      );
      assert.equal(raw.status, 200, raw.head);
    });
    const own = [
      `http://localhost:${b.port}`,
      `http://127.0.0.1:${b.port}`,
      "https://models.example.org",
    ];
    for (const origin of own) {
      await t.step(`own page origin ${origin}: allowed, echoed, preflight 204`, async () => {
        const res = await call(b.base, "POST", "/api/models", { name: "own" }, { Origin: origin });
        assert.equal(res.status, 201);
        assert.equal(res.headers.get("access-control-allow-origin"), origin);
        const pre = await fetch(`${b.base}/api/models`, {
          method: "OPTIONS",
          headers: { Origin: origin, "Access-Control-Request-Method": "PUT" },
        });
        assert.equal(pre.status, 204);
        await pre.body?.cancel();
      });
    }
    await t.step("an Origin equal to the Host it was sent to is refused", async () => {
      for (const host of [`rebound.example:${b.port}`, `127.0.0.2:${b.port}`, "rebound.example"]) {
        const raw = await rawRequest(
          b.port,
          `POST /api/models HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n` +
            "Content-Type: application/json\r\nContent-Length: 12\r\n\r\n" + '{"name":"x"}',
        );
        assert.equal(raw.status, 403, `${host}: ${raw.head}`);
      }
      const names = (await call(b.base, "GET", "/api/models")).body.map((m: { name: string }) =>
        m.name
      );
      assert.ok(!names.includes("x"), "nothing saved by the refused POSTs");
    });
    await t.step("other ports and schemes of the own hosts are refused", async () => {
      for (
        const origin of [
          `http://localhost:${b.port + 1}`,
          `https://127.0.0.1:${b.port}`,
          "http://models.example.org",
          `http://[::1]:${b.port}`,
        ]
      ) {
        const res = await call(b.base, "GET", "/api/models", undefined, { Origin: origin });
        assert.equal(res.status, 403, origin);
      }
    });
  } finally {
    await b.dispose();
  }
});

Deno.test("backendOwnOrigins() lists its port on localhost and 127.0.0.1, then the public ones", () => {
  assert.deepEqual(backendOwnOrigins(8082), ["http://localhost:8082", "http://127.0.0.1:8082"]);
  assert.deepEqual(backendOwnOrigins(0, ["https://a.example"]), ["https://a.example"]);
  assert.deepEqual(backendOwnOrigins(undefined), []);
});
