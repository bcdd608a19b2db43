import assert from "node:assert/strict";
import { peerUrls, readBackendSettings } from "../../../server/backend/config.ts";

Deno.test("backend settings: defaults and errors", () => {
  assert.deepEqual(readBackendSettings({}), {
    port: 8082,
    statePath: "data/backend.duckdb",
    runnerUrl: "http://localhost:5000",
    catalogueUrl: "http://localhost:8005",
    urlsSet: { runner: false, catalogue: false },
    publicOrigins: [],
    maxBodyBytes: 4 * 1024 * 1024,
  });
  const set = readBackendSettings({
    BACKEND_PORT: "9000",
    BACKEND_STATE_PATH: "/tmp/b.duckdb",
    RUNNER_URL: "http://runner:5000",
    CATALOGUE_URL: "http://cat:8005",
    BACKEND_MAX_BODY_MB: "1",
    BACKEND_PUBLIC_ORIGIN: "https://models.example.org, http://10.0.0.5:8082",
  });
  assert.equal(set.port, 9000);
  assert.equal(set.maxBodyBytes, 1024 * 1024);
  assert.deepEqual(set.urlsSet, { runner: true, catalogue: true });
  assert.deepEqual(set.publicOrigins, ["https://models.example.org", "http://10.0.0.5:8082"]);
  assert.throws(() => readBackendSettings({ BACKEND_PORT: "x" }), /BACKEND_PORT/);
  assert.throws(() => readBackendSettings({ RUNNER_URL: "ftp://x" }), /RUNNER_URL/);
  assert.throws(() => readBackendSettings({ BACKEND_MAX_BODY_MB: "0" }), /BACKEND_MAX_BODY_MB/);
  for (const bad of ["https://models.example.org/", "models.example.org", "https://a.org/app"]) {
    assert.throws(
      () => readBackendSettings({ BACKEND_PUBLIC_ORIGIN: bad }),
      /^TypeError: BACKEND_PUBLIC_ORIGIN: .* is not an origin/,
      bad,
    );
  }
});

// Issue 18: with RUNNER_PORT or CATALOGUE_PORT moved, the backend of the same process still
// called localhost:5000 and :8005.
Deno.test("peerUrls(): as set, else the service of this process, else the default", () => {
  const inProcess = (name: string) =>
    ({ runner: "http://127.0.0.1:5123", catalogue: "http://127.0.0.1:8123" })[name];
  const unset = readBackendSettings({});
  assert.deepEqual(peerUrls(unset, inProcess), {
    runnerUrl: "http://127.0.0.1:5123",
    catalogueUrl: "http://127.0.0.1:8123",
    sources: { runner: "process", catalogue: "process" },
  });
  assert.deepEqual(peerUrls(unset, () => undefined), {
    runnerUrl: "http://localhost:5000",
    catalogueUrl: "http://localhost:8005",
    sources: { runner: "default", catalogue: "default" },
  });
  const set = readBackendSettings({ RUNNER_URL: "http://solver:7000" });
  assert.deepEqual(peerUrls(set, inProcess), {
    runnerUrl: "http://solver:7000",
    catalogueUrl: "http://127.0.0.1:8123",
    sources: { runner: "set", catalogue: "process" },
  });
});
