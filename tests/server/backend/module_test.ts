import assert from "node:assert/strict";
import { backendModule } from "../../../server/backend/module.ts";

Deno.test("backend module: configures, starts on its state file, answers, closes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const configured = backendModule.configure({
      BACKEND_PORT: "0",
      BACKEND_STATE_PATH: `${dir}/sub/backend.duckdb`,
      OSM_STORE_PATH: `${dir}/osm/osm.duckdb`,
      OSM_SEED: "",
    });
    assert.equal(backendModule.name, "backend");
    assert.equal(configured.port, 0);
    const shutdown = new AbortController();
    const running = await configured.start({
      shutdown: shutdown.signal,
      dataStore: () => Promise.reject(new Error("not used")),
      log: () => {},
    });
    const res = await running.fetch(
      new Request("http://x/api/models", { method: "POST", body: '{"name":"m"}' }),
    );
    assert.equal(res.status, 201);
    shutdown.abort();
    await running.close();
    assert.ok((await Deno.stat(`${dir}/sub/backend.duckdb`)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
