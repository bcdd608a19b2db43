import assert from "node:assert/strict";
import { generateApiKey, readConfig } from "../../server/config.ts";

/** The heat part of the configuration (the catalogue's is tested in catalogue/config_test.ts). */
function heatPart(env: Record<string, string>) {
  const { catalogue: _catalogue, ...heat } = readConfig(env);
  return heat;
}

Deno.test("readConfig() fills in the defaults", () => {
  assert.deepEqual(heatPart({}), {
    host: "0.0.0.0",
    heatPort: 8080,
    storePath: "data/store.duckdb",
    heatApiKey: undefined,
    heatAllowedOrigins: [],
  });
});

Deno.test("readConfig() reads every variable", () => {
  assert.deepEqual(
    heatPart({
      HEAT_HOST: "127.0.0.1",
      HEAT_PORT: "9090",
      STORE_PATH: "/tmp/s.duckdb",
      HEAT_API_KEY: "k",
      HEAT_ALLOWED_ORIGINS: "https://a.example.org, http://localhost:5173,",
    }),
    {
      host: "127.0.0.1",
      heatPort: 9090,
      storePath: "/tmp/s.duckdb",
      heatApiKey: "k",
      heatAllowedOrigins: ["https://a.example.org", "http://localhost:5173"],
    },
  );
});

Deno.test("readConfig() treats an empty HEAT_API_KEY as unset", () => {
  assert.equal(readConfig({ HEAT_API_KEY: "" }).heatApiKey, undefined);
});

Deno.test("readConfig() rejects bad values naming the variable", async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ HEAT_PORT: "http" }, /^HEAT_PORT: must be an integer port/],
    [{ HEAT_PORT: "70000" }, /^HEAT_PORT: must be an integer port/],
    [{ HEAT_PORT: "-1" }, /^HEAT_PORT: must be an integer port/],
    [{ HEAT_ALLOWED_ORIGINS: "https://a.example.org/" }, /^HEAT_ALLOWED_ORIGINS: "https:/],
    [{ HEAT_ALLOWED_ORIGINS: "a.example.org" }, /^HEAT_ALLOWED_ORIGINS: "a.example.org"/],
  ];
  for (const [env, message] of cases) {
    await t.step(JSON.stringify(env), () => assert.throws(() => readConfig(env), { message }));
  }
});

Deno.test("generateApiKey() makes a fresh 32-byte base64url key", () => {
  const key = generateApiKey();
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(generateApiKey(), key);
});
