import assert from "node:assert/strict";
import { createSimulationApp } from "../../../server/simulation/app.ts";
import { serveGuarded } from "../../../server/connection_guard.ts";
import { tankModel } from "../../simulation/_tank_model.ts";
import { collect, opened, serve, SETTINGS } from "./_serve.ts";

const JSON_HEADERS = { "Content-Type": "application/json" };
const small = { simulation: { t_end_s: 3600, dt_s: 1 } };
const long = { simulation: { t_end_s: 1e6, dt_s: 1 }, substeps: 2000 };
const hydrogenTank = { ...tankModel, name: "hydrogen" };
const ccsTank = { ...tankModel, name: "ccs" };

const post = (
  app: { request: (p: string, i: RequestInit) => Response | Promise<Response> },
  path: string,
  body: unknown,
) => app.request(path, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });

async function untilDone(app: ReturnType<typeof createSimulationApp>["app"], id: string) {
  for (let i = 0; i < 500; i++) {
    const view = await (await app.request(`/jobs/${id}`)).json();
    if (view.status !== "queued" && view.status !== "running") return view;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("job did not finish");
}

Deno.test("simulation app: documented routes run a job to done", async () => {
  const { app, close } = createSimulationApp({ model: tankModel, settings: SETTINGS });
  const ack = await post(app, "/simulate", small);
  assert.equal(ack.status, 202);
  const body = await ack.json();
  assert.deepEqual(Object.keys(body).sort(), ["job_id", "message", "status"]);
  assert.equal(body.status, "queued");
  assert.ok(!("time_s" in body) && !("electrolyzer" in body));
  const done = await untilDone(app, body.job_id);
  assert.equal(done.status, "done");
  assert.equal(done.progress_pct, 100);
  assert.equal(done.error, null);
  assert.equal((done.result.time_s as number[]).length, 3600);
  await close();
});

Deno.test("simulation app: hydrogen client routes see the same job", async () => {
  const { app, close } = createSimulationApp({ model: hydrogenTank, settings: SETTINGS });
  const { job_id } = await (await post(app, "/api/hydrogen/simulate", small)).json();
  await untilDone(app, job_id);
  const status = await (await app.request(`/api/hydrogen/status/${job_id}`)).json();
  assert.equal(status.status, "done");
  const result = await (await app.request(`/api/hydrogen/result/${job_id}`)).json();
  assert.deepEqual(Object.keys(result).sort(), ["job_id", "result", "status"]);
  assert.equal(result.status, "done");
  assert.ok(Array.isArray(result.result.time_s));
  for (const path of ["/health", "/api/health", "/api/hydrogen/health"]) {
    const health = await (await app.request(path)).json();
    assert.deepEqual(health, {
      status: "ok",
      engine_ready: true,
      engine_error: null,
      active_jobs: 0,
      model: "hydrogen",
    });
  }
  await close();
});

Deno.test("simulation app: ccs client routes, result inside the status", async () => {
  const { app, close } = createSimulationApp({ model: ccsTank, settings: SETTINGS });
  const a = await (await post(app, "/api/ccs/submit", small)).json();
  const b = await (await post(app, "/api/ccs/simulate", small)).json();
  for (const { job_id } of [a, b]) {
    await untilDone(app, job_id);
    const status = await (await app.request(`/api/ccs/status/${job_id}`)).json();
    assert.equal(status.status, "done");
    assert.ok(status.result && Array.isArray(status.result.time_s));
  }
  assert.equal((await app.request("/api/ccs/health")).status, 200);
  await close();
});

Deno.test("simulation app: errors are {detail} with 400, 404, 413, 422", async (t) => {
  const { app, close } = createSimulationApp({ model: tankModel, settings: SETTINGS });
  await t.step("400 malformed JSON", async () => {
    const res = await app.request("/simulate", {
      method: "POST",
      headers: JSON_HEADERS,
      body: "{",
    });
    assert.equal(res.status, 400);
    assert.match((await res.json()).detail, /Malformed JSON/);
  });
  await t.step("422 names every wrong field", async () => {
    const res = await post(app, "/simulate", {
      simulation: { t_end_s: -1, dt_s: "x" },
      tank: { area_m2: 0 },
    });
    assert.equal(res.status, 422);
    const { detail } = await res.json();
    const locs = detail.map((d: { loc: unknown[] }) => d.loc.join("."));
    assert.deepEqual(locs.sort(), [
      "body.simulation.dt_s",
      "body.simulation.t_end_s",
      "body.tank.area_m2",
    ]);
    assert.ok(detail.every((d: { msg: string }) => typeof d.msg === "string"));
  });
  await t.step(
    "422 over the model's limits (issue 18: 422 naming the limit, was 413)",
    async () => {
      const res = await post(app, "/simulate", { simulation: { t_end_s: 2e6, dt_s: 1 } });
      assert.equal(res.status, 422);
      assert.match(
        (await res.json()).detail,
        /simulation\.t_end_s.*2000000 steps, at most 1000000/,
      );
    },
  );
  await t.step("413 over SIM_MAX_BODY_MB, naming it", async () => {
    const { app: tight, close: closeTight } = createSimulationApp({
      model: tankModel,
      settings: { ...SETTINGS, maxBodyBytes: 1024 * 1024 },
    });
    const res = await tight.request("/simulate", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ ...small, pad: "x".repeat(1024 * 1024) }),
    });
    assert.equal(res.status, 413);
    assert.match((await res.json()).detail, /SIM_MAX_BODY_MB = 1\b/);
    await closeTight();
  });
  await t.step("404 unknown job on every job route", async () => {
    for (
      const [method, path] of [
        ["GET", "/jobs/nope"],
        ["DELETE", "/jobs/nope"],
        ["GET", "/api/tank/status/nope"],
        ["GET", "/api/tank/result/nope"],
        ["DELETE", "/api/tank/jobs/nope"],
      ]
    ) {
      const res = await app.request(path!, { method: method! });
      assert.equal(res.status, 404, path!);
      assert.match((await res.json()).detail, /Unknown or expired job: nope/);
    }
    assert.equal((await app.request("/nothing")).status, 404);
  });
  await close();
});

