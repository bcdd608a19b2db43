/**
 * The largest simulation the service takes by default (issue 18): the existing client's
 * hydrogen payload for a year at 1-minute steps (525,600 steps, a profile of 525,601 points,
 * 17.7 MB of JSON; its result 19.4 million values, about 250 MB of JSON). Served by Deno.serve
 * on a free port with the default settings, it measures: the submit (body read, depth scan,
 * parse and validation on the event loop), the run, the result read over HTTP as a stream, the
 * /health latency while each happens (sampled every 20 ms by a client in another process, so
 * its timing is the server's alone), the bytes the finished result holds, and the refusal of a
 * 1,000,000-step payload.
 *
 *   deno run -A benchmarks/simulation_limits.ts [--model h2|ccs]
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

const YEAR_S = 365 * 86_400;
const { values } = parseArgs({
  args: Deno.args,
  options: { model: { type: "string", default: "h2" }, probe: { type: "string" } },
});

// The /health prober: a child process that samples until told to stop, then prints latencies.
if (values.probe) {
  const samples: number[] = [];
  let stop = false;
  (async () => {
    for await (const _ of Deno.stdin.readable) break;
    stop = true;
  })();
  while (!stop) {
    const t0 = performance.now();
    await (await fetch(values.probe)).body?.cancel();
    samples.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(JSON.stringify(samples));
  Deno.exit(0);
}

/** Starts the prober; `stop()` answers its latencies, ms. */
function probeHealth(url: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--probe", url],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  return {
    async stop(): Promise<number[]> {
      await writer.write(new Uint8Array([10]));
      await writer.close();
      const out = await child.output();
      return JSON.parse(new TextDecoder().decode(out.stdout));
    },
  };
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `n=${sorted.length} p50=${at(0.5).toFixed(1)} p99=${at(0.99).toFixed(1)} max=${
    sorted.at(-1)!.toFixed(1)
  } ms`;
}

const model = await SIMULATION_MODELS[values.model!]!() as SimulationModel;
const payload = values.model === "ccs"
  ? ccsClientPayload(YEAR_S, 60)
  : hydrogenClientPayload(YEAR_S, 60);
const settings = readSimulationSettings({}, "BENCH_PORT", 0);
const service = createSimulationApp({ model, settings });
const server = Deno.serve({ port: 0, onListen() {} }, (r, i) => service.app.fetch(r, i));
const http = `http://127.0.0.1:${server.addr.port}`;
const routes = clientRoutesFor(model.name);
const body = JSON.stringify(payload);
const mb = (n: number) => (n / 1e6).toFixed(1);
console.log(`${values.model}: a year at 1-minute steps, body ${mb(body.length)} MB`);

const refused = await fetch(`${http}/simulate`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ ...payload, simulation: { t_end_s: 1e6, dt_s: 1 } }),
});
console.log(
  `1,000,000 steps: ${refused.status} ${(await refused.json()).detail.slice(0, 100)}...`,
);

const rss0 = Deno.memoryUsage().rss;
let probe = probeHealth(`${http}/health`);
await new Promise((r) => setTimeout(r, 300)); // the prober's start
let t0 = performance.now();
const ack = await fetch(`${http}${routes.prefix}${routes.submit[0]}`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body,
});
const submitMs = performance.now() - t0;
const { job_id } = await ack.json();
if (ack.status !== 202) throw new Error(`submit answered ${ack.status}`);
await service.jobs.settled(job_id);
const runMs = performance.now() - t0;
console.log(`submit ${submitMs.toFixed(0)} ms (202), run to done ${(runMs / 1000).toFixed(1)} s`);
console.log(`/health during submit and run: ${summary(await probe.stop())}`);
console.log(
  `held by the finished job: ${mb(service.jobs.heldBytes)} MB (SIM_MAX_RESULTS_MB ${
    mb(settings.maxResultsBytes)
  } MB); RSS +${mb(Deno.memoryUsage().rss - rss0)} MB`,
);

probe = probeHealth(`${http}/health`);
await new Promise((r) => setTimeout(r, 300));
t0 = performance.now();
const res = await fetch(`${http}${routes.prefix}/result/${job_id}`);
let bytes = 0;
let chunks = 0;
const reader = res.body!.getReader();
for (let r = await reader.read(); !r.done; r = await reader.read()) {
  bytes += r.value.length;
  chunks++;
}
const readMs = performance.now() - t0;
console.log(
  `result streamed: ${mb(bytes)} MB in ${chunks} chunks, ${(readMs / 1000).toFixed(1)} s ` +
    `(${mb(bytes / (readMs / 1000))} MB/s)`,
);
console.log(`/health while the result streams: ${summary(await probe.stop())}`);
await service.close();
await server.shutdown();
