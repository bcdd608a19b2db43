import assert from "node:assert/strict";
import type { Typology } from "../../../lib/heat/typology/typology.ts";
import { createHeatApp } from "../../../server/heat/app.ts";
import { call, heatApp, typology } from "./_heat.ts";

/** The real typology, recording every method called on it once `watching` is set. */
function watchedTypology() {
  const calls: string[] = [];
  const state = { watching: false };
  const watched = new Proxy(typology, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (state.watching) calls.push(String(property));
        return value.apply(target, args);
      };
    },
  }) as Typology;
  return { watched, calls, state };
}

Deno.test("GET /heat/health answers ok without touching the typology", async () => {
  const { watched, calls, state } = watchedTypology();
  const app = createHeatApp({ typology: watched });
  state.watching = true;
  const reply = await call(app, "/heat/health");
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, { status: "ok" });
  assert.deepEqual(calls, [], "health read the typology");
  // The watch itself works: a variant lookup is seen.
  await call(app, "/api/v1/variants/DE");
  assert.ok(calls.length > 0, "a lookup that reads the typology is recorded");
});

Deno.test("an unknown path answers 404 { error }", async () => {
  const reply = await call(heatApp(), "/api/v1/nothing");
  assert.equal(reply.status, 404);
  assert.deepEqual(reply.body, { error: "Not found: GET /api/v1/nothing" });
});
