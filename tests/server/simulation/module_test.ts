import assert from "node:assert/strict";
import { createSimulationModule } from "../../../server/simulation/module.ts";
import { readSimulationSettings } from "../../../server/simulation/config.ts";
import { startServices } from "../../../server/main.ts";
import { tankModel } from "../../simulation/_tank_model.ts";
import { collect } from "./_serve.ts";

Deno.test("readSimulationSettings reads the port, SIM_JOB_TTL_S and SIM_MAX_JOBS", () => {
  assert.deepEqual(readSimulationSettings({}, "HYDROGEN_PORT", 8765), {
    port: 8765,
    jobTtlMs: 3_600_000,
    maxJobs: 4,
    maxBodyBytes: 8 * 1024 * 1024,
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
  const closed = collect(socket);
  await new Promise((r) => setTimeout(r, 100));
  const t0 = performance.now();
  await started.stop();
  const { messages } = await closed;
  assert.ok(performance.now() - t0 < 2000);
  assert.equal(JSON.parse(messages.at(-1)!).status, "cancelled");
});
