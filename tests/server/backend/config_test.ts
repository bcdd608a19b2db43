import assert from "node:assert/strict";
import { readBackendSettings } from "../../../server/backend/config.ts";

Deno.test("backend settings: defaults and errors", () => {
  assert.deepEqual(readBackendSettings({}), {
    port: 8082,
    statePath: "data/backend.duckdb",
    runnerUrl: "http://localhost:5000",
    catalogueUrl: "http://localhost:8005",
    maxBodyBytes: 4 * 1024 * 1024,
  });
  const set = readBackendSettings({
    BACKEND_PORT: "9000",
    BACKEND_STATE_PATH: "/tmp/b.duckdb",
    RUNNER_URL: "http://runner:5000",
    CATALOGUE_URL: "http://cat:8005",
    BACKEND_MAX_BODY_MB: "1",
  });
  assert.equal(set.port, 9000);
  assert.equal(set.maxBodyBytes, 1024 * 1024);
  assert.throws(() => readBackendSettings({ BACKEND_PORT: "x" }), /BACKEND_PORT/);
  assert.throws(() => readBackendSettings({ RUNNER_URL: "ftp://x" }), /RUNNER_URL/);
  assert.throws(() => readBackendSettings({ BACKEND_MAX_BODY_MB: "0" }), /BACKEND_MAX_BODY_MB/);
});
