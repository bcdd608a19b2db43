import assert from "node:assert/strict";
import { call, heatApp } from "./_heat.ts";

Deno.test("GET /heat/health answers ok without touching the typology", async () => {
  const reply = await call(heatApp(), "/heat/health");
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, { status: "ok" });
});

Deno.test("an unknown path answers 404 { error }", async () => {
  const reply = await call(heatApp(), "/api/v1/nothing");
  assert.equal(reply.status, 404);
  assert.deepEqual(reply.body, { error: "Not found: GET /api/v1/nothing" });
});
