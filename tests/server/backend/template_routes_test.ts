/**
 * The template routes over a library merged from a real catalogue app on a real socket, and
 * over a closed port (catalogue offline).
 */
import assert from "node:assert/strict";
import { OpenAPIHono } from "@hono/zod-openapi";
import { createTemplateLibrary } from "../../../lib/templates/template_library.ts";
import { templateRoutes } from "../../../server/backend/template_routes.ts";
import { testApp } from "../catalogue/_catalogue.ts";

/** A port nothing listens on: bound, then closed. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function mounted(routes: OpenAPIHono) {
  const app = new OpenAPIHono();
  app.route("/api/templates", routes);
  return app;
}

Deno.test("template routes with the catalogue online serve its values as source catalogue", async (t) => {
  const catalogue = await testApp();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    catalogue.app.fetch,
  );
  const lines: string[] = [];
  try {
    const library = await createTemplateLibrary({
      catalogueUrl: `http://127.0.0.1:${server.addr.port}`,
      log: (line) => lines.push(line),
    });
    const app = mounted(templateRoutes(library));

    await t.step("GET /api/templates lists every template", async () => {
      const res = await app.request("/api/templates");
      assert.equal(res.status, 200);
      const list = await res.json();
      assert.equal(list.length, 49);
      assert.deepEqual(list[3], {
        id: "onshore_wind",
        name: "Onshore wind",
        category: "renewable_generation",
        parent: "supply_plus",
      });
    });

    await t.step(
      "GET /api/templates/{id}: catalogue values, built-in where it has none",
      async () => {
        const res = await app.request("/api/templates/onshore_wind");
        assert.equal(res.status, 200);
        const entry = await res.json();
        assert.equal(entry.tech.costs.monetary.energy_cap, 1625.94);
        assert.equal(entry.source["costs.monetary.energy_cap"], "catalogue");
        assert.equal(entry.source["essentials.parent"], "catalogue");
        assert.match(entry.references["costs.monetary.energy_cap"], /^catalogue:onshore_wind at /);
        const flywheels = await (await app.request("/api/templates/flywheels")).json();
        assert.equal(flywheels.source["essentials.parent"], "built-in");
        assert.ok(flywheels.missing.includes("costs.monetary.storage_cap"));
      },
    );

    await t.step("GET /api/templates/{id} of an unknown id is a 404 JSON", async () => {
      const res = await app.request("/api/templates/onshore_wnd");
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), {
        error: 'Unknown template "onshore_wnd"; did you mean onshore_wind?',
      });
    });

    await t.step("POST /api/templates/refresh merges again", async () => {
      const res = await app.request("/api/templates/refresh", { method: "POST" });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { catalogue: true, updated: 36 });
    });
    assert.deepEqual(lines, []);
  } finally {
    await server.shutdown();
    await catalogue.dispose();
  }
});

Deno.test("template routes with the catalogue offline serve built-in values, logged once", async () => {
  const lines: string[] = [];
  const library = await createTemplateLibrary({
    catalogueUrl: `http://127.0.0.1:${closedPort()}`,
    log: (line) => lines.push(line),
  });
  const app = mounted(templateRoutes(library));
  const entry = await (await app.request("/api/templates/onshore_wind")).json();
  assert.equal(entry.tech.costs.monetary.energy_cap, 1625.94);
  assert.equal(entry.source["costs.monetary.energy_cap"], "built-in");
  assert.match(entry.references["costs.monetary.energy_cap"], /^catalogue:onshore_wind-2025 /);
  const res = await app.request("/api/templates/refresh", { method: "POST" });
  assert.deepEqual(await res.json(), { catalogue: false, updated: 0 });
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^templates: catalogue at http:\/\/127\.0\.0\.1:\d+\/api\/v1\//);
});

Deno.test("the template routes are in the OpenAPI document", () => {
  const app = mounted(templateRoutes({
    list: () => [],
    get: () => undefined,
    refresh: () => Promise.resolve({ catalogue: false, updated: 0 }),
    resolveModel: (model) => ({ ok: true, model }),
  }));
  const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  assert.deepEqual(Object.keys(doc.paths ?? {}).sort(), [
    "/api/templates",
    "/api/templates/refresh",
    "/api/templates/{id}",
  ]);
});
