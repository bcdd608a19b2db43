/**
 * `/health` latency of every service while the heavy requests of issue 18 run in the same
 * process: every service started as `deno task start` starts them (`startServices`, free ports,
 * temporary state files), each one's health route timed every ~20 ms from a Worker (its own
 * event loop, so a frozen service shows as a slow answer, never as a missing sample), in four
 * phases:
 *
 *   (a) idle;
 *   (b) the runner reading, building and solving a model of about 1.3 M variables sent as a
 *       ~120 KB body (Calliope's national-scale example, its locations copied 39 times, 31 days
 *       at 1 h); the build and the first SOLVE_SECONDS of the solve are timed apart, then the
 *       job is cancelled;
 *   (c) a 60 MB invalid model posted to the runner, until its job has failed;
 *   (d) the extraction service running a 0.2 x 0.2 degree box over Liechtenstein.
 *
 *   deno run -A benchmarks/health_during_load.ts [--idle-seconds 5] [--solve-seconds 15]
 *     [--groups 39] [--days 31] [--body-mb 60] [--phases a,b,c,d]
 *
 * STORE_PATH (default data/store.duckdb, built when missing, as `deno task start` does) is the
 * data store; every other state file lives in a temporary directory. The requests that carry
 * big bodies are sent from the sampling Worker too, so that the sending does not load the
 * services' thread. Prints one Markdown table: p50, p99 and max per service and phase, ms.
 */
import { parseArgs } from "node:util";
import { startServices } from "../server/main.ts";
import { invalidModelBody, nationalScaleCopies } from "../tests/runner/_national_copies.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    "idle-seconds": { type: "string", default: "5" },
    "solve-seconds": { type: "string", default: "15" },
    groups: { type: "string", default: "39" },
    days: { type: "string", default: "31" },
    "body-mb": { type: "string", default: "60" },
    phases: { type: "string", default: "a,b,c,d" },
  },
}).values;
const IDLE_S = Number(args["idle-seconds"]);
const SOLVE_S = Number(args["solve-seconds"]);
const GROUPS = Number(args.groups);
const DAYS = Number(args.days);
const BODY_MB = Number(args["body-mb"]);
const PHASES = new Set(args.phases.split(","));
const HEAT_KEY = "health-during-load-key";
const SAMPLE_MS = 20;

// ---------------------------------------------------------------------------------------------
// The sampling Worker: one loop per service, and a POST of a big body on request.

const SAMPLER = `
let targets = [];
let phase = "";
let running = false;
const samples = {};
async function loop(target) {
  while (running) {
    const started = performance.now();
    const current = phase;
    try {
      const res = await fetch(target.url, { headers: target.headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(target.name + " answered " + res.status);
    } catch (error) {
      self.postMessage({ type: "warn", message: String(error) });
    }
    const ms = performance.now() - started;
    ((samples[current] ??= {})[target.name] ??= []).push(ms);
    if (ms > 200) {
      const at = new Date(performance.timeOrigin + started).toISOString().slice(11, 23);
      self.postMessage({ type: "warn", message: target.name + " took " + ms.toFixed(0) + " ms from " + at });
    }
    await new Promise((r) => setTimeout(r, Math.max(0, ${SAMPLE_MS} - ms)));
  }
}
self.onmessage = async (event) => {
  const m = event.data;
  if (m.type === "start") {
    targets = m.targets;
    running = true;
    for (const t of targets) loop(t);
  } else if (m.type === "phase") {
    phase = m.phase;
  } else if (m.type === "stop") {
    running = false;
    self.postMessage({ type: "samples", samples });
  } else if (m.type === "post") {
    // Sent in 1 MiB pieces, as a browser streams an upload.
    let sent = 0;
    const body = new ReadableStream({
      pull(c) {
        if (sent >= m.bytes.length) return c.close();
        c.enqueue(m.bytes.slice(sent, sent + 1048576));
        sent += 1048576;
      },
    });
    const started = performance.now();
    const res = await fetch(m.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    const text = await res.text();
    self.postMessage({ type: "posted", id: m.id, status: res.status, text, ms: performance.now() - started });
  }
};
`;

const sampler = new Worker(
  URL.createObjectURL(new Blob([SAMPLER], { type: "application/javascript" })),
  { type: "module" },
);
const posted = new Map<number, (answer: { status: number; text: string; ms: number }) => void>();
let collected: ((samples: Record<string, Record<string, number[]>>) => void) | undefined;
sampler.onmessage = (event) => {
  const m = event.data;
  if (m.type === "warn") console.error(`  sampler: ${m.message}`);
  if (m.type === "posted") posted.get(m.id)?.(m);
  if (m.type === "samples") collected?.(m.samples);
};
let postIds = 0;