Deno.test("simulation app: CORS for every origin with preflight", async () => {
  const { app, close } = createSimulationApp({ model: hydrogenTank, settings: SETTINGS });
  const pre = await app.request("/api/hydrogen/simulate", {
    method: "OPTIONS",
    headers: {
      Origin: "null",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type",
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.match(pre.headers.get("access-control-allow-methods")!, /DELETE/);
  assert.equal(pre.headers.get("access-control-allow-headers"), "content-type");
  const health = await app.request("/health", { headers: { Origin: "null" } });
  assert.equal(health.headers.get("access-control-allow-origin"), "*");
  await close();
});

Deno.test("simulation app: DELETE cancels a running job within 100 ms; queue beyond SIM_MAX_JOBS", async () => {
  const { app, jobs, close } = createSimulationApp({
    model: hydrogenTank,
    settings: { ...SETTINGS, maxJobs: 1 },
  });
  const first = (await (await post(app, "/simulate", long)).json()).job_id;
  const second = (await (await post(app, "/api/hydrogen/simulate", long)).json()).job_id;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal((await (await app.request(`/jobs/${first}`)).json()).status, "running");
  assert.equal((await (await app.request(`/jobs/${second}`)).json()).status, "queued");
  assert.equal((await (await app.request("/health")).json()).active_jobs, 2);
  const t0 = performance.now();
  const cancelled = await (await app.request(`/jobs/${first}`, { method: "DELETE" })).json();
  assert.equal(cancelled.status, "cancelled");
  await jobs.settled(first);
  assert.ok(performance.now() - t0 < 100);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal((await (await app.request(`/jobs/${second}`)).json()).status, "running");
  const res = await app.request(`/api/hydrogen/jobs/${second}`, { method: "DELETE" });
  assert.equal((await res.json()).status, "cancelled");
  const result = await app.request(`/api/hydrogen/result/${second}`);
  assert.equal(result.status, 409);
  await close();
});

Deno.test("simulation app: a finished job expires after SIM_JOB_TTL_S", async () => {
  let now = 0;
  const { app, close } = createSimulationApp({
    model: tankModel,
    settings: { ...SETTINGS, jobTtlMs: 60_000 },
    jobOptions: { now: () => now },
  });
  const { job_id } = await (await post(app, "/simulate", small)).json();
  await untilDone(app, job_id);
  now = 59_999;
  assert.equal((await app.request(`/jobs/${job_id}`)).status, 200);
  now = 60_000;
  assert.equal((await app.request(`/jobs/${job_id}`)).status, 404);
  await close();
});

Deno.test("simulation app: /openapi.json documents every route, /docs serves a page", async () => {
  const { app, close } = createSimulationApp({ model: hydrogenTank, settings: SETTINGS });
  const doc = await (await app.request("/openapi.json")).json();
  for (
    const path of [
      "/simulate",
      "/jobs/{id}",
      "/",
      "/api/hydrogen/simulate",
      "/api/hydrogen/status/{id}",
      "/api/hydrogen/result/{id}",
      "/api/hydrogen/ws/{id}",
      "/api/hydrogen/jobs/{id}",
      "/health",
      "/api/health",
      "/api/hydrogen/health",
    ]
  ) {
    assert.ok(doc.paths[path], path);
  }
  const docs = await app.request("/docs");
  assert.equal(docs.status, 200);
  assert.match(await docs.text(), /<html/i);
  await close();
});

Deno.test("simulation app: WebSocket streams ordered frames then the result, on every socket route", async (t) => {
  const served = serve(hydrogenTank);
  try {
    const slow = { simulation: { t_end_s: 20_000, dt_s: 1 }, substeps: 100 };
    await t.step("/api/hydrogen/ws/{id}", async () => {
      const { job_id } = await (await fetch(`${served.http}/api/hydrogen/simulate`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(slow),
      })).json();
      const socket = new WebSocket(`${served.ws}/api/hydrogen/ws/${job_id}`);
      const all = collect(socket);
      const { messages, code } = await all;
      assert.equal(code, 1000);
      const frames = messages.map((m) => JSON.parse(m));
      const progress = frames.filter((f) => f.type === "progress");
      assert.ok(progress.length >= 2);
      const steps = progress.map((f) => f.step);
      assert.deepEqual(steps, [...steps].sort((a, b) => a - b));
      for (const f of progress) {
        assert.equal(typeof f.progress_pct, "number");
        assert.equal(typeof f.t_s, "number");
        assert.equal(typeof f.tank_level_m, "number");
      }
      assert.equal(frames.at(-1).type, "result");
      assert.ok(Array.isArray(frames.at(-1).result.time_s));
    });
    await t.step(
      "/ with {job_id}, ping gets pong, late join gets latest frame and result",
      async () => {
        const { job_id } = await (await fetch(`${served.http}/simulate`, {
          method: "POST",
          headers: JSON_HEADERS,
          body: JSON.stringify(small),
        })).json();
        await served.jobs.settled(job_id);
        const socket = new WebSocket(`${served.ws}/`);
        await opened(socket);
        const all = collect(socket);
        socket.send("ping");
        await new Promise((r) => setTimeout(r, 20));
        socket.send(JSON.stringify({ job_id }));
        const { messages } = await all;
        assert.equal(messages[0], "pong");
        const frames = messages.slice(1).map((m) => JSON.parse(m));
        assert.deepEqual(frames.map((f) => f.type), ["progress", "result"]);
        assert.equal(frames[0].progress_pct, 100);
      },
    );
    await t.step("/?job_id= and 404 for an unknown job", async () => {
      const { job_id } = await (await fetch(`${served.http}/simulate`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(small),
      })).json();
      const { messages } = await collect(new WebSocket(`${served.ws}/?job_id=${job_id}`));
      assert.equal(JSON.parse(messages.at(-1)!).type, "result");
      const res = await fetch(`${served.http}/api/hydrogen/ws/nope`, {
        headers: {
          Upgrade: "websocket",
          Connection: "Upgrade",
          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
          "Sec-WebSocket-Version": "13",
        },
      });
      assert.equal(res.status, 404);
      await res.body?.cancel();
    });
    await t.step("a cancel reaches the socket as an error frame", async () => {
      const { job_id } = await (await fetch(`${served.http}/simulate`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(long),
      })).json();
      const socket = new WebSocket(`${served.ws}/api/hydrogen/ws/${job_id}`);
      await opened(socket);
      const all = collect(socket);
      await new Promise((r) => setTimeout(r, 30));
      const t0 = performance.now();
      await (await fetch(`${served.http}/jobs/${job_id}`, { method: "DELETE" })).body?.cancel();
      const { messages } = await all;
      assert.ok(performance.now() - t0 < 100);
      assert.deepEqual(JSON.parse(messages.at(-1)!), {
        type: "error",
        error: "Job cancelled",
        status: "cancelled",
      });
    });
  } finally {
    await served.stop();
  }
});

Deno.test("simulation app: WebSocket upgrade works through serveGuarded (server/main.ts's path)", async () => {
  const service = createSimulationApp({ model: ccsTank, settings: SETTINGS });
  const server = serveGuarded(
    {
      hostname: "127.0.0.1",
      port: 0,
      limits: { headerMs: 5000, bodyIdleMs: 5000, idleMs: 5000, maxHeaderBytes: 65536 },
    },
    (request, info) => service.app.fetch(request, info),
  );
  try {
    const base = `127.0.0.1:${server.addr.port}`;
    const { job_id } = await (await fetch(`http://${base}/api/ccs/submit`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(small),
    })).json();
    const { messages } = await collect(new WebSocket(`ws://${base}/api/ccs/ws/${job_id}`));
    assert.equal(JSON.parse(messages.at(-1)!).type, "result");
  } finally {
    await service.close();
    await server.shutdown();
  }
});
