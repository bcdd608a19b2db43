/**
 * Issue 18, deep nesting: `POST /api/completed-runs` with a 10,000-level nested member was a 500
 * (the record's JSON.stringify overflowed the stack) and `POST /api/models` stored such a body.
 * Every backend route that takes JSON (found in the backend's own OpenAPI document, the map
 * routes' download included) now answers 400 with the depth message; 64 levels still pass.
 * `readJsonObject` refuses it too where no guard runs before it (the extraction service).
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { backendModule } from "../../../server/backend/module.ts";
import { readJsonObject } from "../../../server/middleware/json_object_body.ts";
import { onError } from "../../../server/middleware/errors.ts";
import { readOsmStoreSettings } from "../../../server/osm_store_settings.ts";
import { openSharedOsmStore } from "../../../server/shared_osm_store.ts";
import { closedUrl } from "./_backend.ts";
import { jsonBodyRoutes } from "../_json_routes.ts";

const DEPTH_MESSAGE = /nests deeper than 64 levels/;

/** An object `levels` deep: `{"a":{"a":...1}}` inside a member `x`, beside `extra`. */
function nested(levels: number, extra: Record<string, unknown> = {}): string {
  const inner = '{"a":'.repeat(levels - 1) + "1" + "}".repeat(levels - 1);
  return JSON.stringify({ ...extra, x: 0 }).replace('"x":0', `"x":${inner}`);
}

Deno.test("backend: every route that takes JSON refuses 10,000 levels with 400, never 500 (issue 18)", async () => {
  const dir = await Deno.makeTempDir();
  const osm = openSharedOsmStore(
    readOsmStoreSettings({ OSM_STORE_PATH: `${dir}/osm.duckdb`, OSM_SEED: "" }),
    () => {},
  );
  const shutdown = new AbortController();
  const running = await backendModule.configure({
    BACKEND_PORT: "0",
    BACKEND_STATE_PATH: `${dir}/backend.duckdb`,
    RUNNER_URL: closedUrl(),
    CATALOGUE_URL: closedUrl(),
  }).start({
    shutdown: shutdown.signal,
    dataStore: () => Promise.reject(new Error("not used")),
    osmStore: () => osm,
    log: () => {},
  });
  const request = (method: string, path: string, body?: string) =>
    running.fetch(
      new Request(`http://x${path}`, {
        method,
        headers: { "Content-Type": "application/json" },
        ...(body !== undefined ? { body } : {}),
      }),
    );
  try {
    const saved = await request("POST", "/api/models", '{"name":"m"}');
    assert.equal(saved.status, 201);
    const id = (await saved.json()).id;
    const doc = await (await request("GET", "/api/openapi.json")).json();
    const routes = jsonBodyRoutes(doc);
    for (
      const expected of [
        "POST /api/models",
        "PUT /api/models/{id}",
        "POST /api/models/{id}/run",
        "POST /api/completed-runs",
        "POST /api/osm/download",
      ]
    ) assert.ok(routes.some(([m, p]) => `${m} ${p}` === expected), expected);

    const deep = nested(10_000, { modelName: "m", name: "m", continent: "Europe" });
    for (const [method, path] of routes) {
      const res = await request(method, path.replace("{id}", id), deep);
      const body = await res.json();
      assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(body)}`);
      assert.match(body.error, DEPTH_MESSAGE, `${method} ${path}`);
    }
    // The limit is 64 levels: a body 64 deep is saved, 65 is refused; the model is unchanged.
    const sixtyFour = await request("POST", "/api/models", nested(64, { name: "deep" }));
    assert.equal(sixtyFour.status, 201);
    const put = await request("PUT", `/api/models/${id}`, nested(65, { name: "deeper" }));
    assert.equal(put.status, 400);
    assert.equal((await (await request("GET", `/api/models/${id}`)).json()).name, "m");
    const run = await request("POST", "/api/completed-runs", nested(10_000, { modelName: "m" }));
    assert.equal(run.status, 400);
    assert.deepEqual(await (await request("GET", "/api/completed-runs")).json(), []);
    // Brackets inside strings are text, not nesting.
    const text = JSON.stringify({ name: "brackets", note: "[".repeat(10_000) });
    assert.equal((await request("POST", "/api/models", text)).status, 201);
  } finally {
    shutdown.abort();
    await running.close();
    await (await osm).close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readJsonObject refuses 10,000 levels with 400 where no guard ran (the extraction route)", async () => {
  const app = new Hono();
  app.onError(onError);
  app.post("/", async (c) => c.json((await readJsonObject(c, 1 << 20)).value));
  const deep = await app.request("/", { method: "POST", body: nested(10_000) });
  assert.equal(deep.status, 400);
  assert.match((await deep.json()).error, DEPTH_MESSAGE);
  const fine = await app.request("/", { method: "POST", body: nested(64) });
  assert.equal(fine.status, 200);
});
