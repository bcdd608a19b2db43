/**
 * The cross-origin rule for each case: no Origin, `null`, the four dev-server origins (with
 * preflight), and any other origin (403 on every route, preflight included), on extra routes
 * mounted through `extraRoutes` too.
 */
import assert from "node:assert/strict";
import { BACKEND_ORIGINS } from "../../../server/backend/backend_cors.ts";
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
    await t.step("the backend's own origin (its pages' module scripts): allowed", async () => {
      const res = await call(b.base, "GET", "/api/models", undefined, {
        Origin: new URL(b.base).origin,
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      // The same host on another port is another origin.
      const other = new URL(b.base);
      other.port = String(Number(other.port) + 1);
      const refused = await call(b.base, "GET", "/api/models", undefined, {
        Origin: other.origin,
      });
      assert.equal(refused.status, 403);
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
