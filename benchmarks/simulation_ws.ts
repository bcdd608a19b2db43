/**
 * Load check of a simulation service's telemetry: 64 WebSocket clients on 8 concurrent jobs
 * (8 per job) of the hydrogen plant, one day at 1 s steps (86,400 steps) each, served by
 * Deno.serve on a free port. Checks that every client gets every frame from the one it joined
 * at, in order, and the result; prints wall time, frames and the telemetry cost (share of run
 * time spent building, serialising and delivering frames; target < 10 %).
 *
 * Usage: `deno run -A benchmarks/simulation_ws.ts [--clients 64] [--jobs 8] [--model h2|ccs]
 *   [--frame-interval-ms 50]` (0: a frame at every 1 % of the steps, no 20/s cap).
 */
import { parseArgs } from "node:util";
import type { SimulationModel } from "../lib/simulation/simulation_model.ts";
import { SIMULATION_MODELS } from "../pipelines/simulate.ts";
import { createSimulationApp } from "../server/simulation/app.ts";
import { clientRoutesFor } from "../server/simulation/client_routes.ts";
import { readSimulationSettings } from "../server/simulation/config.ts";
import {
  ccsClientPayload,
  hydrogenClientPayload,
} from "../tests/server/simulation/_client_payloads.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    clients: { type: "string", default: "64" },
    jobs: { type: "string", default: "8" },
    model: { type: "string", default: "h2" },
    // 0: a frame at every 1 % (no 20/s cap), the most telemetry a run can carry
    "frame-interval-ms": { type: "string", default: "50" },
  },
});
const clients = Number(values.clients);
const jobCount = Number(values.jobs);
const model = await SIMULATION_MODELS[values.model]!() as SimulationModel;
const payload = (() => {
  if (values.model === "ccs") return ccsClientPayload(86_400, 1);
  const p = hydrogenClientPayload(86_400, 1) as unknown as Record<string, Record<string, unknown>>;
  for (const unit of ["source", "electrolyzer", "compressor", "storage", "fuel_cell"]) {
    p[unit]!["name"] = unit; // the hydrogen schema does not take the client's null names (yet)
  }
  return p;
})();

const service = createSimulationApp({
  model,
  settings: { ...readSimulationSettings({}, "BENCH_PORT", 0), maxJobs: jobCount },
  jobOptions: { minFrameIntervalMs: Number(values["frame-interval-ms"]) },
});
const server = Deno.serve({ port: 0, onListen() {} }, (r, i) => service.app.fetch(r, i));
const http = `http://localhost:${server.addr.port}`;
const ws = `ws://localhost:${server.addr.port}`;

const started = performance.now();
const jobs: { id: string; emitted: string[] }[] = [];
for (let j = 0; j < jobCount; j++) {
  const res = await fetch(`${http}/simulate`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
  });
  const { job_id } = await res.json();
  const emitted: string[] = [];
  service.jobs.subscribe(job_id, (_frame, text) => emitted.push(text)); // the server's record
  jobs.push({ id: job_id, emitted });
}
// Each client checks its frames as they arrive (keeping none: 64 copies of a day's result at
// 1 s steps would not fit in one process's heap): the first is a frame the job emitted, every
// later one the next frame the job emitted, the last the result.
const verdicts = await Promise.all(
  Array.from({ length: clients }, (_, c) => {
    const job = jobs[c % jobCount]!;
    const socket = new WebSocket(
      c % 2 ? `${ws}${clientRoutesFor(model.name).prefix}/ws/${job.id}` : `${ws}/?job_id=${job.id}`,
    );
    let at = -1;
    let inOrder = true;
    return new Promise<boolean>((resolve, reject) => {
      socket.onmessage = (e) => {
        const text = String(e.data);
        at = at < 0 ? job.emitted.indexOf(text) : at + 1;
        // The service adds the result's URL to a `result_ready` frame.
        const same = job.emitted[at] === text ||
          (text.startsWith('{"type":"result_ready"') &&
            job.emitted[at]?.startsWith('{"type":"result_ready"'));
        if (at < 0 || !same) inOrder = false;
      };
      socket.onclose = () =>
        resolve(
          inOrder && at === job.emitted.length - 1 &&
            ["result", "result_ready"].includes(JSON.parse(job.emitted.at(-1)!).type),
        );
      socket.onerror = (e) => reject(new Error((e as ErrorEvent).message));
    });
  }),
);
const wall = performance.now() - started;
const failures = verdicts.filter((ok) => !ok).length;
const cost = service.jobs.telemetryCost();
const frames = jobs.map((j) => j.emitted.length);
const last = jobs[0]!.emitted.at(-1)!;
// Over SIM_WS_MAX_BUFFER_MB the result is not a frame: `result_ready` sends the client to HTTP.
const resultMb = JSON.parse(last).type === "result"
  ? `${(last.length / 1048576).toFixed(1)} MB of JSON, sent to every client`
  : "too large for a frame: result_ready, read over HTTP";
console.log(
  `${values.model}: ${jobCount} jobs x 86,400 steps, ${clients} WebSocket clients: ` +
    `${(wall / 1000).toFixed(2)} s wall; frames per job ${Math.min(...frames)}-${
      Math.max(...frames)
    } (incl. the result: ${resultMb}); every client got every frame in order and the last: ${
      failures === 0 ? "yes" : `NO (${failures} clients)`
    }`,
);
console.log(
  `telemetry cost: ${cost.telemetryMs.toFixed(1)} ms of ${
    (cost.computeMs + cost.telemetryMs).toFixed(1)
  } ms run time = ${(cost.share * 100).toFixed(2)} % (target < 10 %)`,
);
await service.close();
await server.shutdown();
if (failures > 0 || cost.share >= 0.1) Deno.exit(1);