/** POSTs `bytes` from the Worker; the status and the text of the answer. */
function postFromWorker(url: string, bytes: Uint8Array<ArrayBuffer>) {
  const id = ++postIds;
  return new Promise<{ status: number; text: string; ms: number }>((resolve) => {
    posted.set(id, resolve);
    sampler.postMessage({ type: "post", id, url, bytes }, [bytes.buffer]);
  });
}

const phase = (name: string) => {
  console.error(`${new Date().toISOString().slice(11, 23)} phase ${name}`);
  sampler.postMessage({ type: "phase", phase: name });
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// The services, as `deno task start` starts them.

const dir = await Deno.makeTempDir({ prefix: "health_during_load_" });
const env: Record<string, string> = {
  HOST: "127.0.0.1",
  HEAT_PORT: "0",
  CATALOGUE_PORT: "0",
  RUNNER_PORT: "0",
  BACKEND_PORT: "0",
  EXTRACTION_PORT: "0",
  HYDROGEN_PORT: "0",
  CCS_PORT: "0",
  BACKEND_STATE_PATH: `${dir}/backend.duckdb`,
  EXTRACTION_STATE_PATH: `${dir}/extraction.duckdb`,
  OSM_STORE_PATH: `${dir}/osm.duckdb`,
  STATE_PATH: `${dir}/state.duckdb`,
  STORE_PATH: Deno.env.get("STORE_PATH") ??
    new URL("../data/store.duckdb", import.meta.url).pathname,
  JWT_SECRET_FILE: "",
  JWT_SECRET_KEY: "a-benchmark-secret-of-at-least-32-bytes",
  HEAT_API_KEY: HEAT_KEY,
};
console.error("starting every service (the store is built first if it is missing)...");
const services = await startServices(env);
const base = (name: string) => {
  const listener = services.listeners.find((l) => l.name === name);
  if (!listener) throw new Error(`no ${name} listener`);
  return `http://127.0.0.1:${listener.port}`;
};
const HEALTH: Record<string, { path: string; headers?: Record<string, string> }> = {
  heat: { path: "/heat/health", headers: { "X-Api-Key": HEAT_KEY } },
  catalogue: { path: "/health" },
  runner: { path: "/health" },
  backend: { path: "/api/health" },
  extraction: { path: "/api/v1/health" },
  hydrogen: { path: "/health" },
  ccs: { path: "/health" },
};
const targets = services.listeners.map((l) => ({
  name: l.name,
  url: `${base(l.name)}${HEALTH[l.name]?.path ?? "/health"}`,
  headers: HEALTH[l.name]?.headers ?? {},
}));
const RUNNER = base("runner");

/** Reads a runner job's event stream; calls `onEvent` with each; resolves at its end. */
async function follow(id: string, onEvent: (event: Record<string, unknown>) => void) {
  const res = await fetch(`${RUNNER}/run/${id}/stream`);
  let buffer = "";
  for await (const text of res.body!.pipeThrough(new TextDecoderStream())) {
    buffer += text;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith("data: ")) onEvent(JSON.parse(frame.slice(6)));
    }
  }
}

// The bodies are made before anything is timed.
const model = new TextEncoder().encode(
  JSON.stringify(await nationalScaleCopies({ groups: GROUPS, days: DAYS })),
);
const big = invalidModelBody(BODY_MB * 1024 * 1024);

