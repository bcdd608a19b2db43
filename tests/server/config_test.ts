import assert from "node:assert/strict";
import { readConfig } from "../../server/config.ts";

Deno.test("readConfig() fills in the shared defaults", () => {
  assert.deepEqual(readConfig({}), {
    host: "0.0.0.0",
    storePath: "data/store.duckdb",
    services: undefined,
    shutdownGraceMs: 10_000,
  });
});

Deno.test("readConfig() reads every shared variable", () => {
  assert.deepEqual(
    readConfig({
      HOST: "127.0.0.1",
      STORE_PATH: "/tmp/s.duckdb",
      SERVICES: "catalogue, heat,",
      SHUTDOWN_GRACE_SECONDS: "2.5",
    }),
    {
      host: "127.0.0.1",
      storePath: "/tmp/s.duckdb",
      services: ["catalogue", "heat"],
      shutdownGraceMs: 2500,
    },
  );
});

Deno.test("readConfig() takes HEAT_HOST as the interface when HOST is unset", () => {
  assert.equal(readConfig({ HEAT_HOST: "127.0.0.2" }).host, "127.0.0.2");
  assert.equal(readConfig({ HOST: "127.0.0.1", HEAT_HOST: "127.0.0.2" }).host, "127.0.0.1");
});

Deno.test("readConfig() rejects bad values naming the variable", async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ SHUTDOWN_GRACE_SECONDS: "0" }, /^SHUTDOWN_GRACE_SECONDS: must be a number > 0/],
    [{ SHUTDOWN_GRACE_SECONDS: "soon" }, /^SHUTDOWN_GRACE_SECONDS: must be a number > 0/],
  ];
  for (const [env, message] of cases) {
    await t.step(JSON.stringify(env), () => assert.throws(() => readConfig(env), { message }));
  }
});
