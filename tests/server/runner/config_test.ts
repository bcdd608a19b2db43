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
