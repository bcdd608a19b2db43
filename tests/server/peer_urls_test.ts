/**
 * Issue 18, item 5: a new user moves the runner and the catalogue off their default ports (5000
 * is taken on many machines) and starts everything with one `deno task start`. The backend of
 * the same process must find them where they listen, with RUNNER_URL and CATALOGUE_URL unset;
 * a neighbour that does not answer is named once in the log with the variable to set.
 */
import assert from "node:assert/strict";
import { startServices } from "../../server/main.ts";
import { call, closedUrl, frontendModel, waitFinished } from "./backend/_backend.ts";
import { testEnv } from "./_services_env.ts";

/** A port free a moment ago, and none of the services' defaults. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Runs `fn` with console.error's lines collected; restores it after. */
async function withLog<T>(fn: (lines: string[]) => Promise<T>): Promise<T> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    return await fn(lines);
  } finally {
    console.error = original;
  }
}

/** Waits until `ok()` or `ms` passed. */
async function until(ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
}

// Before the fix: every run failed ("job failed") and /tech/* answered 502.
Deno.test("the backend finds the runner and catalogue of its process on non-default ports", async () => {
  const dir = await Deno.makeTempDir();
  const [runnerPort, cataloguePort, backendPort] = [freePort(), freePort(), freePort()];
  try {
    await withLog(async (log) => {
      const env: Record<string, string> = {
        ...testEnv(dir),
        SERVICES: "catalogue,runner,backend",
        RUNNER_PORT: String(runnerPort),
        CATALOGUE_PORT: String(cataloguePort),
        BACKEND_PORT: String(backendPort),
      };
      delete env["RUNNER_URL"];
      delete env["CATALOGUE_URL"];
      const started = await startServices(env);
      const base = `http://127.0.0.1:${backendPort}`;
      try {
        assert.deepEqual(
          started.listeners.map((l) => [l.name, l.port]),
          [["catalogue", cataloguePort], ["runner", runnerPort], ["backend", backendPort]],
        );
        assert.ok(
          log.includes(
            `backend: runner http://127.0.0.1:${runnerPort} (of this process), ` +
              `catalogue http://127.0.0.1:${cataloguePort} (of this process)`,
          ),
          log.join("\n"),
        );

        const health = await call(base, "GET", "/api/health");
        assert.equal(health.body.runner.url, `http://127.0.0.1:${runnerPort}`);
        assert.equal(health.body.runner.reachable, true);
        assert.equal(health.body.catalogue.reachable, true);

        const saved = await call(base, "POST", "/api/models", frontendModel());
        assert.equal(saved.status, 201);
        const run = await call(base, "POST", `/api/models/${saved.body.id}/run`);
        assert.equal(run.status, 202, JSON.stringify(run.body));
        const job = await waitFinished(base, run.body.id, 60_000);
        assert.equal(job.status, "completed", JSON.stringify(job));

        const tech = await call(base, "GET", "/tech/health");
        assert.equal(tech.status, 200, JSON.stringify(tech.body));
        assert.equal(tech.body.status, "ok");
        const list = await call(base, "GET", "/tech/api/v1/technologies?limit=1");
        assert.equal(list.status, 200);

        // The backend's own pages are allowed by the port it listens on, not by Host.
        const own = await call(base, "GET", "/api/jobs/x", undefined, {
          Origin: `http://localhost:${backendPort}`,
        });
        assert.equal(own.status, 404);
        assert.equal(
          own.headers.get("access-control-allow-origin"),
          `http://localhost:${backendPort}`,
        );

        // The audit's escape, raw over the socket, through the guard: refused, nothing sent.
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: backendPort });
        await conn.write(new TextEncoder().encode(
          `GET /tech/api/v1/../../../xxxx@127.0.0.1:${runnerPort}/health HTTP/1.1\r\n` +
            "Host: 127.0.0.1\r\nConnection: close\r\n\r\n",
        ));
        const answer = new TextDecoder().decode(
          await new Response(conn.readable).arrayBuffer(),
        );
        assert.match(answer, /^HTTP\/1\.1 400 /);
        assert.match(answer, /Invalid catalogue path/);

        // Nothing was said to be silent.
        assert.ok(!log.some((line) => /does not answer/.test(line)), log.join("\n"));
      } finally {
        await started.stop();
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a backend whose runner and catalogue do not answer says so once, naming the variables", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await withLog(async (log) => {
      const runnerUrl = closedUrl();
      const catalogueUrl = closedUrl();
      const started = await startServices({
        ...testEnv(dir),
        SERVICES: "backend",
        RUNNER_URL: runnerUrl,
        CATALOGUE_URL: catalogueUrl,
      });
      try {
        const silent = () => log.filter((line) => /does not answer/.test(line));
        await until(() => silent().length >= 2);
        // Give a second line a chance to appear: there must be none.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const lines = silent();
        assert.equal(lines.length, 2, log.join("\n"));
        const runner = lines.find((line) => line.includes("runner"));
        const catalogue = lines.find((line) => line.includes("catalogue"));
        assert.match(
          runner ?? "",
          new RegExp(`^backend: the runner does not answer at ${runnerUrl} `),
        );
        assert.match(runner ?? "", /model runs fail until it does: start it, or set RUNNER_URL /);
        assert.match(catalogue ?? "", /set CATALOGUE_URL to where it runs$/);
        // Port 0: the own origins are those of the port it got.
        const port = started.listeners[0]?.port;
        const own = await call(`http://127.0.0.1:${port}`, "GET", "/api/jobs/x", undefined, {
          Origin: `http://127.0.0.1:${port}`,
        });
        assert.equal(own.status, 404);
        assert.equal(own.headers.get("access-control-allow-origin"), `http://127.0.0.1:${port}`);
      } finally {
        await started.stop();
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
