/**
 * Issue 18, deep nesting: every catalogue route that takes JSON (found in its own OpenAPI
 * document) answers a 10,000-level body with 400 and the depth message, never a 500 and never
 * by walking it; 64 levels still reach the route. Bodies over 2 MiB are still 413, and a body
 * read by the guard still reaches the routes (the validator and `c.req.json()`).
 */
import assert from "node:assert/strict";
import { ADMIN, call, json, RESEARCHER, testApp, tokenFor } from "./_catalogue.ts";
import { jsonBodyRoutes } from "../_json_routes.ts";

const admin = await tokenFor(ADMIN);
const researcher = await tokenFor(RESEARCHER);
const DEPTH_MESSAGE = /nests deeper than 64 levels/;

/** An object `levels` deep, as the member `x`. */
function nested(levels: number): string {
  return `{"x":${'{"a":'.repeat(levels - 1)}1${"}".repeat(levels - 1)}}`;
}

Deno.test("catalogue: every route that takes JSON refuses 10,000 levels with 400 (issue 18)", async () => {
  const app = await testApp();
  try {
    const doc = (await call(app.app, "/openapi.json")).body;
    const routes = jsonBodyRoutes(doc);
    for (
      const expected of [
        "POST /api/v1/technologies/{id}/calliope",
        "POST /api/v1/technologies/submit",
        "POST /api/v1/timeseries/submit",
        "POST /api/v1/auth/admin/login",
      ]
    ) assert.ok(routes.some(([m, p]) => `${m} ${p}` === expected), expected);
    const deep = nested(10_000);
    for (const [method, template] of routes) {
      const path = template.replace(/\{id\}/g, "onshore_wind").replace(/\{[^}]+\}/g, "1");
      for (const token of [admin, undefined]) {
        const res = await call(app.app, path, json(method, deep, token));
        assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.error, DEPTH_MESSAGE, `${method} ${path}`);
      }
    }
  } finally {
    await app.dispose();
  }
});

Deno.test("catalogue: 64 levels reach the route; 2 MiB is still the body limit", async () => {
  const app = await testApp();
  try {
    // A Calliope override 64 levels deep gets past the guard: the route itself answers.
    const res = await call(
      app.app,
      "/api/v1/technologies/onshore_wind/calliope",
      json("POST", nested(64)),
    );
    assert.notEqual(res.status, 500);
    assert.doesNotMatch(String(res.body.error ?? ""), DEPTH_MESSAGE);
    // A body read by the guard is what the validator sees: a valid submission is taken.
    const submit = await call(app.app, "/api/v1/technologies/submit", json("POST", {}, researcher));
    assert.equal(submit.status, 400);
    assert.doesNotMatch(submit.body.error, DEPTH_MESSAGE);
    const big = await call(
      app.app,
      "/api/v1/technologies/submit",
      json("POST", { blob: "x".repeat(2 * 1024 * 1024) }, researcher),
    );
    assert.equal(big.status, 413);
  } finally {
    await app.dispose();
  }
});
