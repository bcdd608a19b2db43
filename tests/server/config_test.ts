import assert from "node:assert/strict";
import { readConfig } from "../../server/config.ts";

Deno.test("readConfig() fills in the shared defaults", () => {
  assert.deepEqual(readConfig({}), {
    host: "0.0.0.0",
    storePath: "data/store.duckdb",
    services: undefined,
    shutdownGraceMs: 10_000,
    connectionLimits: {
      headerMs: 10_000,
      bodyIdleMs: 30_000,
      idleMs: 120_000,
      maxHeaderBytes: 65_536,
    },
  });
});

Deno.test("readConfig() reads every shared variable", () => {
  assert.deepEqual(
    readConfig({
      HOST: "127.0.0.1",
      STORE_PATH: "/tmp/s.duckdb",
      SERVICES: "catalogue, heat,",
      SHUTDOWN_GRACE_SECONDS: "2.5",
      HEADER_TIMEOUT_SECONDS: "5",
      BODY_TIMEOUT_SECONDS: "6",
      IDLE_TIMEOUT_SECONDS: "7",
    }),
    {
      host: "127.0.0.1",
      storePath: "/tmp/s.duckdb",
      services: ["catalogue", "heat"],
      shutdownGraceMs: 2500,
      connectionLimits: { headerMs: 5000, bodyIdleMs: 6000, idleMs: 7000, maxHeaderBytes: 65_536 },
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
    [{ HEADER_TIMEOUT_SECONDS: "0" }, /^HEADER_TIMEOUT_SECONDS: must be a number > 0/],
    [{ IDLE_TIMEOUT_SECONDS: "-1" }, /^IDLE_TIMEOUT_SECONDS: must be a number > 0/],
    [{ GUARD_CONNECTIONS: "maybe" }, /^GUARD_CONNECTIONS: must be on or off/],
  ];
  for (const [env, message] of cases) {
    await t.step(JSON.stringify(env), () => assert.throws(() => readConfig(env), { message }));
  }
});

Deno.test("readConfig() with GUARD_CONNECTIONS=off leaves connection deadlines to a proxy", () => {
  assert.equal(readConfig({ GUARD_CONNECTIONS: "off" }).connectionLimits, undefined);
});
