import assert from "node:assert/strict";
import { startServices } from "../../server/main.ts";
import { SHUTDOWN_EVENT } from "../../server/middleware/event_stream.ts";
import type { ServiceModule } from "../../server/service_module.ts";
import { selectModules, SERVICE_MODULES } from "../../server/services.ts";
import { closed, streamModule } from "./_stream_module.ts";
import { TEST_HEAT_API_KEY, testEnv } from "./_services_env.ts";

const names = (modules: readonly ServiceModule[]) => modules.map((m) => m.name);

/**
 * One data store for the tests of this file that start the heat service: the first start builds
 * it, the next finds it up to date (a build takes about 3 s).
 */
const storeDir = await Deno.makeTempDir();
const sharedStore = { STORE_PATH: `${storeDir}/store.duckdb` };
globalThis.addEventListener("unload", () => Deno.removeSync(storeDir, { recursive: true }));

Deno.test("selectModules() starts all by default, else the named ones in start order", () => {
  const all = ["heat", "catalogue", "runner", "backend", "extraction", "hydrogen", "ccs"];
  assert.deepEqual(names(selectModules(SERVICE_MODULES, undefined)), all);
  assert.deepEqual(names(selectModules(SERVICE_MODULES, [])), all);
  assert.deepEqual(names(selectModules(SERVICE_MODULES, ["catalogue"])), ["catalogue"]);
  assert.deepEqual(
    names(selectModules(SERVICE_MODULES, ["catalogue", "heat"])),
    ["heat", "catalogue"],
  );
  assert.deepEqual(names(selectModules(SERVICE_MODULES, ["runner", "heat"])), ["heat", "runner"]);
  assert.throws(() => selectModules(SERVICE_MODULES, ["heat", "nosuch"], "--only"), {
    name: "RangeError",
    message: '--only: unknown service "nosuch"; known: heat, catalogue, runner, backend, ' +
      "extraction, hydrogen, ccs",
  });
});

/** Reads an event stream until it ends; gives the event names in order. */
async function eventNames(body: ReadableStream<Uint8Array>, afterFirst: () => void) {
  const events: string[] = [];
  let text = "";
  let first = true;
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    for (const match of chunk.matchAll(/^event: (\S+)$/gm)) events.push(match[1] ?? "");
    if (first && events.length > 0) {
      first = false;
      afterFirst();
    }
  }
  return { events, text };
}

