import assert from "node:assert/strict";
import { readRunnerSettings, RUNNER_DEFAULTS } from "../../../server/runner/config.ts";

Deno.test("readRunnerSettings() has the issue's defaults", () => {
  assert.deepEqual(readRunnerSettings({}), {
    port: 5000,
    workers: 1,
    maxQueued: 100,
    maxQueuedBytes: 1024 * 1024 * 1024,
    jobTtlMs: 3_600_000,
    maxBodyBytes: 64 * 1024 * 1024,
    keepaliveMs: RUNNER_DEFAULTS.keepaliveMs,
    statsMs: RUNNER_DEFAULTS.statsMs,
    attempts: 2,
  });
});

Deno.test("readRunnerSettings() reads every variable", () => {
  const settings = readRunnerSettings({
    RUNNER_PORT: "5100",
    RUNNER_WORKERS: "3",
    RUNNER_MAX_QUEUED: "0",
    RUNNER_JOB_TTL_S: "60",
    RUNNER_MAX_BODY_MB: "0.5",
    RUNNER_MAX_QUEUED_MB: "256",
  });
  assert.equal(settings.port, 5100);
  assert.equal(settings.workers, 3);
  assert.equal(settings.maxQueued, 0);
  assert.equal(settings.jobTtlMs, 60_000);
  assert.equal(settings.maxBodyBytes, 512 * 1024);
  assert.equal(settings.maxQueuedBytes, 256 * 1024 * 1024);
});

Deno.test("readRunnerSettings() names the variable at fault", async (t) => {
  const cases: [string, string, RegExp][] = [
    ["RUNNER_PORT", "70000", /^RUNNER_PORT: must be an integer port/],
    ["RUNNER_WORKERS", "0", /^RUNNER_WORKERS: must be an integer >= 1, got "0"$/],
    ["RUNNER_WORKERS", "1.5", /^RUNNER_WORKERS: must be an integer >= 1/],
    ["RUNNER_MAX_QUEUED", "-1", /^RUNNER_MAX_QUEUED: must be an integer >= 0/],
    ["RUNNER_JOB_TTL_S", "0", /^RUNNER_JOB_TTL_S: must be a number > 0/],
    ["RUNNER_MAX_BODY_MB", "lots", /^RUNNER_MAX_BODY_MB: must be a number > 0/],
    ["RUNNER_MAX_QUEUED_MB", "0", /^RUNNER_MAX_QUEUED_MB: must be a number > 0/],
  ];
  for (const [name, value, message] of cases) {
    await t.step(`${name}=${value}`, () => {
      assert.throws(() => readRunnerSettings({ [name]: value }), (e: Error) => {
        assert.ok(e instanceof RangeError);
        assert.match(e.message, message);
        return true;
      });
    });
  }
});

Deno.test("readRunnerSettings() reads the queue, the solver and the attempts", () => {
  const settings = readRunnerSettings({
    RUNNER_QUEUE_URL: "redis://:s3cr%40t@redis.internal:6380/2",
    RUNNER_SOLVER: "cbc",
    RUNNER_ATTEMPTS: "3",
  });
  assert.deepEqual(settings.queue, {
    host: "redis.internal",
    port: 6380,
    db: 2,
    password: "s3cr@t",
  });
  assert.equal(settings.solver, "cbc");
  assert.equal(settings.attempts, 3);
  assert.deepEqual(readRunnerSettings({ RUNNER_QUEUE_URL: "redis://127.0.0.1:6379" }).queue, {
    host: "127.0.0.1",
    port: 6379,
    db: 0,
  });
  const none = readRunnerSettings({ RUNNER_QUEUE_URL: " ", RUNNER_SOLVER: "" });
  assert.equal("queue" in none, false);
  assert.equal("solver" in none, false);
});

Deno.test("readRunnerSettings() refuses a malformed RUNNER_QUEUE_URL, without its password", async (t) => {
  const cases: [string, RegExp][] = [
    ["localhost:6379", /not a URL|the scheme must be redis:/],
    ["http://localhost:6379", /the scheme must be redis:/],
    ["redis://localhost", /no port/],
    ["redis://localhost:6379/x", /the path must be a database number/],
    ["redis://localhost:6379/0?tls=1", /no query or fragment/],
    ["redis://:hunter2@localhost/0", /no port/],
  ];
  for (const [value, why] of cases) {
    await t.step(value, () => {
      assert.throws(() => readRunnerSettings({ RUNNER_QUEUE_URL: value }), (e: Error) => {
        assert.ok(e instanceof TypeError);
        assert.match(e.message, /^RUNNER_QUEUE_URL: ".*" is not a Redis URL like redis:\/\//);
        assert.match(e.message, why);
        assert.doesNotMatch(e.message, /hunter2/);
        return true;
      });
    });
  }
  assert.throws(() => readRunnerSettings({ RUNNER_ATTEMPTS: "0" }), /^RangeError: RUNNER_ATTEMPTS/);
});
