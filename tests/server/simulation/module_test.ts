import assert from "node:assert/strict";
import { createSimulationModule } from "../../../server/simulation/module.ts";
import { readSimulationSettings } from "../../../server/simulation/config.ts";
import { startServices } from "../../../server/main.ts";
import { tankModel } from "../../simulation/_tank_model.ts";
import { collect, opened } from "./_serve.ts";

Deno.test("readSimulationSettings reads the port, SIM_JOB_TTL_S and SIM_MAX_JOBS", () => {
  assert.deepEqual(readSimulationSettings({}, "HYDROGEN_PORT", 8765), {
    port: 8765,
    jobTtlMs: 3_600_000,
    maxJobs: 4,
    maxQueued: 16,
    maxBodyBytes: 32 * 1024 * 1024,
    maxResultValues: 21_024_000,
    maxResultsBytes: 256 * 1024 * 1024,
    wsMaxBufferBytes: 8 * 1024 * 1024,
  });
  const set = readSimulationSettings(
    { CCS_PORT: "9000", SIM_JOB_TTL_S: "60", SIM_MAX_JOBS: "2" },
    "CCS_PORT",
    8766,
  );
  assert.equal(set.port, 9000);
  assert.equal(set.jobTtlMs, 60_000);
  assert.equal(set.maxJobs, 2);
  assert.throws(() => readSimulationSettings({ CCS_PORT: "x" }, "CCS_PORT", 8766), /CCS_PORT/);
  assert.throws(
    () => readSimulationSettings({ SIM_MAX_JOBS: "0" }, "CCS_PORT", 8766),
    /SIM_MAX_JOBS/,
  );
  assert.throws(
    () => readSimulationSettings({ SIM_JOB_TTL_S: "-1" }, "CCS_PORT", 8766),
    /SIM_JOB_TTL_S/,
  );
});

Deno.test("readSimulationSettings reads the issue-18 limits; a bad value names its variable", () => {
  const set = readSimulationSettings(
    {
      SIM_MAX_QUEUED: "0",
      SIM_MAX_BODY_MB: "2",
      SIM_MAX_RESULT_VALUES: "1000",
      SIM_MAX_RESULTS_MB: "0.5",
      SIM_WS_MAX_BUFFER_MB: "1",
    },
    "CCS_PORT",
    8766,
  );
  assert.equal(set.maxQueued, 0);
  assert.equal(set.maxBodyBytes, 2 * 1024 * 1024);
  assert.equal(set.maxResultValues, 1000);
  assert.equal(set.maxResultsBytes, 512 * 1024);
  assert.equal(set.wsMaxBufferBytes, 1024 * 1024);
  for (
    const [name, value] of [
      ["SIM_MAX_QUEUED", "-1"],
      ["SIM_MAX_BODY_MB", "0"],
      ["SIM_MAX_RESULT_VALUES", "1e6"],
      ["SIM_MAX_RESULTS_MB", "x"],
      ["SIM_WS_MAX_BUFFER_MB", "-8"],
    ]
  ) {
    assert.throws(
      () => readSimulationSettings({ [name!]: value }, "CCS_PORT", 8766),
      (e: unknown) => e instanceof RangeError && e.message.includes(name!),
      name,
    );
  }
});

Deno.test("createSimulationModule starts through server/main.ts; close cancels jobs and closes sockets", async () => {
  const module = createSimulationModule("tank", tankModel, "TANK_PORT", 0);
  const started = await startServices(
    { TANK_PORT: "0", HOST: "127.0.0.1", SIM_MAX_JOBS: "1" },
    { modules: [module] },
  );
  const { port } = started.listeners[0]!;
  const ack = await (await fetch(`http://127.0.0.1:${port}/api/tank/simulate`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ simulation: { t_end_s: 1e6, dt_s: 1 }, substeps: 2000 }),
  })).json();
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/tank/ws/${ack.job_id}`);
  await opened(socket); // on a loaded machine 100 ms may not see it open
  const closed = collect(socket);
  await new Promise((r) => setTimeout(r, 100));
  const t0 = performance.now();
  await started.stop();
  const { messages } = await closed;
  assert.ok(performance.now() - t0 < 2000);
  assert.equal(JSON.parse(messages.at(-1)!).status, "cancelled");
});
