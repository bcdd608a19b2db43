import assert from "node:assert/strict";
import { generateApiKey, readHeatSettings } from "../../../server/heat/config.ts";

Deno.test("readHeatSettings() fills in the defaults", () => {
  assert.deepEqual(readHeatSettings({}), { port: 8080, apiKey: undefined, allowedOrigins: [] });
});

Deno.test("readHeatSettings() reads every variable", () => {
  assert.deepEqual(
    readHeatSettings({
      HEAT_PORT: "9090",
      HEAT_API_KEY: "k",
      HEAT_ALLOWED_ORIGINS: "https://a.example.org, http://localhost:5173,",
    }),
    {
      port: 9090,
      apiKey: "k",
      allowedOrigins: ["https://a.example.org", "http://localhost:5173"],
    },
  );
});

Deno.test("readHeatSettings() treats an empty HEAT_API_KEY as unset", () => {
  assert.equal(readHeatSettings({ HEAT_API_KEY: "" }).apiKey, undefined);
});

Deno.test("readHeatSettings() rejects bad values naming the variable", async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ HEAT_PORT: "http" }, /^HEAT_PORT: must be an integer port/],
    [{ HEAT_PORT: "70000" }, /^HEAT_PORT: must be an integer port/],
    [{ HEAT_PORT: "-1" }, /^HEAT_PORT: must be an integer port/],
    [{ HEAT_ALLOWED_ORIGINS: "https://a.example.org/" }, /^HEAT_ALLOWED_ORIGINS: "https:/],
    [{ HEAT_ALLOWED_ORIGINS: "a.example.org" }, /^HEAT_ALLOWED_ORIGINS: "a.example.org"/],
  ];
  for (const [env, message] of cases) {
    await t.step(
      JSON.stringify(env),
      () => assert.throws(() => readHeatSettings(env), { message }),
    );
  }
});

Deno.test("generateApiKey() makes a fresh 32-byte base64url key", () => {
  const key = generateApiKey();
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(generateApiKey(), key);
});