Deno.test("startServices() starts every module on an ephemeral port and stop() ends streams and closes modules", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const started = await startServices({ ...testEnv(dir), ...sharedStore }, {
      modules: [...SERVICE_MODULES, streamModule],
    });
    let stopped: Promise<void> | undefined;
    try {
      assert.deepEqual(started.listeners.map((l) => l.name), [
        "heat",
        "catalogue",
        "runner",
        "backend",
        "extraction",
        "hydrogen",
        "ccs",
        "stream",
      ]);
      const ports = started.listeners.map((l) => l.port);
      assert.ok(ports.every((p) => p > 0), `bound ports: ${ports}`);
      assert.equal(new Set(ports).size, 8);
      const url = (name: string, path: string) => {
        const listener = started.listeners.find((l) => l.name === name);
        return `http://127.0.0.1:${listener?.port}${path}`;
      };

      const heat = await fetch(url("heat", "/heat/health"), {
        headers: { "X-Api-Key": TEST_HEAT_API_KEY },
      });
      assert.deepEqual(await heat.json(), { status: "ok" });
      const catalogue = await fetch(url("catalogue", "/health"));
      assert.equal((await catalogue.json()).status, "ok");
      const runner = await fetch(url("runner", "/health"));
      assert.equal((await runner.json()).status, "ok");
      const backend = await fetch(url("backend", "/api/health"));
      assert.equal((await backend.json()).status, "ok");
      const extraction = started.listeners.find((l) => l.name === "extraction");
      assert.equal(extraction?.hostname, "127.0.0.1", "the extraction service binds loopback");
      const health = await fetch(url("extraction", "/api/v1/health"));
      assert.equal((await health.json()).status, "ok");

      const stream = await fetch(url("stream", "/events"));
      assert.equal(stream.headers.get("content-type"), "text/event-stream; charset=utf-8");
      const read = eventNames(stream.body!, () => stopped = started.stop());
      const { events } = await read;
      assert.equal(events[0], "tick");
      assert.equal(events.at(-1), SHUTDOWN_EVENT, "the stream's last event says the server stops");
      assert.ok(stopped, "stop() was called after the first event");
      await stopped;
      assert.ok(closed.includes("stream"), "the module's close() ran");
      await assert.rejects(fetch(url("catalogue", "/health")), TypeError, "no longer listening");
      await assert.rejects(Deno.stat(`${dir}/state.duckdb.wal`), Deno.errors.NotFound);
      await assert.rejects(Deno.stat(`${dir}/backend.duckdb.wal`), Deno.errors.NotFound);
      await assert.rejects(Deno.stat(`${dir}/extraction.duckdb.wal`), Deno.errors.NotFound);
    } finally {
      await (stopped ?? started.stop());
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServices() reads every selected module's settings before starting any", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      startServices({ ...testEnv(dir), CATALOGUE_PORT: "x" }),
      { message: /^CATALOGUE_PORT: must be an integer port/ },
    );
    // Nothing started: the heat service did not build the data store.
    await assert.rejects(Deno.stat(`${dir}/store.duckdb`), Deno.errors.NotFound);
    await assert.rejects(startServices(testEnv(dir), { args: ["--only", "nosuch"] }), {
      message: '--only: unknown service "nosuch"; known: heat, catalogue, runner, backend, ' +
        "extraction, hydrogen, ccs",
    });
    await assert.rejects(startServices(testEnv(dir), { args: ["--every"] }), TypeError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServices() with --only catalogue starts that service alone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const started = await startServices(testEnv(dir), { args: ["--only", "catalogue"] });
    try {
      assert.deepEqual(started.listeners.map((l) => l.name), ["catalogue"]);
      const res = await fetch(`http://127.0.0.1:${started.listeners[0]?.port}/health`);
      assert.equal((await res.json()).status, "ok");
      // The heat service's data store is neither built nor opened.
      await assert.rejects(Deno.stat(`${dir}/store.duckdb`), Deno.errors.NotFound);
    } finally {
      await started.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServices() names a port in use before starting any module", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const before = closed.length;
  try {
    await assert.rejects(
      startServices(
        { HOST: "127.0.0.1", STREAM_PORT: String(taken.addr.port) },
        { modules: [streamModule] },
      ),
      { message: new RegExp(`^stream: cannot listen on 127\\.0\\.0\\.1:${taken.addr.port}: `) },
    );
    // Every listener is bound before any module starts: nothing was opened, nothing to close.
    assert.equal(closed.length, before, "the module was not started");
  } finally {
    taken.close();
  }
});

Deno.test("startServices() guards every listener: a stalled header block gets 408 and is closed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const started = await startServices({
      ...testEnv(dir),
      ...sharedStore,
      HEADER_TIMEOUT_SECONDS: "0.3",
      IDLE_TIMEOUT_SECONDS: "0.5",
    });
    try {
      // Every listener at once: each one's header deadline runs in parallel.
      await Promise.all(started.listeners.map(async (listener) => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: listener.port });
        try {
          await conn.write(new TextEncoder().encode("GET /health HTTP/1.1\r\nHost: x\r\n"));
          const answer = new Uint8Array(4096);
          const n = await conn.read(answer);
          assert.match(
            new TextDecoder().decode(answer.subarray(0, n ?? 0)),
            /^HTTP\/1\.1 408 /,
            listener.name,
          );
          assert.equal(await conn.read(answer), null, `${listener.name} closed the connection`);
        } finally {
          conn.close();
        }
      }));
    } finally {
      await started.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServices() closes the started modules when a later one fails to start", async () => {
  const dir = await Deno.makeTempDir();
  const failing: ServiceModule = {
    name: "failing",
    configure: () => ({
      port: 0,
      start: () => Promise.reject(new Error("failing: cannot start")),
    }),
  };
  try {
    const backend = SERVICE_MODULES.find((m) => m.name === "backend");
    assert.ok(backend);
    // The backend waits for every service to listen before checking its neighbours: a stop
    // before that must not leave its close() waiting.
    await assert.rejects(
      startServices(testEnv(dir), { modules: [backend, failing] }),
      { message: "failing: cannot start" },
    );
    await assert.rejects(Deno.stat(`${dir}/backend.duckdb.wal`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
