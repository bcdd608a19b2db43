import assert from "node:assert/strict";
import { backendModule } from "../../../server/backend/module.ts";
import { readOsmStoreSettings } from "../../../server/osm_store_settings.ts";
import { openSharedOsmStore } from "../../../server/shared_osm_store.ts";

Deno.test("backend module: configures, starts on its state file, answers, closes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const configured = backendModule.configure({
      BACKEND_PORT: "0",
      BACKEND_STATE_PATH: `${dir}/sub/backend.duckdb`,
    });
    assert.equal(backendModule.name, "backend");
    assert.equal(configured.port, 0);
    const shutdown = new AbortController();
    const osm = openSharedOsmStore(
      readOsmStoreSettings({ OSM_STORE_PATH: `${dir}/osm/osm.duckdb`, OSM_SEED: "" }),
      () => {},
    );
    const running = await configured.start({
      shutdown: shutdown.signal,
      dataStore: () => Promise.reject(new Error("not used")),
      osmStore: () => osm,
      log: () => {},
    });
    const res = await running.fetch(
      new Request("http://x/api/models", { method: "POST", body: '{"name":"m"}' }),
    );
    assert.equal(res.status, 201);
    shutdown.abort();
    await running.close();
    await (await osm).close();
    assert.ok((await Deno.stat(`${dir}/sub/backend.duckdb`)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
