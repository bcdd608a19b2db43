/**
 * Each OpenAPI component name stands for one schema in the backend's document (the checks of
 * `../_openapi_components.ts`). Its own file: the heat tests' typology fixture brings Node's
 * `Event` type into a program, which `server/backend/map/osm_context.ts` does not type-check with.
 */
import assert from "node:assert/strict";
import { OpenAPIHono } from "@hono/zod-openapi";
import { backendModule } from "../../../server/backend/module.ts";
import { readOsmStoreSettings } from "../../../server/osm_store_settings.ts";
import { openSharedOsmStore } from "../../../server/shared_osm_store.ts";
import { checkApp } from "../_openapi_components.ts";

/**
 * The backend's document is put together in its module (the map routes, the template library
 * and the catalogue proxy are mounted there), so the app is the one its module starts: the
 * OpenAPIHono that others are mounted on and that is mounted on none.
 */
Deno.test("the backend app gives each OpenAPI component name one schema", async (t) => {
  const dir = await Deno.makeTempDir();
  const parents = new Set<OpenAPIHono>();
  const children = new Set<unknown>();
  type Route = typeof OpenAPIHono.prototype.route;
  const route = OpenAPIHono.prototype.route;
  const plain = route as (this: OpenAPIHono, path: string, app: unknown) => OpenAPIHono;
  OpenAPIHono.prototype.route = function (this: OpenAPIHono, path: string, app: unknown) {
    parents.add(this);
    children.add(app);
    return plain.call(this, path, app);
  } as Route;
  const shutdown = new AbortController();
  const osm = openSharedOsmStore(
    readOsmStoreSettings({ OSM_STORE_PATH: `${dir}/osm.duckdb`, OSM_SEED: "" }),
    () => {},
  );
  try {
    const running = await backendModule.configure({
      BACKEND_PORT: "0",
      BACKEND_STATE_PATH: `${dir}/backend.duckdb`,
    }).start({
      shutdown: shutdown.signal,
      dataStore: () => Promise.reject(new Error("not used")),
      osmStore: () => osm,
      log: () => {},
    });
    OpenAPIHono.prototype.route = route;
    try {
      const roots = [...parents].filter((app) => !children.has(app));
      assert.equal(roots.length, 1, "one root app");
      await checkApp(t, roots[0]!, "server/backend/module.ts");
    } finally {
      shutdown.abort();
      await running.close();
    }
  } finally {
    OpenAPIHono.prototype.route = route;
    await (await osm).close();
    await Deno.remove(dir, { recursive: true });
  }
});