/** Waits until the OSM store's seed (Liechtenstein, imported on a first start) is in. */
async function seeded() {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${base("backend")}/api/osm/regions`);
    const body = res.ok ? await res.json() : (await res.body?.cancel(), { regions: [] });
    if (body.regions?.length > 0) return;
    await sleep(200);
  }
  throw new Error("the OSM store was not seeded within 2 minutes");
}

const notes: string[] = [];
try {
  await seeded();
  // A warm-up request per service (first-use compilation is not what is measured).
  for (const t of targets) await (await fetch(t.url, { headers: t.headers })).arrayBuffer();
  sampler.postMessage({ type: "start", targets });

  // (a) idle
  if (PHASES.has("a")) {
    phase("a idle");
    await sleep(IDLE_S * 1000);
  }

  // (b) a 1.3 M-variable LP: read and built, then solved for a while, then cancelled.
  if (PHASES.has("b")) {
    const modelBytes = model.length;
    phase("b1 runner: read + build");
    const submitted = await postFromWorker(`${RUNNER}/run`, model);
    if (submitted.status !== 202) {
      throw new Error(`POST /run: ${submitted.status} ${submitted.text}`);
    }
    const jobId = JSON.parse(submitted.text).job_id as string;
    let buildLine = "";
    let solveStarted: () => void = () => {};
    const solving = new Promise<void>((resolve) => solveStarted = resolve);
    const followed = follow(jobId, (event) => {
      const line = event["line"];
      if (typeof line === "string" && line.startsWith("[runner] built the LP")) {
        buildLine = line;
        solveStarted();
      }
      if (event["type"] === "done" || event["type"] === "error") solveStarted();
    });
    await solving;
    phase("b2 runner: solve");
    notes.push(
      `(b) body ${modelBytes} bytes (${GROUPS} copies x ${DAYS} days), POST answered in ` +
        `${submitted.ms.toFixed(0)} ms; ${buildLine.replace("[runner] ", "")}`,
    );
    await Promise.race([sleep(SOLVE_S * 1000), followed]);
    const cancelled = await fetch(`${RUNNER}/run/${jobId}`, { method: "DELETE" });
    await cancelled.body?.cancel();
    await followed;
  }

  // (c) a 60 MB invalid model, until its job has failed.
  if (PHASES.has("c")) {
    phase("c runner: 60 MB invalid model");
    const bigBytes = big.length;
    const refused = await postFromWorker(`${RUNNER}/run`, big);
    if (refused.status !== 202) throw new Error(`POST /run: ${refused.status} ${refused.text}`);
    const bigId = JSON.parse(refused.text).job_id as string;
    let failedWith = "";
    await follow(bigId, (event) => {
      if (event["type"] === "error") failedWith = String(event["error"]).slice(0, 100);
    });
    notes.push(
      `(c) body ${bigBytes} bytes, POST answered in ${refused.ms.toFixed(0)} ms; the job ended: ` +
        `${failedWith}...`,
    );
  }

  // (d) a 0.2 x 0.2 degree extraction over Liechtenstein.
  if (PHASES.has("d")) {
    phase("d extraction: 0.2 deg LI box");
    const EXTRACTION = base("extraction");
    const box = { country: "LI", xmin: 9.45, ymin: 47.05, xmax: 9.65, ymax: 47.25 };
    const started = performance.now();
    const run = await fetch(`${EXTRACTION}/api/v1/runs`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(box),
    });
    const runText = await run.text();
    if (run.status !== 202) throw new Error(`POST /api/v1/runs: ${run.status} ${runText}`);
    const runId = JSON.parse(runText).run_id as string;
    let status: Record<string, unknown> = {};
    for (;;) {
      await sleep(100);
      status = await (await fetch(`${EXTRACTION}/api/v1/runs/${runId}`)).json();
      if (!["queued", "running"].includes(String(status["status"]))) break;
    }
    notes.push(
      `(d) box ${JSON.stringify(box)}: ${status["status"]} after ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s` +
        `: ${JSON.stringify(status["counts"])}${status["error"] ? ` (${status["error"]})` : ""}`,
    );
  }
} finally {
  const samples = await new Promise<Record<string, Record<string, number[]>>>((resolve) => {
    collected = resolve;
    sampler.postMessage({ type: "stop" });
  });
  sampler.terminate();
  await services.stop();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  report(samples);
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function report(samples: Record<string, Record<string, number[]>>) {
  const names = targets.map((t) => t.name);
  console.log(
    "`/health` latency, ms (p50 / p99 / max, samples), each service timed every " +
      `${SAMPLE_MS} ms from a Worker, all services in one process:\n`,
  );
  console.log(`| phase | ${names.join(" | ")} |`);
  console.log(`| --- | ${names.map(() => "---").join(" | ")} |`);
  for (const [phaseName, byService] of Object.entries(samples)) {
    if (phaseName === "") continue;
    const cells = names.map((name) => {
      const sorted = [...(byService[name] ?? [])].sort((a, b) => a - b);
      const f = (v: number) => v.toFixed(v < 10 ? 1 : 0);
      return `${f(percentile(sorted, 50))} / ${f(percentile(sorted, 99))} / ` +
        `${f(sorted.at(-1) ?? NaN)} (${sorted.length})`;
    });
    console.log(`| ${phaseName} | ${cells.join(" | ")} |`);
  }
  console.log("");
  for (const note of notes) console.log(`- ${note}`);
}
